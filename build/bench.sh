#!/usr/bin/env bash
# NetCoreServer's echo and multicast benchmarks from bash, run over loopback against the library's servers, with a
# raw System.Net.Sockets echo server as the baseline. The main demo is now performance/Suite (see the README).
#
#   build/bench.sh                       # 5 s per run
#   SECONDS_PER_RUN=3 build/bench.sh     # shorter
#
# Builds the benchmark programs in Release, then, each against a freshly started server:
#   tcp: echo with 1 and with 100 clients against EchoServer (ours) and RawEchoServer (baseline),
#        multicast with 1 and with 100 clients against MulticastServer;
#   ssl: echo and multicast with 1 and with 100 clients against the same servers with --protocol ssl (TLS 1.2/1.3,
#        tools/certificates/server.pfx, created on first use; clients trust tools/certificates/ca.crt);
#   uds: echo and multicast with 1 and with 100 clients against the same servers with --protocol uds, on Unix
#        socket files in $TMPDIR (default /tmp) named after this script's pid, removed at the end;
#   udp: echo with 1 and with 100 clients against EchoServer and RawEchoServer (-m $UDP_ECHO_MESSAGES datagrams
#        in flight per client, to keep loss manageable) on the host loopback; multicast with 1 and with 10 clients
#        to group 239.255.0.1, run inside one private network namespace per run (unshare --net, plus
#        --map-root-user when not root) whose only interface is lo with a multicast route, because on the host a
#        multicast datagram would go out on the real network. Without unshare
#        or ip, or when the namespace cannot be made, those rows are skipped with a note.
# Every client prints one JSON line (--json); they are collected in $BENCH_OUT/results.jsonl (default
# artifacts/bench) and summarised as a table with msg/s, MiB/s and, for echo, the ratios ours/raw (tcp, udp),
# ssl/tcp and uds/tcp (ssl and uds against our tcp echo with as many clients), and for udp the datagrams lost.
# Then IdleConnections prints the memory of $IDLE_CONNECTIONS idle connections, tcp and ssl, against raw sockets.
# Servers are stopped with SIGTERM after each run, and by the exit trap whatever happens.
# Needs only the .NET SDK (and bash with coreutils, sed and awk; util-linux unshare and iproute2 ip for udp multicast).
#
# Environment: SECONDS_PER_RUN (5), MESSAGE_SIZE (32), ECHO_MESSAGES (1000 in flight per client),
# UDP_ECHO_MESSAGES (100 datagrams in flight per udp client), IDLE_CONNECTIONS (1000),
# BENCH_BASE_PORT (21111; eight ports from it are used), BENCH_OUT (artifacts/bench).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_PER_RUN="${SECONDS_PER_RUN:-5}"
MESSAGE_SIZE="${MESSAGE_SIZE:-32}"
ECHO_MESSAGES="${ECHO_MESSAGES:-1000}"
UDP_ECHO_MESSAGES="${UDP_ECHO_MESSAGES:-100}"
IDLE_CONNECTIONS="${IDLE_CONNECTIONS:-1000}"
BASE_PORT="${BENCH_BASE_PORT:-21111}"
OUT="${BENCH_OUT:-$ROOT/artifacts/bench}"
ADDRESS=127.0.0.1
ECHO_PORT=$BASE_PORT
RAW_PORT=$((BASE_PORT + 1))
MULTICAST_PORT=$((BASE_PORT + 2))
SSL_ECHO_PORT=$((BASE_PORT + 3))
SSL_MULTICAST_PORT=$((BASE_PORT + 4))
UDP_ECHO_PORT=$((BASE_PORT + 5))
# Inside a private network namespace, so it cannot meet anything else; the group is the programs' default.
UDP_MULTICAST_PORT=$((BASE_PORT + 6))
UDP_RAW_PORT=$((BASE_PORT + 7))
# Unique to this run, so that two runs (or a server someone started by hand) do not meet on one file.
UDS_ECHO_PATH="${TMPDIR:-/tmp}/netcoreserver-bench-$$-echo.sock"
UDS_MULTICAST_PATH="${TMPDIR:-/tmp}/netcoreserver-bench-$$-multicast.sock"

