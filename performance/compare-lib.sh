# What the comparison scripts (http-vs-kestrel.sh, ws-vs-node.sh) share: one server at a time started in the
# background and stopped by SIGTERM (SIGKILL after STOP_TIMEOUT), the exit trap that stops whatever still runs, the
# Release build of the performance programs, the wait for a server's "listening on" line, the load average lines, and
# the summary table over the results. Sourced, never run.
#
# The sourcing script sets ROOT (the repository), OUT (its artifacts folder), SCRIPT (its name, for messages),
# START_TIMEOUT and STOP_TIMEOUT (seconds), RESULTS (a TSV file with a header line, then one line per run: round, case,
# server, rate) and BASELINE (the server label the paired ratios divide by); it puts the pid of a server in server_pid
# and of a load generator in runner_pid.
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

dll() { # dll PROJECT: the built assembly of performance/PROJECT
    echo "$ROOT/performance/$1/bin/Release/net10.0/NetCoreServer.Performance.$1.dll"
}

build_projects() { # build_projects PROJECT...: builds each performance/PROJECT in Release (log in OUT); exits 1 on failure
    local project
    for project in "$@"; do
        if ! dotnet build "$ROOT/performance/$project" -c Release -nologo -v quiet > "$OUT/build-$project.log" 2>&1; then
            echo "$SCRIPT: building performance/$project failed:" >&2
            grep -E "error|warning" "$OUT/build-$project.log" | sort -u | sed 's/^/  /' >&2 || tail -n 20 "$OUT/build-$project.log" >&2
            exit 1
        fi
    done
}

load_average() { # load_average before|after: the machine's load, printed around the runs (it is shared)
    if [[ "$1" == before ]]; then
        echo "  ($(nproc) cores; load average before: $(cut -d ' ' -f 1-3 /proc/loadavg))"
    else
        echo "  (load average after: $(cut -d ' ' -f 1-3 /proc/loadavg))"
    fi
}

# summary_table TITLE CASE...: the header, then per case the median of ours and of BASELINE (shown as TITLE), their ratio, every
# round's rate of each, and the paired ratios with their median.
summary_table() {
    local title="$1" case ours baseline ratio format='%-20s %12s %12s %12s   %-28s %-28s %s\n'
    shift
    printf "$format" "Case" "ours" "$title" "ours/$BASELINE" "ours, per round" "$title, per round" "paired ratios : median"
    printf "$format" "----" "----" "----" "----" "---------------" "---------------" "----------------------"
    for case in "$@"; do
        ours="$(median "$case" ours)"
        baseline="$(median "$case" "$BASELINE")"
        ratio="$(awk -v a="$ours" -v b="$baseline" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
        printf "$format" "$case" "$(printf '%.0f' "$ours")" "$(printf '%.0f' "$baseline")" "$ratio" "$(runs "$case" ours)" "$(runs "$case" "$BASELINE")" "$(paired "$case")"
    done
}

summary_ours_only() { # summary_ours_only CASE...: rows of summary_table's layout for cases with no baseline run
    local case
    for case in "$@"; do
        printf '%-20s %12.0f %12s %12s   %-28s\n' "$case" "$(median "$case" ours)" "-" "-" "$(runs "$case" ours)"
    done
}
