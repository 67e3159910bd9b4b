# Chat part of the chat example process tests (test-chat.sh, test-sslchat.sh, test-udschat.sh); sourced, never
# run by itself. The generic machinery (processes, checks, tally) is in process-test-lib.sh.
#
# The sourcing script sets CHAT (the protocol name the examples print: TCP, SSL, Unix socket), SERVER_PROJECT and
# CLIENT_PROJECT (folders under examples/) and, for examples reached through a socket file instead of a port,
# CHAT_ENDPOINT=path; then it calls build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT" and the chat_* scenario steps,
# adds its own checks between them, and ends with finish. With CHAT_ENDPOINT=port (the default) servers take [port]
# and listen on 127.0.0.1, clients take 127.0.0.1 [port]; with CHAT_ENDPOINT=path both take [path], a socket file in
# the work directory. Set KEEP_LOGS=1 to keep the work directory with every process's output.
# shellcheck shell=bash
# shellcheck source=process-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/process-test-lib.sh"

CHAT_ENDPOINT=${CHAT_ENDPOINT:-port}
case "$CHAT_ENDPOINT" in
    port) ENDPOINT_NAME=port ;;
    path) ENDPOINT_NAME="socket file" ;;
    *) echo "chat-test-lib.sh: CHAT_ENDPOINT must be port or path, not '$CHAT_ENDPOINT'" >&2; exit 2 ;;
esac
SERVER_DLL=$(dll "$SERVER_PROJECT")
CLIENT_DLL=$(dll "$CLIENT_PROJECT")
WELCOME="Welcome to the $CHAT chat!"

tally() { # the chat tests' own wording of the tally line, as they have always printed it
    echo "$TEST_NAME: $PASSED checks passed, $FAILED checks failed"
}

start_server() { # start_server NAME ENDPOINT [ARGUMENT...]: a server on ENDPOINT (a port, or a socket file)
    launch "$1" dotnet "$SERVER_DLL" "${@:2}"
}

start_client() { # start_client NAME ENDPOINT [ARGUMENT...]: a client of 127.0.0.1:PORT, or of the socket file ENDPOINT
    if [[ "$CHAT_ENDPOINT" == path ]]; then
        launch "$1" dotnet "$CLIENT_DLL" "${@:2}"
    else
        launch "$1" dotnet "$CLIENT_DLL" 127.0.0.1 "${@:2}"
    fi
}

new_endpoint() { # new_endpoint NAME: what a new server NAME is given: port 0 (a free one), or a socket file of its own
    if [[ "$CHAT_ENDPOINT" == path ]]; then
        echo "$WORK/$1.sock"
    else
        echo 0
    fi
}

listening_line() { # listening_line [ENDPOINT]: the server's "listening on" line, up to ENDPOINT when given
    if [[ "$CHAT_ENDPOINT" == path ]]; then
        echo "$CHAT chat server listening on ${1:-}"
    else
        echo "$CHAT chat server listening on 127.0.0.1:${1:-}"
    fi
}

port_of() { # port_of NAME: the port from the server's "listening on" line
    sed -n "s/^$CHAT chat server listening on .*:\([0-9][0-9]*\)\$/\1/p" "${OUT[$1]}" | head -n 1
}

endpoint_of() { # endpoint_of NAME: the port, or the socket file, from the server's "listening on" line
    if [[ "$CHAT_ENDPOINT" == path ]]; then
        sed -n "s|^$CHAT chat server listening on \(/.*\)\$|\1|p" "${OUT[$1]}" | head -n 1
    else
        port_of "$1"
    fi
}

# --- steps ------------------------------------------------------------------------------------------------------

