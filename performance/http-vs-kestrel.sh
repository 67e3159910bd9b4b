#!/usr/bin/env bash
# Our HTTP server against ASP.NET Core's Kestrel, both driven by wrk (a client nobody here wrote), over loopback.
#
#   performance/http-vs-kestrel.sh                  # 3 rounds, 10 s per run
#   ROUNDS=5 SECONDS_PER_RUN=5 performance/http-vs-kestrel.sh
#   INLINE=1 performance/http-vs-kestrel.sh        # both servers with inline socket completions (see below)
#   INLINE=1 SOCKET_THREADS=1 performance/http-vs-kestrel.sh   # ... and one socket engine thread each
#   EVENT_LOOPS=1 performance/http-vs-kestrel.sh   # ours on one of the library's epoll event loops
#
# Builds performance/EchoServer (ours, --protocol http|https) and performance/KestrelServer (the baseline: a minimal-API
# app on Kestrel, HTTP/1.1, logging off, same GC mode, same development certificate) in Release. Both serve the same two
# routes: GET /fixed answers "Hello, World!" as text/plain, TRACE answers 200 message/http with the request (head and
# body) as NetCoreServer's MakeTraceResponse does. Then, for each of $ROUNDS rounds and each case (GET /fixed over http,
# over https, TRACE with a $MESSAGE_SIZE-byte body over http, over https), it runs ours, then Kestrel, each on a freshly
# started server (port 0, read back from its "listening" line): a ${WARMUP_SECONDS:-2} s wrk warm-up that is not
# counted (JIT tiering, TLS session setup), then `wrk -t1 -c$CONNECTIONS -d${SECONDS_PER_RUN}s`. It prints requests/s
# of every run, then per case the median of each server, the ratio ours/Kestrel of the medians, and the ratio within
# each round (ours and Kestrel ran one after the other) with its median, which drifting load on the machine disturbs less.
# The machine is shared: the load average is printed before and after, and only medians and ratios are meant to be
# read, never one absolute figure. A run with non-2xx answers, socket errors or no answer at all is flagged, and the
# script then exits 1.
#
# INLINE=1 starts both servers with --inline-completions: the runtime's DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1
# for both processes (socket completions run on the socket engine threads, not handed to the thread pool), and for
# Kestrel also its socket transport's UnsafePreferInlineScheduling, so that it too goes on with the request on that
# thread. The default (INLINE=0) leaves both servers on the runtime's defaults. SOCKET_THREADS=N (default: unset, the
# runtime's choice) sets the runtime's DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT=N for both servers: its socket engine
# threads, which with inline completions are the threads that serve the requests. EVENT_LOOPS=N starts ours
# with --event-loops N: its HTTP and HTTPS sessions are served by N of the library's own epoll loops (OptionEventLoops),
# 0 by the runtime's thread pool; unset, ours runs on the library's default (a loop per core on Linux). Kestrel has no
# such mode and keeps its settings.
# Environment: CASES (all four: "fixed/http fixed/https trace/http trace/https"), ROUNDS (3), SECONDS_PER_RUN (10),
# WARMUP_SECONDS (2), CONNECTIONS (100), MESSAGE_SIZE (32, the TRACE body), HTTP_BENCH_OUT (artifacts/http-vs-kestrel: wrk outputs, server logs, results.tsv).
# Needs the .NET SDK (with the ASP.NET Core shared framework, part of the SDK) and wrk (apt package wrk).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-3}"
SECONDS_PER_RUN="${SECONDS_PER_RUN:-10}"
WARMUP_SECONDS="${WARMUP_SECONDS:-2}"
CONNECTIONS="${CONNECTIONS:-100}"
MESSAGE_SIZE="${MESSAGE_SIZE:-32}"
INLINE="${INLINE:-0}"
SOCKET_THREADS="${SOCKET_THREADS:-}"
EVENT_LOOPS="${EVENT_LOOPS:-}"
OUT="${HTTP_BENCH_OUT:-$ROOT/artifacts/http-vs-kestrel}"
ADDRESS=127.0.0.1