# Bounds on every wait, so that nothing here can hang.
START_TIMEOUT=30                                # seconds for a server to print its "listening" line
STOP_TIMEOUT=10                                 # seconds for a server to exit after SIGTERM
CLIENT_TIMEOUT=$((SECONDS_PER_RUN + 60))        # connect (10 s), run, disconnect (10 s), start-up
SERVER_LIFETIME=$((CLIENT_TIMEOUT + START_TIMEOUT + 60))  # a server stops by itself even if this script is killed
IDLE_TIMEOUT=900                                # IdleConnections bounds each of its measurements by 5 minutes

export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1

if ! [[ "$SECONDS_PER_RUN" =~ ^[1-9][0-9]*$ ]]; then
    echo "bench.sh: SECONDS_PER_RUN must be a positive whole number of seconds, not '$SECONDS_PER_RUN'" >&2
    exit 2
fi
if ! [[ "$IDLE_CONNECTIONS" =~ ^[1-9][0-9]*$ ]]; then
    echo "bench.sh: IDLE_CONNECTIONS must be a positive whole number, not '$IDLE_CONNECTIONS'" >&2
    exit 2
fi

mkdir -p "$OUT"
# Only this script's own files: BENCH_OUT may be a folder that holds other things.
rm -f "$OUT"/echo-*.server.log "$OUT"/echo-*.client.out "$OUT"/echo-*.client.err \
    "$OUT"/multicast-*.server.log "$OUT"/multicast-*.client.out "$OUT"/multicast-*.client.err \
    "$OUT"/idle-*.out "$OUT"/idle-*.err
RESULTS="$OUT/results.jsonl"
: > "$RESULTS"

server_pid=""
client_pid=""

stop_server() {
    local pid="$server_pid"
    [[ -n "$pid" ]] || return 0
    server_pid=""
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        local waited=0
        while kill -0 "$pid" 2>/dev/null && (( waited < STOP_TIMEOUT * 10 )); do
            sleep 0.1
            waited=$((waited + 1))
        done
        if kill -0 "$pid" 2>/dev/null; then
            echo "bench.sh: server $pid ignored SIGTERM for ${STOP_TIMEOUT} s; killing it" >&2
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    local code=0
    wait "$pid" 2>/dev/null || code=$?
    if (( code != 0 )); then
        echo "bench.sh: server $pid exited with code $code after SIGTERM (expected 0)" >&2
        return 1
    fi
}

