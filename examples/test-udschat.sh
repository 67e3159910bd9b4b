#!/usr/bin/env bash
# Process-level test of the Unix socket chat examples: real server and client processes driven through their consoles.
#
# Runs the same steps as test-chat.sh (chat-test-lib.sh) with socket files in the work directory instead of ports,
# and adds what is particular to Unix sockets: a second server on a socket file in use fails and leaves it alone;
# socat, a peer nobody here wrote, receives the welcome line and chats with the clients; a server killed with
# SIGKILL leaves its file behind and the next server replaces it (in chat_restarts); a server that quits or gets
# SIGTERM removes its file; with no argument both programs use netcoreserver-chat.sock in the temp folder (TMPDIR
# points it into the work directory here); a bad command line exits with 2.
# The socat checks are skipped when socat is missing (build/test.sh installs it). Every wait is bounded
# (WAIT_SECONDS, 10 s by default). Prints PASS/FAIL lines and a summary; exits 1 when a check failed. Set
# KEEP_LOGS=1 to keep the work directory with every process's output.
CHAT="Unix socket"
SERVER_PROJECT=UdsChatServer
CLIENT_PROJECT=UdsChatClient
CHAT_ENDPOINT=path
# shellcheck source=chat-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/chat-test-lib.sh"

build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"
chat_start

# --- a socket file in use is not taken over --------------------------------------------------------------------------
start_server squatter "$ENDPOINT"
check "a second server on the socket file in use says it is taken" saw squatter "AddressAlreadyInUse"
check "the second server exits with code 1" exits_with squatter 1
check "the first server's socket file is still there" test -S "$ENDPOINT"
chat_talk

# --- socat: a Unix socket peer nobody here wrote ---------------------------------------------------------------------
if command -v socat >/dev/null 2>&1; then
    launch peer socat - "UNIX-CONNECT:$ENDPOINT"
    check "socat receives the welcome line" saw peer "$WELCOME"
    type_in peer "hello from socat $TAG"
    check "alice receives the line typed into socat" saw alice "hello from socat $TAG"
    check "bob receives the line typed into socat" saw bob "hello from socat $TAG"
    type_in bob "hello socat $TAG"
    check "socat receives bob's message" saw peer "hello socat $TAG"
    type_in server "admin to socat $TAG"
    check "socat receives the admin line" saw peer "(admin) admin to socat $TAG"
    close_stdin peer
    check "socat ends once its input ends" exits_with peer 0
else
    echo "SKIP: socat is not installed (apt-get install socat); the socat checks are not run"
fi

chat_restarts
chat_quit
check "a server that quit removed its socket file" test ! -e "$ENDPOINT"
check "a server stopped by SIGTERM removed its socket file" test ! -e "$(new_endpoint server4)"

# --- the default socket file, in the temp folder -------------------------------------------------------------------
TEMP="$WORK/temp"
mkdir -p "$TEMP"
launch default env "TMPDIR=$TEMP" dotnet "$SERVER_DLL"
check "with no argument the server listens on netcoreserver-chat.sock in the temp folder" \
    saw default "$(listening_line "$TEMP/netcoreserver-chat.sock")"
launch dave env "TMPDIR=$TEMP" dotnet "$CLIENT_DLL"
check "with no argument the client connects to the same file" saw dave "$WELCOME"
check "the client says where it connects" saw dave "$CHAT chat client connecting to $TEMP/netcoreserver-chat.sock"
close_stdin dave
check "that client quits with exit code 0" exits_with dave 0
close_stdin default
check "that server quits with exit code 0" exits_with default 0

# --- bad command lines -----------------------------------------------------------------------------------------------
launch extra dotnet "$SERVER_DLL" "$WORK/one.sock" "$WORK/two.sock"
check "the server rejects a second argument with exit code 2" exits_with extra 2
check "the server prints its usage" saw extra "Usage: UdsChatServer [path]"
launch toolong dotnet "$CLIENT_DLL" "$WORK/$(printf 'x%.0s' {1..200}).sock"
check "the client rejects a path too long for a socket address with exit code 2" exits_with toolong 2
check "the client prints its usage" saw toolong "Usage: UdsChatClient [path]"
finish
