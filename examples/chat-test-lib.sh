# Shared part of the chat example process tests (test-chat.sh, test-sslchat.sh, test-udschat.sh); sourced, never
# run by itself.
#
# The sourcing script sets CHAT (the protocol name the examples print: TCP, SSL, Unix socket), SERVER_PROJECT and
# CLIENT_PROJECT (folders under examples/) and, for examples reached through a socket file instead of a port,
# CHAT_ENDPOINT=path; then it calls build_examples and the chat_* scenario steps, adds its own checks between them,
# and ends with finish. With CHAT_ENDPOINT=port (the default) servers take [port] and listen on 127.0.0.1, clients
# take 127.0.0.1 [port]; with CHAT_ENDPOINT=path both take [path], a socket file in the work directory. Real server and client processes run with stdin fed from a FIFO and
# are checked through their stdout. Every wait is bounded (WAIT_SECONDS, 10 s by default). Prints PASS/FAIL lines
# and a summary; finish fails when a check failed. Set KEEP_LOGS=1 to keep the work directory with every
# process's output.
# shellcheck shell=bash
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TEST_NAME=$(basename "$0" .sh)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/$TEST_NAME.XXXXXX")
# A private artifacts path keeps this build out of the bin/obj folders a concurrent IDE or build may be using.
ARTIFACTS="$WORK/build"
WAIT_SECONDS=${WAIT_SECONDS:-10}
CHAT_ENDPOINT=${CHAT_ENDPOINT:-port}
case "$CHAT_ENDPOINT" in
    port) ENDPOINT_NAME=port ;;
    path) ENDPOINT_NAME="socket file" ;;
    *) echo "chat-test-lib.sh: CHAT_ENDPOINT must be port or path, not '$CHAT_ENDPOINT'" >&2; exit 2 ;;
esac
SERVER_DLL="$ARTIFACTS/bin/$SERVER_PROJECT/release/$SERVER_PROJECT.dll"
CLIENT_DLL="$ARTIFACTS/bin/$CLIENT_PROJECT/release/$CLIENT_PROJECT.dll"
WELCOME="Welcome to the $CHAT chat!"
TAG=$$-$RANDOM
# The builds live outside the repository, so examples that look for repository files (the TLS examples'
# tools/certificates) find them from the current directory.
cd "$ROOT" || exit 1

PASSED=0
FAILED=0
declare -A PID=()   # process name -> pid
declare -A FD=()    # process name -> fd of the FIFO feeding its stdin
declare -A OUT=()   # process name -> file with its stdout and stderr