cleanup() {
    local code=$?
    if [[ -n "$client_pid" ]]; then
        kill -TERM "$client_pid" 2>/dev/null || true
        wait "$client_pid" 2>/dev/null || true
    fi
    stop_server || true
    # A server removes its socket file when it stops; one killed after ignoring SIGTERM leaves it behind.
    rm -f "$UDS_ECHO_PATH" "$UDS_MULTICAST_PATH"
    exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

dll() {
    echo "$ROOT/performance/$1/bin/Release/net10.0/NetCoreServer.Performance.$1.dll"
}

# where PROTOCOL ENDPOINT: sets WHERE to the options naming the server: --path ENDPOINT for uds, -a and -p ENDPOINT
# otherwise.
where() {
    if [[ "$1" == uds ]]; then
        WHERE=(--path "$2")
    else
        WHERE=(-a "$ADDRESS" -p "$2")
    fi
}

# start_server LOG PROGRAM PROTOCOL ENDPOINT [ARGS...]: starts a server on ENDPOINT (a port, or the socket file for
# uds) and waits for its "listening" line in LOG.
start_server() {
    local log="$1" program="$2" protocol="$3" endpoint="$4"
    shift 4
    where "$protocol" "$endpoint"
    # Emptied here, not by the background redirection: otherwise the wait below could see an earlier run's line.
    : > "$log"
    dotnet "$(dll "$program")" --protocol "$protocol" "${WHERE[@]}" --lifetime "$SERVER_LIFETIME" "$@" >> "$log" 2>&1 &
    server_pid=$!
    local waited=0
    until grep -q "listening on" "$log" 2>/dev/null; do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "bench.sh: $program ($protocol) did not start on ${WHERE[*]}:" >&2
            sed 's/^/  /' "$log" >&2
            wait "$server_pid" 2>/dev/null || true
            server_pid=""
            return 1
        fi
        if (( waited >= START_TIMEOUT * 10 )); then
            echo "bench.sh: $program printed no 'listening' line within ${START_TIMEOUT} s" >&2
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    echo "  $(head -n 1 "$log")"
}

# run_client BENCHMARK SERVER_LABEL PROGRAM PROTOCOL ENDPOINT CLIENTS [ARGS...]: runs one client and records its JSON line.
run_client() {
    local benchmark="$1" label="$2" program="$3" protocol="$4" endpoint="$5" clients="$6"
    shift 6
    where "$protocol" "$endpoint"
    local name="$benchmark-$protocol-$label-$clients"
    local stdout="$OUT/$name.client.out" stderr="$OUT/$name.client.err"
    echo "  $benchmark over $protocol, $clients client(s), ${SECONDS_PER_RUN} s ..."
    # In the background and waited for, so that Ctrl+C or SIGTERM reaches the exit trap at once, not after the run.
    timeout "$CLIENT_TIMEOUT" dotnet "$(dll "$program")" --protocol "$protocol" "${WHERE[@]}" -c "$clients" \
        -s "$MESSAGE_SIZE" -z "$SECONDS_PER_RUN" --json "$@" > "$stdout" 2> "$stderr" &
    client_pid=$!
    local code=0
    wait "$client_pid" || code=$?
    client_pid=""
    if (( code != 0 )); then
        echo "bench.sh: $program failed with exit code $code ($benchmark over $protocol against $label with $clients clients):" >&2
        sed 's/^/  /' "$stderr" >&2
        return 1
    fi
    record "$benchmark" "$label" "$program" "$stdout"
}

# record BENCHMARK SERVER_LABEL PROGRAM STDOUT: appends the client's JSON line from STDOUT to the results.
record() {
    local json
    json="$(grep '^{' "$4" | tail -n 1)"
    if [[ -z "$json" ]]; then
        echo "bench.sh: $3 printed no JSON line" >&2
        return 1
    fi
    echo "{\"benchmark\":\"$1\",\"server\":\"$2\",${json#\{}" >> "$RESULTS"
}

# run BENCHMARK LABEL SERVER CLIENT PROTOCOL ENDPOINT CLIENTS: a fresh server, one client run, the server stopped again.
run() {
    local benchmark="$1" label="$2" server="$3" client="$4" protocol="$5" endpoint="$6" clients="$7"
    local server_args=() client_args=()
    case "$benchmark" in
        echo)
            if [[ "$protocol" == udp ]]; then
                client_args=(-m "$UDP_ECHO_MESSAGES")
            else
                client_args=(-m "$ECHO_MESSAGES")
            fi
            ;;
        # The client counts messages as bytes divided by its -s, so the server must send that size.
        multicast) server_args=(-s "$MESSAGE_SIZE") ;;
    esac
    start_server "$OUT/$benchmark-$protocol-$label-$clients.server.log" "$server" "$protocol" "$endpoint" "${server_args[@]}"
    run_client "$benchmark" "$label" "$client" "$protocol" "$endpoint" "$clients" "${client_args[@]}"
    stop_server
}

# The udp multicast run, executed by sh inside the private network namespace: give lo a multicast route, start the
# server in the background, wait for its "listening" line, run the client, stop the server. Everything comes in the
# NS_* variables. Exit codes: the client's, or 90 when lo could not be set up, 91 when the server did not start.
NETNS_RUN='
ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo || exit 90
: > "$NS_SERVER_LOG"
dotnet "$NS_SERVER_DLL" --protocol udp -p "$NS_PORT" -s "$NS_SIZE" --lifetime "$NS_LIFETIME" >> "$NS_SERVER_LOG" 2>&1 &
server=$!
waited=0
until grep -q "listening on" "$NS_SERVER_LOG"; do
    if ! kill -0 "$server" 2>/dev/null || [ "$waited" -ge "$NS_START_TICKS" ]; then
        kill -TERM "$server" 2>/dev/null
        exit 91
    fi
    sleep 0.1
    waited=$((waited + 1))
done
code=0
timeout "$NS_CLIENT_TIMEOUT" dotnet "$NS_CLIENT_DLL" --protocol udp -p "$NS_PORT" -c "$NS_CLIENTS" -s "$NS_SIZE" \
    -z "$NS_SECONDS" --json > "$NS_CLIENT_OUT" 2> "$NS_CLIENT_ERR" || code=$?
kill -TERM "$server" 2>/dev/null
wait "$server" || echo "server exited with code $? after SIGTERM" >> "$NS_SERVER_LOG"
exit "$code"
'

