#!/usr/bin/env bash
# Our WebSocket servers against the npm `ws` package's (a WebSocket stack nobody here wrote, on Node.js), both
# driven by our EchoClient over loopback, plus our WS and WSS multicast figures.
#
#   performance/ws-vs-node.sh                       # 3 rounds, 5 s per run
#   ROUNDS=5 SECONDS_PER_RUN=10 performance/ws-vs-node.sh
#
# Builds performance/EchoServer, EchoClient, MulticastServer and MulticastClient in Release and installs
# tests/interop's npm packages (npm ci) when they are missing. Then, for each of $ROUNDS rounds:
#   echo over ws and over wss with 1 and with $MANY_CLIENTS clients: ours (EchoServer --protocol ws|wss), then the
#     baseline (tests/interop/ws-echo-server.js --quiet, the ws package with its defaults: no permessage-deflate on
#     either side, the same server certificate over wss), each a freshly started server on a free port, measured by
#     `EchoClient --protocol ws|wss -c N -m $ECHO_MESSAGES -s $MESSAGE_SIZE -z $SECONDS_PER_RUN`: every client keeps
#     $ECHO_MESSAGES binary messages of $MESSAGE_SIZE bytes in flight, and the server sends each one back;
#   multicast over ws and wss with 1 and with $MANY_CLIENTS clients: MulticastServer and MulticastClient, ours only.
# It prints messages/s of every run, then per case the medians, ours/ws of the medians and ours/ws within each round
# (the two runs were next to each other in time, so a load change on the shared machine mostly hits both) with their
# median. Only medians and ratios are meant to be read: the machine is shared, the load average is printed before and
# after. A run that reports errors or no messages is flagged, and the script then exits 1.
#
# Environment: ROUNDS (3), SECONDS_PER_RUN (5), MESSAGE_SIZE (32), ECHO_MESSAGES (1000), MANY_CLIENTS (100),
# WS_BENCH_OUT (artifacts/ws-vs-node: client outputs, server logs, results.tsv).
# Needs the .NET SDK, node and npm (apt packages nodejs, npm), and openssl for the certificates on first use.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-3}"
SECONDS_PER_RUN="${SECONDS_PER_RUN:-5}"
MESSAGE_SIZE="${MESSAGE_SIZE:-32}"
ECHO_MESSAGES="${ECHO_MESSAGES:-1000}"
MANY_CLIENTS="${MANY_CLIENTS:-100}"
OUT="${WS_BENCH_OUT:-$ROOT/artifacts/ws-vs-node}"
ADDRESS=127.0.0.1
INTEROP="$ROOT/tests/interop"
CERTIFICATES="$ROOT/tools/certificates"

START_TIMEOUT=30                                            # seconds for a server to print its "listening" line
STOP_TIMEOUT=10                                             # seconds for a server to exit after SIGTERM
CLIENT_TIMEOUT=$((SECONDS_PER_RUN + 60))                    # connect (10 s), run, disconnect (10 s), start-up
SERVER_LIFETIME=$((START_TIMEOUT + CLIENT_TIMEOUT + 60))    # a server stops by itself even if this script is killed

export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1

for setting in ROUNDS SECONDS_PER_RUN MESSAGE_SIZE ECHO_MESSAGES MANY_CLIENTS; do
    if ! [[ "${!setting}" =~ ^[1-9][0-9]*$ ]]; then
        echo "ws-vs-node.sh: $setting must be a positive whole number, not '${!setting}'" >&2
        exit 2
    fi
done
for tool in node npm openssl; do
    if ! command -v "$tool" > /dev/null; then
        echo "ws-vs-node.sh: $tool is not installed (apt-get install nodejs npm openssl)" >&2
        exit 2
    fi
done

