#!/usr/bin/env bash
# Process-level test of examples/HostedChat, the WebSocket chat on the generic host: it reads its port from an
# environment override of appsettings.json (Chat__Port), serves a chat to WebSocket clients (hostedchat-client.py),
# and on SIGTERM drains: a slow client that read nothing while 6 MB were multicast to it gets every message, then close
# 1001, and the server exits 0 within its shutdown timeout. Every wait is bounded. Prints PASS/FAIL lines; exits 1 when
# a check failed. KEEP_LOGS=1 keeps the work directory.
source "$(dirname "${BASH_SOURCE[0]}")/hostedchat-test-lib.sh"

MESSAGES=6000 # of 1000 B: more than the kernel's socket buffers hold, so most wait in the server's queue
PORT=$(free_port)
check "the server listens on the port of the environment override" "start_server $PORT"

mkfifo "$WORK/release"
python3 "$ROOT/examples/hostedchat-client.py" "$PORT" slow --hold "$WORK/release" >"$WORK/slow.txt" 2>&1 &
SLOW=$!
CHILDREN+=($SLOW)
check "a slow client connects (it reads nothing until released)" "wait_for '$WORK/slow.txt' READY 10"

python3 "$ROOT/examples/hostedchat-client.py" "$PORT" "hello hosted" >"$WORK/client.txt" 2>&1 &
CLIENT=$!
check "the client gets the chat message back" "wait_for '$WORK/client.txt' 'TEXT hello hosted' 10"

python3 "$ROOT/examples/hostedchat-client.py" "$PORT" burst --count $MESSAGES --size 1000 >"$WORK/burst.txt" 2>&1 &
BURST=$!
check "a burst of $MESSAGES messages is multicast (its sender got them all back)" "wait_for '$WORK/burst.txt' 'RECEIVED $MESSAGES' 60"

kill -TERM "$SERVER"
check "SIGTERM closes the WebSocket client with 1001" "wait_for '$WORK/client.txt' 'CLOSE 1001' 10"
wait "$CLIENT"
check "the client answered the close and ended" "[[ $? -eq 0 ]]"
check "the server drains, the slow client still connected" "wait_for '$WORK/server.txt' 'draining 3 sessions' 10"
echo go >"$WORK/release"
check "the slow client gets every message queued for it, then close 1001" \
    "wait_for '$WORK/slow.txt' 'CLOSE 1001' 30 && grep -qx 'COUNT $((MESSAGES + 1))' '$WORK/slow.txt'"
wait "$SLOW" "$BURST"
server_exit # the SIGTERM above; a second one could land after the host stopped handling it
check "the server exits 0 within its shutdown timeout" "[[ $? -eq 0 ]]"
check "the drain is logged" "grep -q 'Session server Chat stopped' '$WORK/server.txt' && ! grep -q 'shutdown timeout' '$WORK/server.txt'"
[[ $FAILED -eq 0 ]] || { for name in client slow burst; do echo "--- $name"; tail -5 "$WORK/$name.txt"; done; }
finish test-hostedchat
