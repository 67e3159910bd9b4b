#!/usr/bin/env bash
# Process-level test of examples/ReconnectingChatClient against examples/TcpChatServer.
#
# A server on a free port and the reconnecting client: a line goes through; the server is killed and the client
# retries with growing waits (100 ms doubling, with jitter); a new server on the same port and the client comes back
# by itself, a line goes through again; the client quits with exit code 0, also while the server is away. Every wait
# is bounded (WAIT_SECONDS, 10 s by default). Set KEEP_LOGS=1 to keep the work directory with every process's output.
CHAT=TCP
SERVER_PROJECT=TcpChatServer
CLIENT_PROJECT=ReconnectingChatClient
# shellcheck source=chat-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/chat-test-lib.sh"

RETRY="Reconnecting chat client could not connect; retry"

delays_of() { # delays_of NAME: the announced waits in ms, one a line, in order
    sed -n 's/^Reconnecting chat client .*; retry [0-9]* in \([0-9]*\) ms$/\1/p' "${OUT[$1]}"
}

delays_grow() { # delays_grow NAME: the first four waits never shrink, start at most 100 ms and the fourth is longer
    local -a d
    mapfile -t d < <(delays_of "$1" | head -n 4)
    echo "      waits: ${d[*]} ms"
    ((${#d[@]} == 4)) || { echo "  $1 announced ${#d[@]} waits, expected 4"; return 1; }
    ((d[0] >= 50 && d[0] <= 100)) || { echo "  the first wait is ${d[0]} ms, expected 50-100"; return 1; }
    ((d[0] <= d[1] && d[1] <= d[2] && d[2] <= d[3] && d[3] > d[0])) || { echo "  the waits do not grow"; return 1; }
    ((d[3] <= 800)) || { echo "  the fourth wait is ${d[3]} ms, expected at most 800"; return 1; }
}

no_retry_after_quit() { # no_retry_after_quit NAME: no attempt is announced after "Client disconnecting..."
    ! sed -n '/^Client disconnecting\.\.\.$/,$p' "${OUT[$1]}" | grep -q "retry" || { echo "  $1 retried after quitting"; return 1; }
}

build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"

start_server server 0
check "server prints the port it listens on" saw server "$(listening_line)"
PORT=$(port_of server)
[[ "$PORT" =~ ^[0-9]+$ ]] || { fail "server reported a real port (got '$PORT')"; finish; exit 1; }

start_client client "$PORT"
check "client connects and is welcomed" saw client "$WELCOME" 1
type_in client "first line $TAG"
check "the server receives the client's line" saw server "Incoming: first line $TAG"
check "the line comes back to the client" saw client "first line $TAG"

kill_process server KILL
check "client notices the server is gone" saw client "Reconnecting chat client lost the connection"
check "client retries while nothing listens" saw client "$RETRY" 3
check "the waits between attempts grow" delays_grow client

start_server server2 "$PORT"
check "a new server listens on the same port" saw server2 "$(listening_line "$PORT")"
check "client reconnects to the new server by itself" saw client "$WELCOME" 2
check "client says it connected again" saw client "Reconnecting chat client connected to 127.0.0.1:$PORT" 2
type_in client "second line $TAG"
check "the new server receives the client's line" saw server2 "Incoming: second line $TAG"
type_in server2 "from the new server $TAG"
check "client receives the new server's admin line" saw client "(admin) from the new server $TAG"

type_in client ""
check "client quits with exit code 0 on an empty line" exits_with client 0
check "client says it is done" printed client "Done!"
check "client does not retry after quitting" no_retry_after_quit client
check "client lost the connection only when the server died" saw_exactly client "lost the connection" 1

# Quitting while the server is away cancels the pending attempt.
kill_process server2 KILL
start_client lonely "$PORT"
check "a client with no server retries" saw lonely "$RETRY" 2
close_stdin lonely
check "it quits with exit code 0 at the end of input while retrying" exits_with lonely 0
check "it says it is done" printed lonely "Done!"

finish
