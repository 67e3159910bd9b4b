# What the comparison scripts (http-vs-kestrel.sh, ws-vs-node.sh) share: one server at a time started in the
# background and stopped by SIGTERM (SIGKILL after STOP_TIMEOUT), the exit trap that stops whatever still runs, the
# wait for a server's "listening on" line, and the summary arithmetic over the results table. Sourced, never run.
#
# The sourcing script sets SCRIPT (its name, for messages), START_TIMEOUT and STOP_TIMEOUT (seconds), RESULTS (a TSV
# file with a header line, then one line per run: round, case, server, rate) and BASELINE (the server label the
# paired ratios divide by); it puts the pid of a server in server_pid and of a load generator in runner_pid.
# shellcheck shell=bash

server_pid=""
runner_pid=""

stop_server() { # stops the server of server_pid, if any, bounded
    local pid="$server_pid"
    [[ -n "$pid" ]] || return 0
    server_pid=""
    kill -TERM "$pid" 2>/dev/null || true
    local waited=0
    while kill -0 "$pid" 2>/dev/null && (( waited < STOP_TIMEOUT * 10 )); do
        sleep 0.1
        waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "$SCRIPT: server $pid ignored SIGTERM for ${STOP_TIMEOUT} s; killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local code=$?
    if [[ -n "$runner_pid" ]]; then
        kill -TERM "$runner_pid" 2>/dev/null || true
        wait "$runner_pid" 2>/dev/null || true
    fi
    stop_server
    exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

wait_listening() { # wait_listening LOG NAME: waits for the "listening on" line of server_pid in LOG; sets PORT from it
    local log="$1" name="$2" waited=0
    until grep -q "listening on" "$log" 2>/dev/null; do
        if ! kill -0 "$server_pid" 2>/dev/null || (( waited >= START_TIMEOUT * 10 )); then
            echo "$SCRIPT: $name did not start:" >&2
            sed 's/^/  /' "$log" >&2
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    PORT="$(sed -n 's/.*listening on .*:\([0-9][0-9]*\)$/\1/p' "$log" | head -n 1)"
    if [[ -z "$PORT" ]]; then
        echo "$SCRIPT: no port in the 'listening' line of $name: $(head -n 1 "$log")" >&2
        return 1
    fi
}

median() { # median CASE SERVER: the median rate of that case and server over the rounds
    awk -F '\t' -v c="$1" -v s="$2" '$2 == c && $3 == s { print $4 }' "$RESULTS" | sort -g \
        | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# paired CASE: ours/BASELINE of each round (the two runs were next to each other in time, so a load change on the
# shared machine mostly hits both), then their median after a colon.
paired() {
    awk -F '\t' -v c="$1" -v b="$BASELINE" '$2 == c { rate[$1 "," $3] = $4; if ($1 > rounds) rounds = $1 }
        END {
            for (r = 1; r <= rounds; r++) {
                k = rate[r "," b]
                q[r] = k > 0 ? rate[r ",ours"] / k : 0
                printf "%s%.2f", (r > 1 ? " " : ""), q[r]
            }
            for (i = 1; i <= rounds; i++) for (j = i + 1; j <= rounds; j++) if (q[j] < q[i]) { t = q[i]; q[i] = q[j]; q[j] = t }
            m = rounds % 2 ? q[(rounds + 1) / 2] : (q[rounds / 2] + q[rounds / 2 + 1]) / 2
            printf " : %.2f", m
        }' "$RESULTS"
}

runs() { # runs CASE SERVER: that case's rate of every round, in round order
    awk -F '\t' -v c="$1" -v s="$2" '$2 == c && $3 == s { printf "%s%.0f", (n++ ? " " : ""), $4 }' "$RESULTS"
}
