#!/usr/bin/env bash
# Process-level test of examples/HostedChat, the WebSocket chat on the generic host: it reads its port from an
# environment override of appsettings.json (Chat__Port), serves a chat to a WebSocket client (hostedchat-client.py),
# and on SIGTERM closes the client with 1001 "going away" and exits 0 within its shutdown timeout. Every wait is
# bounded. Prints PASS/FAIL lines; exits 1 when a check failed. KEEP_LOGS=1 keeps the work directory.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/test-hostedchat.XXXXXX")
FAILED=0
SERVER=0
cleanup() {
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

# build/test.sh built the solution (EXAMPLES_BUILT=1): run what it made; by hand, build it here.
if [[ "${EXAMPLES_BUILT:-0}" == 1 ]]; then
    BIN="$ROOT/examples/HostedChat/bin/Release/net10.0"
    [[ -f "$BIN/HostedChat.dll" ]] || { echo "FAIL: HostedChat built by the solution build (no $BIN/HostedChat.dll)"; exit 1; }
else
    BIN="$WORK/bin"
    dotnet build "$ROOT/examples/HostedChat" -c Release -nologo -clp:ErrorsOnly -o "$BIN" >"$WORK/build.txt" 2>&1 || { cat "$WORK/build.txt"; exit 1; }
fi
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

(cd "$BIN" && exec env Chat__Port="$PORT" dotnet HostedChat.dll) >"$WORK/server.txt" 2>&1 &
SERVER=$!
check "the server listens on the port of the environment override" "wait_for '$WORK/server.txt' 'listening on 127.0.0.1:$PORT' 20"

python3 "$ROOT/examples/hostedchat-client.py" "$PORT" "hello hosted" >"$WORK/client.txt" 2>&1 &
CLIENT=$!
check "the client gets the chat message back" "wait_for '$WORK/client.txt' 'TEXT hello hosted' 10"

kill -TERM "$SERVER"
check "SIGTERM closes the WebSocket client with 1001" "wait_for '$WORK/client.txt' 'CLOSE 1001' 10"
wait "$CLIENT"
check "the client answered the close and ended" "[[ $? -eq 0 ]]"
for ((i = 0; i < 150; i++)); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.1; done
wait "$SERVER"
STATUS=$?
SERVER=0
check "the server exits 0 within its shutdown timeout" "[[ $STATUS -eq 0 ]]"
check "the drain is logged" "grep -q 'Session server Chat stopped' '$WORK/server.txt'"
[[ $FAILED -eq 0 ]] && echo "test-hostedchat: all passed" || { echo "--- server"; tail -20 "$WORK/server.txt"; echo "--- client"; cat "$WORK/client.txt"; }
exit $FAILED