# The unshare command line for this user, or empty (with a note in NETNS_SKIP) when udp multicast cannot be isolated.
NETNS_SKIP=""
UNSHARE=()
if ! command -v unshare > /dev/null || ! command -v ip > /dev/null; then
    NETNS_SKIP="unshare (util-linux) or ip (iproute2) is missing"
elif (( EUID == 0 )); then
    UNSHARE=(unshare --net)
else
    UNSHARE=(unshare --net --map-root-user)
fi
if [[ -z "$NETNS_SKIP" ]] && ! "${UNSHARE[@]}" true 2> /dev/null; then
    NETNS_SKIP="'${UNSHARE[*]}' is not permitted here"
fi

# run_netns_multicast CLIENTS: one udp multicast run inside a fresh private network namespace.
run_netns_multicast() {
    local clients="$1"
    local name="multicast-udp-ours-$clients"
    echo "  multicast over udp, $clients client(s), ${SECONDS_PER_RUN} s, in a private network namespace ..."
    NS_SERVER_DLL="$(dll MulticastServer)" NS_CLIENT_DLL="$(dll MulticastClient)" NS_PORT="$UDP_MULTICAST_PORT" \
        NS_SIZE="$MESSAGE_SIZE" NS_LIFETIME="$SERVER_LIFETIME" NS_START_TICKS=$((START_TIMEOUT * 10)) \
        NS_CLIENT_TIMEOUT="$CLIENT_TIMEOUT" NS_CLIENTS="$clients" NS_SECONDS="$SECONDS_PER_RUN" \
        NS_SERVER_LOG="$OUT/$name.server.log" NS_CLIENT_OUT="$OUT/$name.client.out" NS_CLIENT_ERR="$OUT/$name.client.err" \
        timeout $((SERVER_LIFETIME + 30)) "${UNSHARE[@]}" sh -c "$NETNS_RUN" &
    client_pid=$!
    local code=0
    wait "$client_pid" || code=$?
    client_pid=""
    if (( code != 0 )); then
        echo "bench.sh: udp multicast with $clients clients failed in the network namespace (exit code $code):" >&2
        sed 's/^/  server: /' "$OUT/$name.server.log" >&2 2> /dev/null || true
        sed 's/^/  client: /' "$OUT/$name.client.err" >&2 2> /dev/null || true
        return 1
    fi
    echo "  $(head -n 1 "$OUT/$name.server.log")"
    record multicast ours MulticastClient "$OUT/$name.client.out"
}

echo "Building the benchmark programs (Release)..."
for project in EchoServer EchoClient RawEchoServer MulticastServer MulticastClient IdleConnections; do
    if ! dotnet build "$ROOT/performance/$project" -c Release -nologo -v quiet > "$OUT/build-$project.log" 2>&1; then
        echo "bench.sh: building performance/$project failed:" >&2
        grep -E "error|warning" "$OUT/build-$project.log" | sort -u | sed 's/^/  /' >&2 || tail -n 20 "$OUT/build-$project.log" >&2
        exit 1
    fi
done

echo "Running (${SECONDS_PER_RUN} s per run, ${MESSAGE_SIZE}-byte messages, loopback $ADDRESS, Unix sockets in ${TMPDIR:-/tmp})..."
for clients in 1 100; do
    run echo ours EchoServer EchoClient tcp "$ECHO_PORT" "$clients"
    run echo raw RawEchoServer EchoClient tcp "$RAW_PORT" "$clients"
done
for clients in 1 100; do
    run multicast ours MulticastServer MulticastClient tcp "$MULTICAST_PORT" "$clients"
done
for clients in 1 100; do
    run echo ours EchoServer EchoClient ssl "$SSL_ECHO_PORT" "$clients"
done
for clients in 1 100; do
    run multicast ours MulticastServer MulticastClient ssl "$SSL_MULTICAST_PORT" "$clients"
done
for clients in 1 100; do
    run echo ours EchoServer EchoClient uds "$UDS_ECHO_PATH" "$clients"
done
for clients in 1 100; do
    run multicast ours MulticastServer MulticastClient uds "$UDS_MULTICAST_PATH" "$clients"
done
for clients in 1 100; do
    run echo ours EchoServer EchoClient udp "$UDP_ECHO_PORT" "$clients"
    run echo raw RawEchoServer EchoClient udp "$UDP_RAW_PORT" "$clients"
done
if [[ -n "$NETNS_SKIP" ]]; then
    echo "  udp multicast skipped: $NETNS_SKIP (it runs only inside a private network namespace)"