cleanup() {
    local name pid
    for name in "${!PID[@]}"; do
        pid=${PID[$name]}
        kill -0 "$pid" 2>/dev/null && kill -TERM "$pid" 2>/dev/null
    done
    for name in "${!PID[@]}"; do
        pid=${PID[$name]}
        for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    done
    if [[ "${KEEP_LOGS:-0}" == 1 ]]; then
        echo "logs kept in $WORK"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

pass() { PASSED=$((PASSED + 1)); echo "PASS: $*"; }

fail() {
    FAILED=$((FAILED + 1))
    echo "FAIL: $*"
    local name
    for name in "${!OUT[@]}"; do
        echo "  --- last lines of $name ---"
        tail -n 8 "${OUT[$name]}" | sed 's/^/  | /'
    done
}

check() { # check DESCRIPTION COMMAND...
    local description=$1
    shift
    if "$@"; then pass "$description"; else fail "$description"; fi
}

count_of() { # count_of NAME TEXT: lines of NAME's output holding TEXT
    local count
    # The output file appears only once the background process has started; until then the count is 0.
    count=$(grep -cF -- "$2" "${OUT[$1]}" 2>/dev/null)
    echo "${count:-0}"
}

saw() { # saw NAME TEXT [COUNT]: waits until NAME's output holds TEXT on at least COUNT lines
    local name=$1 text=$2 count=${3:-1} i
    for ((i = 0; i < WAIT_SECONDS * 10; i++)); do
        (($(count_of "$name" "$text") >= count)) && return 0
        sleep 0.1
    done
    return 1
}

saw_exactly() { # saw_exactly NAME TEXT COUNT: NAME's output holds TEXT on exactly COUNT lines now
    local actual
    actual=$(count_of "$1" "$2")
    [[ "$actual" == "$3" ]] || { echo "  $1 printed '$2' on $actual lines, expected $3"; return 1; }
}

exits_with() { # exits_with NAME CODE: waits until NAME has exited and checks its exit code
    local name=$1 expected=$2 pid=${PID[$1]} i code
    for ((i = 0; i < WAIT_SECONDS * 10; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "  $name (pid $pid) is still running"
        return 1
    fi
    wait "$pid"
    code=$?
    unset "PID[$name]"
    [[ "$code" == "$expected" ]] || { echo "  $name exited with $code, expected $expected"; return 1; }
}

launch() { # launch NAME COMMAND...: runs COMMAND in the background with stdin from a new FIFO
    local name=$1 fifo="$WORK/$1.in" fd open
    shift
    mkfifo "$fifo"
    # Read-write keeps the open from blocking and means writes never get SIGPIPE, even after the process died.
    exec {fd}<>"$fifo"
    open="${FD[*]}"
    FD[$name]=$fd
    OUT[$name]="$WORK/$name.out"
    # The child must not inherit the other processes' FIFO ends, or closing one to send EOF would not work.
    (
        for inherited in $open $fd; do eval "exec $inherited>&-"; done
        exec "$@"
    ) <"$fifo" >"${OUT[$name]}" 2>&1 &
    PID[$name]=$!
}

type_in() { # type_in NAME LINE: types LINE on NAME's console
    printf '%s\n' "$2" >&"${FD[$1]}"
}

close_stdin() { # close_stdin NAME: NAME's console reaches end of input
    local fd=${FD[$1]}
    exec {fd}>&-
    unset "FD[$1]"
}

kill_process() { # kill_process NAME SIGNAL: sends SIGNAL, waits until NAME has gone and forgets it
    local pid=${PID[$1]}
    kill "-$2" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    unset "PID[$1]"
    close_stdin "$1"
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

build_examples() { # builds SERVER_PROJECT and CLIENT_PROJECT; exits when one fails
    local project
    for project in "$SERVER_PROJECT" "$CLIENT_PROJECT"; do
        if dotnet build "$ROOT/examples/$project/$project.csproj" -c Release --nologo -v quiet \
            --artifacts-path "$ARTIFACTS" --disable-build-servers >"$WORK/build-$project.log" 2>&1; then
            pass "$project builds"
        else
            fail "$project builds"
            grep -E 'error|Error' "$WORK/build-$project.log" | sort -u | head -n 20
            exit 1
        fi
    done
}

chat_start() { # a server on a free port (PORT) or a new socket file (ENDPOINT, either way) and two clients, alice and bob
    start_server server "$(new_endpoint server)"
    check "server prints the $ENDPOINT_NAME it listens on" saw server "$(listening_line)"
    ENDPOINT=$(endpoint_of server)
    if [[ "$CHAT_ENDPOINT" == path ]]; then
        if ! [[ "$ENDPOINT" == "$(new_endpoint server)" && -S "$ENDPOINT" ]]; then
            fail "server listens on the socket file it was given (got '$ENDPOINT')"
            exit 1
        fi
    else
        PORT=$ENDPOINT
        if ! [[ "$PORT" =~ ^[0-9]+$ && "$PORT" -gt 0 ]]; then
            fail "server reported a real port (got '$PORT')"
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
    kill -TERM "${PID[carol]}"
    check "client quits with exit code 0 on SIGTERM" exits_with carol 0
    kill -TERM "${PID[server4]}"
    check "server quits with exit code 0 on SIGTERM" exits_with server4 0
}

finish() { # prints the summary; the exit status says whether every check passed
    echo "$TEST_NAME: $PASSED checks passed, $FAILED checks failed"
    ((FAILED == 0))
}