START_TIMEOUT=30                                            # seconds for a server to print its "listening" line
STOP_TIMEOUT=10                                             # seconds for a server to exit after SIGTERM
WRK_TIMEOUT=$((SECONDS_PER_RUN + WARMUP_SECONDS + 30))
SERVER_LIFETIME=$((START_TIMEOUT + WRK_TIMEOUT + 60))       # a server stops by itself even if this script is killed

export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1

for setting in ROUNDS SECONDS_PER_RUN CONNECTIONS MESSAGE_SIZE; do
    if ! [[ "${!setting}" =~ ^[1-9][0-9]*$ ]]; then
        echo "http-vs-kestrel.sh: $setting must be a positive whole number, not '${!setting}'" >&2
        exit 2
    fi
done
if ! [[ "$INLINE" =~ ^[01]$ ]]; then
    echo "http-vs-kestrel.sh: INLINE must be 0 or 1, not '$INLINE'" >&2
    exit 2
fi
if [[ -n "$SOCKET_THREADS" ]]; then
    if ! [[ "$SOCKET_THREADS" =~ ^[1-9][0-9]*$ ]]; then
        echo "http-vs-kestrel.sh: SOCKET_THREADS must be a positive whole number, not '$SOCKET_THREADS'" >&2
        exit 2
    fi
    export DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT="$SOCKET_THREADS"
fi
if [[ -n "$EVENT_LOOPS" ]] && ! [[ "$EVENT_LOOPS" =~ ^[0-9]+$ ]]; then
    echo "http-vs-kestrel.sh: EVENT_LOOPS must be a whole number, not '$EVENT_LOOPS'" >&2
    exit 2
fi
SERVER_ARGS=()
if (( INLINE )); then
    SERVER_ARGS=(--inline-completions)
fi
OURS_ARGS=("${SERVER_ARGS[@]}")
if [[ -n "$EVENT_LOOPS" ]]; then
    OURS_ARGS+=(--event-loops "$EVENT_LOOPS")
fi
if ! [[ "$WARMUP_SECONDS" =~ ^[0-9]+$ ]]; then
    echo "http-vs-kestrel.sh: WARMUP_SECONDS must be a whole number, not '$WARMUP_SECONDS'" >&2
    exit 2
fi
if ! command -v wrk > /dev/null; then
    echo "http-vs-kestrel.sh: wrk is not installed (apt-get install wrk)" >&2
    exit 2
fi

