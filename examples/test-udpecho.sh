#!/usr/bin/env bash
# Process-level test of the UDP echo examples: real server and client processes driven through their consoles, and
# socat as a peer nobody here wrote.
#
# Builds examples/UdpEchoServer and examples/UdpEchoClient, starts the server on a free port of 127.0.0.1 and two
# clients, each with stdin fed from a FIFO, and checks through their stdout that every datagram comes back to its
# sender only (text, UTF-8, and from socat a 60,000-byte datagram), that '!' restarts the server on the same port and
# gives a client a new socket, and that every way of quitting (empty line, end of input, SIGTERM) exits with 0.
# Nothing here is multicast. Every wait is bounded (WAIT_SECONDS, 10 s by default). Prints PASS/FAIL lines and a
# tally; exits 1 when a check failed. KEEP_LOGS=1 keeps the work directory with every process's output.
# shellcheck source=process-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/process-test-lib.sh"

echo_line() { # echo_line TEXT: what the client prints when TEXT comes back from the server
    echo "Echo from 127.0.0.1:$PORT: $1"
}

socat_echo() { # socat_echo TEXT: sends TEXT (and a newline) from socat and expects exactly it back
    local got
    # socat's UDP: connects its socket, so only a reply from 127.0.0.1:PORT is taken; -t 2 waits that long for it
    # after sending.
    got=$(printf '%s\n' "$1" | timeout "$WAIT_SECONDS" socat -t 2 - "UDP:127.0.0.1:$PORT" 2>>"$WORK/socat.err")
    [[ "$got" == "$1" ]] || { echo "  socat got '$got', expected '$1'"; return 1; }
}

socat_large() { # a 60,000-byte datagram (one read of the file, one datagram) comes back whole
    head -c 60000 /dev/zero | tr '\0' 'x' >"$WORK/large.in"
    timeout "$WAIT_SECONDS" socat -b 65507 -t 2 - "UDP:127.0.0.1:$PORT" <"$WORK/large.in" >"$WORK/large.out" 2>>"$WORK/socat.err"
    cmp -s "$WORK/large.in" "$WORK/large.out" || { echo "  socat got $(wc -c <"$WORK/large.out") bytes back, expected 60000"; return 1; }
}

build_examples UdpEchoServer UdpEchoClient
SERVER=$(dll UdpEchoServer)
CLIENT=$(dll UdpEchoClient)

run_bounded usage "" dotnet "$SERVER" not-a-port
check "the server rejects a bad port with exit code 2" exit_code_is usage 2
run_bounded usage "" dotnet "$CLIENT" 127.0.0.1 0
check "the client rejects port 0 with exit code 2" exit_code_is usage 2

# --- echo ---------------------------------------------------------------------------------------------------------
launch server dotnet "$SERVER" 0
check "the server prints the port it listens on" saw server "UDP echo server listening on 127.0.0.1:"
PORT=$(sed -n 's/^UDP echo server listening on 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "${OUT[server]}" | head -n 1)
if ! [[ "$PORT" =~ ^[0-9]+$ && "$PORT" -gt 0 ]]; then
    fail "the server reported a real port (got '$PORT')"
    finish
    exit 1
fi
echo "      the server listens on port $PORT"

run_bounded second "" dotnet "$SERVER" "$PORT"
check "a second server on the same port exits with code 1" exit_code_is second 1
check "a second server on the same port says why" printed second "cannot listen on 127.0.0.1:$PORT"

launch alice dotnet "$CLIENT" 127.0.0.1 "$PORT"
launch bob dotnet "$CLIENT" 127.0.0.1 "$PORT"
check "alice opens her socket" saw alice "Echo UDP client bound to"
check "bob opens his socket" saw bob "Echo UDP client bound to"

type_in alice "hello from alice $TAG"
check "alice's line comes back from the server" saw alice "$(echo_line "hello from alice $TAG")"
check "the server prints alice's datagram" saw server ": hello from alice $TAG"
type_in alice "grüße ✓ $TAG"
check "a UTF-8 line comes back intact" saw alice "$(echo_line "grüße ✓ $TAG")"
type_in bob "hello from bob $TAG"
check "bob's line comes back to bob" saw bob "$(echo_line "hello from bob $TAG")"
# A wrong copy would have come with the right one; give it a moment anyway.
sleep 0.3
check "alice's lines went back to alice only" saw_exactly bob "from alice $TAG" 0
check "bob's line went back to bob only" saw_exactly alice "from bob $TAG" 0
check "each line came back once" saw_exactly alice "hello from alice $TAG" 1

if command -v socat >/dev/null 2>&1; then
    check "socat gets its datagram back" socat_echo "socat $TAG"
    check "a 60,000-byte datagram from socat comes back whole" socat_large
    check "the server abbreviates what it prints of a long datagram" saw server "... (60000 bytes)"
else
    echo "SKIP: socat is not installed (package socat; build/test.sh installs it)"
fi

# --- restarts -----------------------------------------------------------------------------------------------------
type_in server "!"
check "the server says it is restarting" saw server "Server restarting..."
check "the server finishes the restart" saw server "Done!"
type_in alice "after the restart $TAG"
check "alice's line comes back after the restart (same port)" saw alice "$(echo_line "after the restart $TAG")"
if command -v socat >/dev/null 2>&1; then
    check "socat gets its datagram back after the restart" socat_echo "socat after the restart $TAG"
fi

type_in bob "!"
check "'!' gives bob a new socket" saw bob "Echo UDP client bound to" 2
type_in bob "bob on a new socket $TAG"
check "bob's line comes back to his new socket" saw bob "$(echo_line "bob on a new socket $TAG")"

type_in server "hello?"
check "the server explains its console" saw server "Only '!' (restart) and an empty line (quit)"

# --- quitting -----------------------------------------------------------------------------------------------------
type_in alice ""
check "alice quits with exit code 0 on an empty line" exits_with alice 0
check "alice says she is done" printed alice "Done!"
close_stdin bob
check "bob quits with exit code 0 at the end of input" exits_with bob 0
terminate server
check "the server quits with exit code 0 on SIGTERM" exits_with server 0
check "the server says it stopped" saw server "Server stopping..."

launch server2 dotnet "$SERVER" 0
check "a second server starts" saw server2 "UDP echo server listening on 127.0.0.1:"
type_in server2 ""
check "the server quits with exit code 0 on an empty line" exits_with server2 0

launch server3 dotnet "$SERVER" 0
check "a third server starts" saw server3 "UDP echo server listening on 127.0.0.1:"
close_stdin server3
check "the server quits with exit code 0 at the end of input" exits_with server3 0

launch carol dotnet "$CLIENT" 127.0.0.1 "$PORT"
check "carol opens her socket" saw carol "Echo UDP client bound to"
terminate carol
check "the client quits with exit code 0 on SIGTERM" exits_with carol 0

finish