else
    for clients in 1 10; do
        run_netns_multicast "$clients"
    done
fi

# field JSON KEY: the value of KEY in a flat JSON object (strings without quotes).
field() {
    sed -E "s/.*\"$2\":\"?([^,\"}]*)\"?.*/\1/" <<< "$1"
}

# ratio NUMERATOR DENOMINATOR: "1.23", or "n/a" when the denominator is not positive.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'
}

# rate_of BENCHMARK SERVER PROTOCOL CLIENTS: msg/s of that run, or nothing when it is not in the results.
rate_of() {
    local line
    line="$(grep "\"benchmark\":\"$1\",\"server\":\"$2\",\"protocol\":\"$3\",\"clients\":$4," "$RESULTS" | tail -n 1 || true)"
    [[ -z "$line" ]] || field "$line" msg_per_s
}

echo
echo "Summary (${SECONDS_PER_RUN} s per run, ${MESSAGE_SIZE}-byte messages; echo: ${ECHO_MESSAGES} messages in flight per client, udp ${UDP_ECHO_MESSAGES})"
printf '%-10s %-9s %-14s %8s %14s %11s %7s %9s %8s %9s\n' "Benchmark" "Protocol" "Server" "Clients" "msg/s" "MiB/s" "Errors" "ours/raw" "vs tcp" "Lost"
printf '%-10s %-9s %-14s %8s %14s %11s %7s %9s %8s %9s\n' "---------" "--------" "------" "-------" "-----" "-----" "------" "--------" "------" "----"
while IFS= read -r line; do
    benchmark="$(field "$line" benchmark)"
    label="$(field "$line" server)"
    protocol="$(field "$line" protocol)"
    clients="$(field "$line" clients)"
    rate="$(field "$line" msg_per_s)"
    mib="$(field "$line" mib_per_s)"
    errors="$(field "$line" errors)"
    lost=""
    [[ "$line" != *'"lost":'* ]] || lost="$(field "$line" lost)"
    versus_raw=""
    versus_tcp=""
    if [[ "$benchmark" == echo && "$label" == ours && ( "$protocol" == tcp || "$protocol" == udp ) ]]; then
        raw_rate="$(rate_of echo raw "$protocol" "$clients")"
        [[ -z "$raw_rate" ]] || versus_raw="$(ratio "$rate" "$raw_rate")"
    fi
    if [[ "$benchmark" == echo && "$label" == ours && ( "$protocol" == ssl || "$protocol" == uds ) ]]; then
        tcp_rate="$(rate_of echo ours tcp "$clients")"
        [[ -z "$tcp_rate" ]] || versus_tcp="$(ratio "$rate" "$tcp_rate")"
    fi
    case "$label" in
        ours) server_name="NetCoreServer" ;;
        raw) server_name="raw sockets" ;;
        *) server_name="$label" ;;
    esac
    printf '%-10s %-9s %-14s %8s %14.0f %11.2f %7s %9s %8s %9s\n' \
        "$benchmark" "$protocol" "$server_name" "$clients" "$rate" "$mib" "$errors" "$versus_raw" "$versus_tcp" "$lost"
done < "$RESULTS"
echo
echo "ours/raw: our tcp and udp echo against the raw-socket echo (same client); vs tcp: ssl/tcp and uds/tcp, each echo against our tcp echo"
echo "with as many clients. Lost: udp echo datagrams written off after 100 ms without an echo (an upper bound);"
echo "udp multicast ran inside a private network namespace, so it never reached a real network."
echo "JSON lines: $RESULTS"

# Memory per idle connection, in-process (server and clients in one program, on a port the system picks).
for protocol in tcp ssl; do
    echo
    echo "Idle connections over $protocol ($IDLE_CONNECTIONS connections) ..."
    timeout "$IDLE_TIMEOUT" dotnet "$(dll IdleConnections)" --protocol "$protocol" -c "$IDLE_CONNECTIONS" \
        > "$OUT/idle-$protocol.out" 2> "$OUT/idle-$protocol.err" &
    client_pid=$!
    code=0
    wait "$client_pid" || code=$?
    client_pid=""
    if (( code != 0 )); then
        echo "bench.sh: IdleConnections ($protocol) failed with exit code $code:" >&2
        sed 's/^/  /' "$OUT/idle-$protocol.err" >&2
        exit 1
    fi
    cat "$OUT/idle-$protocol.out"
done