mkdir -p "$OUT"
rm -f "$OUT"/*.wrk.out "$OUT"/*.server.log "$OUT"/build-*.log
RESULTS="$OUT/results.tsv"
printf 'round\tcase\tserver\trequests_per_s\n' > "$RESULTS"

# wrk's TRACE: a body of MESSAGE_SIZE bytes (wrk adds the Content-Length), like EchoClient's trace round trip.
TRACE_LUA="$OUT/trace.lua"
cat > "$TRACE_LUA" <<EOF
wrk.method = "TRACE"
wrk.body = string.rep("a", $MESSAGE_SIZE)
EOF

SCRIPT=http-vs-kestrel.sh
BASELINE=kestrel
# shellcheck source=compare-lib.sh
source "$ROOT/performance/compare-lib.sh"
flagged=0

# start_server LOG SERVER SCHEME: starts ours or kestrel on a free port; sets PORT from its "listening" line.
start_server() {
    local log="$1" server="$2" scheme="$3"
    : > "$log"
    case "$server" in
        ours) dotnet "$(dll EchoServer)" --protocol "$scheme" -a "$ADDRESS" -p 0 --lifetime "$SERVER_LIFETIME" "${OURS_ARGS[@]}" >> "$log" 2>&1 & ;;
        kestrel) dotnet "$(dll KestrelServer)" 0 "$scheme" --address "$ADDRESS" --lifetime "$SERVER_LIFETIME" "${SERVER_ARGS[@]}" >> "$log" 2>&1 & ;;
    esac
    server_pid=$!
    wait_listening "$log" "$server ($scheme)"
}

# run_wrk OUTPUT SECONDS URL [ARGS...]: one wrk run, in the background and waited for, so that Ctrl+C reaches the trap.
run_wrk() {
    local output="$1" seconds="$2" url="$3"
    shift 3
    timeout "$WRK_TIMEOUT" wrk -t1 -c"$CONNECTIONS" -d"${seconds}s" "$@" "$url" > "$output" 2>&1 &
    runner_pid=$!
    local code=0
    wait "$runner_pid" || code=$?
    runner_pid=""
    if (( code != 0 )); then
        echo "http-vs-kestrel.sh: wrk failed with exit code $code ($url):" >&2
        sed 's/^/  /' "$output" >&2
        return 1
    fi
}

# measure ROUND CASE SERVER: a fresh server, the warm-up, the counted run, the server stopped; prints and records req/s.
measure() {
    local round="$1" case="$2" server="$3"
    local route="${case%/*}" scheme="${case#*/}"
    local name="$route-$scheme-$server-$round"
    local path=/fixed
    local wrk_args=()
    if [[ "$route" == trace ]]; then
        path=/
        wrk_args=(-s "$TRACE_LUA")
    fi
    start_server "$OUT/$name.server.log" "$server" "$scheme"
    local url="$scheme://$ADDRESS:$PORT$path"
    if (( WARMUP_SECONDS > 0 )); then
        run_wrk "$OUT/$name.warmup.wrk.out" "$WARMUP_SECONDS" "$url" "${wrk_args[@]}"
    fi
    run_wrk "$OUT/$name.wrk.out" "$SECONDS_PER_RUN" "$url" "${wrk_args[@]}"
    stop_server

    local output="$OUT/$name.wrk.out" rate note=""
    rate="$(awk '/^Requests\/sec:/ { print $2 }' "$output")"
    [[ -n "$rate" ]] || rate=0
    if grep -q -e "Non-2xx" -e "Socket errors" "$output"; then
        note="  <- $(grep -e "Non-2xx" -e "Socket errors" "$output" | tr -s ' ' | tr '\n' ';')"
        flagged=1
    elif [[ "$rate" == 0 || "$rate" == 0.00 ]]; then
        note="  <- no request answered"
        flagged=1
    fi
    printf '  round %s  %-12s %-8s %12.0f req/s%s\n' "$round" "$case" "$server" "$rate" "$note"
    printf '%s\t%s\t%s\t%s\n' "$round" "$case" "$server" "$rate" >> "$RESULTS"
}

echo "Building the servers (Release)..."
build_projects EchoServer KestrelServer

read -r -a CASES <<< "${CASES:-fixed/http fixed/https trace/http trace/https}"
for case in "${CASES[@]}"; do
    if ! [[ "$case" =~ ^(fixed|trace)/(http|https)$ ]]; then
        echo "http-vs-kestrel.sh: CASES takes fixed/http, fixed/https, trace/http and trace/https, not '$case'" >&2
        exit 2
    fi
done
mode="runtime defaults"
(( INLINE )) && mode="inline socket completions (INLINE=1)"
[[ -n "$SOCKET_THREADS" ]] && mode="$mode, $SOCKET_THREADS socket engine thread(s)"
[[ -n "$EVENT_LOOPS" ]] && mode="$mode; ours with --event-loops $EVENT_LOOPS (EVENT_LOOPS=$EVENT_LOOPS)"
echo "Running: $ROUNDS rounds, $mode; per case ours then Kestrel, each on a fresh server: ${WARMUP_SECONDS} s warm-up, then wrk -t1 -c$CONNECTIONS -d${SECONDS_PER_RUN}s"
load_average before
for round in $(seq 1 "$ROUNDS"); do
    for case in "${CASES[@]}"; do
        measure "$round" "$case" ours
        measure "$round" "$case" kestrel
    done
done
load_average after

echo
echo "Summary: requests/s, median of $ROUNDS runs each (fixed = GET /fixed; trace = TRACE with a $MESSAGE_SIZE-byte body)"
summary_table Kestrel "${CASES[@]}"
echo "ours/kestrel: ratio of the medians; paired ratios: ours/Kestrel within each round, then their median."
echo "wrk outputs and server logs: $OUT"
if (( flagged )); then
    echo "http-vs-kestrel.sh: some runs had non-2xx answers, socket errors or no answers (marked above)" >&2
    exit 1
fi
