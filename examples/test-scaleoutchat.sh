#!/usr/bin/env bash
# Process-level test of the ScaleOutChat example: two chat nodes (separate processes, separate ports) joined by a
# redis-server this script starts on a free loopback port (never the system service), and the repository's console
# WebSocket client on each node. Checks that a line sent by a user of node A reaches the user of node B once, that
# each node's admin lines cross too, that local chat goes on while Redis is killed, and that messages cross again
# once Redis is back. Needs redis-server (build/test.sh installs it). Every wait is bounded. Prints PASS/FAIL lines
# and a summary; exits 1 when a check failed. Set KEEP_LOGS=1 to keep the work directory with every process's output.
# shellcheck source=process-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/process-test-lib.sh"

WAIT_SECONDS=${WAIT_SECONDS:-20}
if ! command -v redis-server >/dev/null 2>&1; then
    fail "redis-server is installed (apt-get install redis-server; build/test.sh installs it)"
    finish
    exit 1
fi

# shellcheck source=free-port.sh
source "$(dirname "${BASH_SOURCE[0]}")/free-port.sh"

start_redis() { # start_redis NAME: a redis-server on REDIS_PORT
    launch "$1" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize no
    check "redis-server ($1) starts on port $REDIS_PORT" saw "$1" "Ready to accept connections"
}

port_of() { # port_of NAME: the port from the node's "listening on" line
    sed -n 's/^WS chat server listening on .*:\([0-9][0-9]*\)$/\1/p' "${OUT[$1]}" | head -n 1
}

build_examples ScaleOutChat WsChatClient
NODE_DLL=$(dll ScaleOutChat)
CLIENT_DLL=$(dll WsChatClient)
WELCOME="Welcome to the WS chat!"

REDIS_PORT=$(free_port)
start_redis redis

launch nodeA dotnet "$NODE_DLL" 0 "127.0.0.1:$REDIS_PORT"
launch nodeB dotnet "$NODE_DLL" 0 "127.0.0.1:$REDIS_PORT"
check "node A joins the backplane" saw nodeA "Backplane: node"
check "node B joins the backplane" saw nodeB "Backplane: node"
check "node A listens" saw nodeA "WS chat server listening on 127.0.0.1:"
check "node B listens" saw nodeB "WS chat server listening on 127.0.0.1:"
PORT_A=$(port_of nodeA)
PORT_B=$(port_of nodeB)
check "the nodes listen on two ports ($PORT_A, $PORT_B)" test -n "$PORT_A" -a -n "$PORT_B" -a "$PORT_A" != "$PORT_B"

launch alice dotnet "$CLIENT_DLL" 127.0.0.1 "$PORT_A"
launch bob dotnet "$CLIENT_DLL" 127.0.0.1 "$PORT_B"
check "alice connects to node A" saw alice "$WELCOME"
check "bob connects to node B" saw bob "$WELCOME"

type_in alice "hello from alice $TAG"
check "bob, on node B, receives alice's line from node A" saw bob "hello from alice $TAG"
check "alice receives her own line back from node A" saw alice "hello from alice $TAG"
type_in bob "hello from bob $TAG"
check "alice, on node A, receives bob's line from node B" saw alice "hello from bob $TAG"
type_in nodeB "announcement $TAG"
check "alice receives node B's admin line" saw alice "(admin) announcement $TAG"
check "bob receives node B's admin line" saw bob "(admin) announcement $TAG"
# A later line from each side, so any duplicate of the first ones would have arrived before it.
type_in nodeA "last $TAG"
check "bob receives node A's admin line" saw bob "(admin) last $TAG"
check "alice received alice's line once" saw_exactly alice "hello from alice $TAG" 1
check "bob received alice's line once" saw_exactly bob "hello from alice $TAG" 1
check "alice received bob's line once" saw_exactly alice "hello from bob $TAG" 1

kill_process redis KILL
type_in alice "while redis is down $TAG"
check "with Redis killed, node A still delivers alice's line to alice" saw alice "while redis is down $TAG"
start_redis redis-again
# The nodes reconnect on their own (about a second apart); lines sent before that are lost to the other node.
crossed=0
for ((i = 0; i < WAIT_SECONDS * 2; i++)); do
    type_in alice "after restart $TAG $i"
    sleep 0.5
    if grep -qF "after restart $TAG" "${OUT[bob]}"; then crossed=1; break; fi
done
check "after Redis restarts, alice's lines reach bob again" test "$crossed" == 1
check "bob never received the line sent while Redis was down" not_printed bob "while redis is down $TAG"

type_in nodeA ""
check "node A quits on an empty line and prints its backplane counters" saw nodeA "Backplane: published"
check "node A exits with 0" exits_with nodeA 0
finish