chat_start() { # a server on a free port (PORT) or a new socket file (ENDPOINT, either way) and two clients, alice and bob
    start_server server "$(new_endpoint server)"
    check "server prints the $ENDPOINT_NAME it listens on" saw server "$(listening_line)"
    ENDPOINT=$(endpoint_of server)
    if [[ "$CHAT_ENDPOINT" == path ]]; then
        if ! [[ "$ENDPOINT" == "$(new_endpoint server)" && -S "$ENDPOINT" ]]; then
            fail "server listens on the socket file it was given (got '$ENDPOINT')"
            finish
            exit 1
        fi
    else
        PORT=$ENDPOINT
        if ! [[ "$PORT" =~ ^[0-9]+$ && "$PORT" -gt 0 ]]; then
            fail "server reported a real port (got '$PORT')"
            finish
            exit 1
        fi
    fi
    echo "      server listens on $ENDPOINT_NAME $ENDPOINT"

    start_client alice "$ENDPOINT"
    start_client bob "$ENDPOINT"
    check "alice connects and is welcomed" saw alice "$WELCOME" 1
    check "bob connects and is welcomed" saw bob "$WELCOME" 1
}

chat_talk() { # chat and admin lines
    type_in alice "hello from alice $TAG"
    check "bob receives alice's message" saw bob "hello from alice $TAG"
    check "alice receives her own message back" saw alice "hello from alice $TAG"

    type_in server "announcement $TAG"
    check "alice receives the admin line" saw alice "(admin) announcement $TAG"
    check "bob receives the admin line" saw bob "(admin) announcement $TAG"
}

chat_restarts() { # server restart, client reconnect, server crash and a new server on the same port or socket file
    # '!' on the server: restart, clients reconnect.
    type_in server "!"
    check "server says it is restarting" saw server "Server restarting..."
    check "server finishes the restart" saw server "Done!"
    check "alice reconnects after the restart" saw alice "$WELCOME" 2
    check "bob reconnects after the restart" saw bob "$WELCOME" 2
    type_in alice "after restart $TAG"
    check "bob receives alice's message after the restart" saw bob "after restart $TAG"

    # '!' on a client: it reconnects.
    type_in bob "!"
    check "bob reconnects on '!'" saw bob "$WELCOME" 3
    type_in bob "bob is back $TAG"
    check "alice receives bob's message after his reconnect" saw alice "bob is back $TAG"

    # The server dies; a new one on the same port or socket file; clients come back by themselves.
    kill_process server KILL
    check "alice notices the server is gone" saw alice "Chat $CHAT client disconnected" 2
    check "bob notices the server is gone" saw bob "Chat $CHAT client disconnected" 3
    if [[ "$CHAT_ENDPOINT" == path ]]; then
        # Nobody removes it after SIGKILL: the next server must replace it.
        check "the killed server leaves its socket file behind" test -S "$ENDPOINT"
    fi
    # Let both clients fail at least one connect attempt while nothing listens.
    sleep 1.5

    start_server server2 "$ENDPOINT"
    check "new server listens on the same $ENDPOINT_NAME" saw server2 "$(listening_line "$ENDPOINT")"
    check "alice reconnects to the new server by herself" saw alice "$WELCOME" 3
    check "bob reconnects to the new server by himself" saw bob "$WELCOME" 4
    type_in bob "bob after the crash $TAG"
    check "alice receives bob's message through the new server" saw alice "bob after the crash $TAG"
    type_in server2 "second server $TAG"
    check "alice receives the new server's admin line" saw alice "(admin) second server $TAG"
    check "bob receives the new server's admin line" saw bob "(admin) second server $TAG"
}

chat_quit() { # every way of quitting ends the process with exit code 0
    type_in alice ""
    check "alice quits with exit code 0 on an empty line" exits_with alice 0
    close_stdin bob
    check "bob quits with exit code 0 at the end of input" exits_with bob 0
    type_in server2 ""
    check "server quits with exit code 0 on an empty line" exits_with server2 0
    check "server says it stopped" saw server2 "Done!"

    start_server server3 "$(new_endpoint server3)"
    check "a third server starts" saw server3 "$CHAT chat server listening on"
    close_stdin server3
    check "server quits with exit code 0 at the end of input" exits_with server3 0

    start_server server4 "$(new_endpoint server4)"
    check "a fourth server starts" saw server4 "$CHAT chat server listening on"
    start_client carol "$(endpoint_of server4)"
    check "carol connects" saw carol "$WELCOME"
    terminate carol
    check "client quits with exit code 0 on SIGTERM" exits_with carol 0
    terminate server4
    check "server quits with exit code 0 on SIGTERM" exits_with server4 0
}
