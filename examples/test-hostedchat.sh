#!/usr/bin/env bash
# Process-level test of examples/HostedChat, the WebSocket chat on the generic host: it reads its port from an
# environment override of appsettings.json (Chat__Port), serves a chat to a WebSocket client (hostedchat-client.py),
# and on SIGTERM closes the client with 1001 "going away" and exits 0 within its shutdown timeout. Every wait is
# bounded. Prints PASS/FAIL lines; exits 1 when a check failed. KEEP_LOGS=1 keeps the work directory.
source "$(dirname "${BASH_SOURCE[0]}")/hostedchat-test-lib.sh"

PORT=$(free_port)
check "the server listens on the port of the environment override" "start_server $PORT"

python3 "$ROOT/examples/hostedchat-client.py" "$PORT" "hello hosted" >"$WORK/client.txt" 2>&1 &
CLIENT=$!
check "the client gets the chat message back" "wait_for '$WORK/client.txt' 'TEXT hello hosted' 10"

kill -TERM "$SERVER"
check "SIGTERM closes the WebSocket client with 1001" "wait_for '$WORK/client.txt' 'CLOSE 1001' 10"
wait "$CLIENT"
check "the client answered the close and ended" "[[ $? -eq 0 ]]"
stop_server
check "the server exits 0 within its shutdown timeout" "[[ $? -eq 0 ]]"
check "the drain is logged" "grep -q 'Session server Chat stopped' '$WORK/server.txt'"
[[ $FAILED -eq 0 ]] || { echo "--- client"; cat "$WORK/client.txt"; }
finish test-hostedchat