mkdir -p "$OUT"
rm -f "$OUT"/*.out "$OUT"/*.log
RESULTS="$OUT/results.tsv"
printf 'round\tcase\tserver\tmsg_per_s\n' > "$RESULTS"

SCRIPT=ws-vs-node.sh
BASELINE=ws
# shellcheck source=compare-lib.sh
source "$ROOT/performance/compare-lib.sh"
flagged=0

# start_server LOG SERVER PROGRAM PROTOCOL: ours (PROGRAM = EchoServer or MulticastServer) or the ws package's echo
# server on a free port; sets PORT from its "listening" line.
start_server() {
    local log="$1" server="$2" program="$3" protocol="$4"
    : > "$log"
    if [[ "$server" == ours ]]; then
        local size=()
        [[ "$program" == MulticastServer ]] && size=(-s "$MESSAGE_SIZE")
        dotnet "$(dll "$program")" --protocol "$protocol" -a "$ADDRESS" -p 0 "${size[@]}" --lifetime "$SERVER_LIFETIME" >> "$log" 2>&1 &
    else
        local tls=()
        [[ "$protocol" == wss ]] && tls=(--tls "$CERTIFICATES/server.crt" "$CERTIFICATES/server.key")
        node "$INTEROP/ws-echo-server.js" --quiet --address "$ADDRESS" --port 0 --lifetime "$SERVER_LIFETIME" "${tls[@]}" >> "$log" 2>&1 &
    fi
    server_pid=$!
    wait_listening "$log" "$server $program ($protocol)"
}

# field JSON KEY: a number from the client's JSON line.
field() {
    sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p" <<< "$1"
}

# measure ROUND BENCHMARK PROTOCOL CLIENTS SERVER: a fresh server, one client run, the server stopped; prints and records msg/s.
measure() {
    local round="$1" benchmark="$2" protocol="$3" clients="$4" server="$5"
    local case="$benchmark/$protocol/$clients"
    local name="$benchmark-$protocol-$clients-$server-$round"
    local server_program=EchoServer client_program=EchoClient client_args=(-m "$ECHO_MESSAGES")
    if [[ "$benchmark" == multicast ]]; then
        server_program=MulticastServer
        client_program=MulticastClient
        client_args=()
    fi
    start_server "$OUT/$name.server.log" "$server" "$server_program" "$protocol"
    # In the background and waited for, so that Ctrl+C or SIGTERM reaches the exit trap at once, not after the run.
    timeout "$CLIENT_TIMEOUT" dotnet "$(dll "$client_program")" --protocol "$protocol" -a "$ADDRESS" -p "$PORT" -c "$clients" \
        -s "$MESSAGE_SIZE" -z "$SECONDS_PER_RUN" --json "${client_args[@]}" > "$OUT/$name.client.out" 2>&1 &
    runner_pid=$!
    local code=0
    wait "$runner_pid" || code=$?
    runner_pid=""
    stop_server

    local json rate errors note=""
    json="$(grep '^{' "$OUT/$name.client.out" | tail -n 1 || true)"
    rate="$(field "$json" msg_per_s)"
    errors="$(field "$json" errors)"
    [[ -n "$rate" ]] || rate=0
    if (( code != 0 )) || [[ -z "$json" ]]; then
        note="  <- the client failed (exit $code): $(tail -n 2 "$OUT/$name.client.out" | tr '\n' ' ')"
        flagged=1
    elif [[ "$errors" != 0 ]]; then
        note="  <- $errors errors"
        flagged=1
    elif [[ "$rate" == 0 || "$rate" == 0.0 ]]; then
        note="  <- no message came back"
        flagged=1
    fi
    printf '  round %s  %-20s %-5s %12.0f msg/s%s\n' "$round" "$case" "$server" "$rate" "$note"
    printf '%s\t%s\t%s\t%s\n' "$round" "$case" "$server" "$rate" >> "$RESULTS"
}

echo "Building the benchmark programs (Release)..."
build_projects EchoServer EchoClient MulticastServer MulticastClient
if [[ ! -d "$INTEROP/node_modules/ws" ]]; then
    echo "Installing tests/interop's npm packages (npm ci)..."
    (cd "$INTEROP" && npm ci --no-audit --no-fund --loglevel=error > "$OUT/npm-ci.log" 2>&1) \
        || { echo "ws-vs-node.sh: npm ci in tests/interop failed:" >&2; sed 's/^/  /' "$OUT/npm-ci.log" >&2; exit 1; }
fi
if [[ ! -f "$CERTIFICATES/server.key" || ! -f "$CERTIFICATES/server.crt" || ! -f "$CERTIFICATES/ca.crt" ]]; then
    echo "Creating the development certificates (tools/certificates/generate.sh)..."
    bash "$CERTIFICATES/generate.sh" --no-dh > "$OUT/certificates.log" 2>&1 \
        || { echo "ws-vs-node.sh: generate.sh failed:" >&2; sed 's/^/  /' "$OUT/certificates.log" >&2; exit 1; }
fi
echo "  node $(node --version), ws $(node -p "require('$INTEROP/node_modules/ws/package.json').version")"

ECHO_CASES=()
MULTICAST_CASES=()
for protocol in ws wss; do
    for clients in 1 "$MANY_CLIENTS"; do
        ECHO_CASES+=("echo/$protocol/$clients")
        MULTICAST_CASES+=("multicast/$protocol/$clients")
    done
done

echo "Running: $ROUNDS rounds; echo: ours then ws per case, -m $ECHO_MESSAGES -s $MESSAGE_SIZE; multicast: ours, -s $MESSAGE_SIZE; ${SECONDS_PER_RUN} s per run"
load_average before
for round in $(seq 1 "$ROUNDS"); do
    for case in "${ECHO_CASES[@]}"; do
        IFS=/ read -r benchmark protocol clients <<< "$case"
        measure "$round" "$benchmark" "$protocol" "$clients" ours
        measure "$round" "$benchmark" "$protocol" "$clients" ws
    done
    for case in "${MULTICAST_CASES[@]}"; do
        IFS=/ read -r benchmark protocol clients <<< "$case"
        measure "$round" "$benchmark" "$protocol" "$clients" ours
    done
done
load_average after

echo
echo "Summary: messages/s, median of $ROUNDS runs each (echo: -m $ECHO_MESSAGES in flight per client; $MESSAGE_SIZE-byte messages)"
summary_table "ws (node)" "${ECHO_CASES[@]}"
summary_ours_only "${MULTICAST_CASES[@]}"
echo "ours/ws: ratio of the medians; paired ratios: ours/ws within each round, then their median."
echo "Client outputs and server logs: $OUT"
if (( flagged )); then
    echo "ws-vs-node.sh: some runs had errors or no messages (marked above)" >&2
    exit 1
fi
