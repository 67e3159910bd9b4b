# Shared part of the HostedChat process tests (test-hostedchat*.sh), sourced, never run by itself: the work
# directory, PASS/FAIL checks, bounded waits, the built example, a free loopback port and the server's start.
# shellcheck shell=bash
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX")
FAILED=0
SERVER=0
CHILDREN=()   # other background processes to end on exit (clients, tools)
cleanup() {
    local pid
    for pid in "${CHILDREN[@]}"; do { kill -KILL "$pid" && wait "$pid"; } 2>/dev/null; done
    [[ $SERVER -ne 0 ]] && kill -KILL "$SERVER" 2>/dev/null
    [[ "${KEEP_LOGS:-0}" == 1 ]] && echo "logs: $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
check() { if eval "$2"; then echo "PASS: $1"; else echo "FAIL: $1"; FAILED=1; fi; }
wait_for() { # wait_for FILE PATTERN SECONDS
    local i
    for ((i = 0; i < $3 * 10; i++)); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
    return 1
}
# shellcheck source=free-port.sh
source "$ROOT/examples/free-port.sh"

# build/test.sh built the solution (EXAMPLES_BUILT=1): run what it made; by hand, build it here.
if [[ "${EXAMPLES_BUILT:-0}" == 1 ]]; then
    BIN="$ROOT/examples/HostedChat/bin/Release/net10.0"
    [[ -f "$BIN/HostedChat.dll" ]] || { echo "FAIL: HostedChat built by the solution build (no $BIN/HostedChat.dll)"; exit 1; }
else
    BIN="$WORK/bin"
    dotnet build "$ROOT/examples/HostedChat" -c Release -nologo -clp:ErrorsOnly -o "$BIN" >"$WORK/build.txt" 2>&1 || { cat "$WORK/build.txt"; exit 1; }
fi

# start_server PORT [VAR=VALUE ...]: HostedChat on 127.0.0.1:PORT (Chat__Port) with more environment overrides;
# its pid in SERVER, its output in $WORK/server.txt; fails when it does not say it listens within 20 s.
start_server() {
    local port=$1
    shift
    (cd "$BIN" && exec env Chat__Port="$port" "$@" dotnet HostedChat.dll) >"$WORK/server.txt" 2>&1 &
    SERVER=$!
    wait_for "$WORK/server.txt" "listening on 127.0.0.1:$port" 20
}

# stop_server: SIGTERM, then server_exit.
stop_server() {
    kill -TERM "$SERVER" 2>/dev/null
    server_exit
}

# server_exit: the exit code of a server already sent SIGTERM (137 or more when it had to be killed after 15 s). Never
# signal it again: a SIGTERM that lands after the host stopped listening for it ends the process with 143.
server_exit() {
    local i status
    for ((i = 0; i < 150; i++)); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$SERVER" 2>/dev/null && kill -KILL "$SERVER"
    wait "$SERVER"
    status=$?
    SERVER=0
    return $status
}

# finish NAME: the tally line, the server's last lines on a failure; exits 1 when a check failed.
finish() {
    [[ $FAILED -eq 0 ]] && echo "$1: all passed" || { echo "--- server"; tail -20 "$WORK/server.txt"; }
    exit $FAILED
}
