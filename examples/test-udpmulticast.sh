#!/usr/bin/env bash
# Process-level test of the UDP multicast examples. Multicast never runs on the host: the host's loopback has no
# multicast route, so a multicast datagram (or the IGMP report of a join) would go out on the real network.
#
# On the host this script only builds examples/UdpMulticastServer and examples/UdpMulticastClient and checks that
# both refuse to run there: exit code 3, the reason and the safe command line on stderr, no IPv4 or IPv6 socket
# opened (seen with strace when it is installed) and the host's multicast counter unchanged. It checks the same
# refusal in a private namespace that holds a second interface (a veth pair), where the namespace's own counters must
# stay at zero, and that examples/run-in-private-netns.sh passes arguments and exit codes through.
#
# Then it runs itself again inside examples/run-in-private-netns.sh (a new network namespace whose only interface is
# lo, set up for multicast), where the scenario runs on the examples' defaults (239.255.0.1, port 3334): a server and
# two clients, each with stdin fed from a FIFO; a line typed into the server reaches both clients once; the kernel
# counts the members (/proc/net/igmp); a client that quits leaves the group and receives nothing more while the other
# still does; '!' restarts the server; a late member gets only what follows its join; every way of quitting exits
# with 0. Without unshare or ip, or where no network namespace can be created, it prints SKIP and exits with 0.
# Every wait is bounded (WAIT_SECONDS, 10 s by default). Prints PASS/FAIL lines and a tally; exits 1 when a check
# failed. KEEP_LOGS=1 keeps the work directory with every process's output.
# shellcheck source=process-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/process-test-lib.sh"

SELF="$ROOT/examples/test-udpmulticast.sh"
INSIDE_PRIVATE=--inside-private-namespace
INSIDE_CROWDED=--inside-namespace-with-veth
GROUP=239.255.0.1
GROUP_HEX=0100FFEF   # how /proc/net/igmp writes 239.255.0.1
MCAST_PORT=3334
REFUSAL="Refusing to send or join multicast"
# Lists every socket a process and its threads open; seccomp-bpf stops them only for that call, so dotnet keeps its pace.
TRACE=(strace -f -qq --seccomp-bpf -e trace=socket)
SERVER=$(dll UdpMulticastServer)
CLIENT=$(dll UdpMulticastClient)

find_ip() { # the path of ip, which often lives in /usr/sbin, off an ordinary user's PATH
    command -v ip || for candidate in /usr/sbin/ip /sbin/ip /usr/bin/ip; do [[ -x "$candidate" ]] && echo "$candidate" && return; done
}

counter() { # counter FILE SECTION FIELD: a counter of /proc/net/snmp or /proc/net/netstat (a header line, then values)
    awk -v section="$2:" -v field="$3" '
        $1 == section && !column { for (i = 2; i <= NF; i++) if ($i == field) column = i; next }
        $1 == section && column { print $column; exit }' "$1"
}

interfaces() { # the interfaces of this process's network namespace
    awk -F: 'NR > 2 { gsub(/ /, "", $1); print $1 }' /proc/self/net/dev | tr '\n' ' ' | sed 's/ $//'
}

igmp_members() { # the kernel's count of memberships of GROUP on lo (0 when none)
    awk -v group="$GROUP_HEX" '
        /^[0-9]/ { device = $2 }
        device == "lo" && $1 == group { users = $2 }
        END { print users + 0 }' /proc/self/net/igmp
}

igmp_members_become() { # igmp_members_become COUNT: waits until the kernel counts COUNT members
    local i
    for ((i = 0; i < WAIT_SECONDS * 10; i++)); do
        [[ "$(igmp_members)" == "$1" ]] && return 0
        sleep 0.1
    done
    echo "  /proc/net/igmp counts $(igmp_members) members of $GROUP on lo, expected $1"
    return 1
}

can_trace() { # strace is installed and allowed to trace here (containers may forbid ptrace)
    "${TRACE[@]}" -o /dev/null true >/dev/null 2>&1
}

no_inet_sockets() { # no_inet_sockets FILE: the strace log shows no IPv4 or IPv6 socket being opened
    if grep -E 'socket\(AF_INET6?,' "$1"; then
        echo "  an IPv4 or IPv6 socket was opened (above)"
        return 1
    fi
}

opened_udp_socket() { # opened_udp_socket FILE: the strace log shows an IPv4 datagram socket (the control of no_inet_sockets)
    grep -qE 'socket\(AF_INET, SOCK_DGRAM' "$1" || { echo "  no IPv4 datagram socket in $1"; return 1; }
}

refuses() { # refuses NAME: the run NAME (an example started outside a private namespace) refused as it should
    exit_code_is "$1" 3 && printed "$1" "$REFUSAL" && printed "$1" "run-in-private-netns.sh" && printed "$1" "unshare --net" \
        && not_printed "$1" "UDP multicast server sending to" && not_printed "$1" "Joined multicast group"
}

# --- on the host --------------------------------------------------------------------------------------------------

host_checks() {
    local watch=() before after name program code tracing=1
    # Without strace, or where tracing is not allowed (a container without ptrace), the exit code, the messages and
    # the host's counter remain.
    if ! can_trace; then
        tracing=0
        echo "SKIP: strace cannot watch for sockets here (not installed, or tracing is not allowed)"
    fi
    before=$(counter /proc/net/netstat IpExt OutMcastPkts)
    for name in server client; do
        program=$SERVER
        [[ "$name" == client ]] && program=$CLIENT
        ((tracing)) && watch=("${TRACE[@]}" -o "$WORK/host-$name.strace")
        run_bounded "host-$name" "must never be sent $TAG"$'\n' "${watch[@]}" dotnet "$program"
        check "the multicast $name refuses to run on the host (exit code 3, the reason and the safe command line)" refuses "host-$name"
        if ((${#watch[@]})); then
            check "the multicast $name opens no IPv4 or IPv6 socket on the host" no_inet_sockets "$WORK/host-$name.strace"
        fi
    done
    after=$(counter /proc/net/netstat IpExt OutMcastPkts)
    check "the host sent no IPv4 multicast meanwhile (IpExt OutMcastPkts $before -> $after)" test "$before" == "$after"

    # A namespace is not enough: one with a second interface (both ends of a veth pair stay inside it) is refused too.
    env PROCESS_TEST_WORK="$WORK" TAG="$TAG" WAIT_SECONDS="$WAIT_SECONDS" \
        timeout 60 unshare "${UNSHARE_OPTIONS[@]}" bash "$SELF" "$INSIDE_CROWDED" "$(find_ip)" >"$WORK/crowded.log" 2>&1
    code=$?
    cat "$WORK/crowded.log"
    if [[ -f "$WORK/crowded.counts" ]]; then
        add_counts "$WORK/crowded.counts"
    elif ((code != 90)); then
        fail "the check in a namespace with a veth pair ran (exit $code)"
    fi
}

wrapper_checks() {
    local wrapper="$ROOT/examples/run-in-private-netns.sh" got
    bash "$wrapper" >/dev/null 2>&1
    check "run-in-private-netns.sh without a command prints its usage and exits with 2" test $? == 2
    bash "$wrapper" sh -c 'exit 7'
    check "run-in-private-netns.sh exits with the command's exit code" test $? == 7
    got=$(bash "$wrapper" sh -c 'printf "%s|" "$@"; cat /proc/self/net/dev | tail -n +3 | wc -l' sh "a b" "c'd" '$HOME')
    check "run-in-private-netns.sh passes arguments through unchanged, into a namespace with one interface" \
        test "$got" == "a b|c'd|\$HOME|1"
}

add_counts() { # add_counts FILE: adds the checks of a run in another namespace
    local passed failed
    read -r passed failed <"$1"
    PASSED=$((PASSED + passed))
    FAILED=$((FAILED + failed))
}

# --- inside a namespace with a second interface --------------------------------------------------------------------

crowded_namespace() { # runs as root of a new network namespace; $1 is the path of ip
    local ip=$1 name program
    if ! "$ip" link add ncs-veth0 type veth peer name ncs-veth1 2>"$WORK/veth.err"; then
        echo "SKIP: no veth pair can be added in a network namespace here ($(head -n 1 "$WORK/veth.err")); the refusal is checked on the host only"
        exit 90
    fi
    # Everything else as in a private namespace, so only the second interface can make the examples refuse.
    "$ip" link set lo up && "$ip" link set lo multicast on && "$ip" route add 224.0.0.0/4 dev lo
    "$ip" link set ncs-veth0 up && "$ip" link set ncs-veth1 up
    echo "      a namespace with the interfaces: $(interfaces)"
    for name in server client; do
        program=$SERVER
        [[ "$name" == client ]] && program=$CLIENT
        run_bounded "crowded-$name" "must never be sent $TAG"$'\n' dotnet "$program"
        check "the multicast $name refuses to run in a namespace that also has a veth pair" refuses "crowded-$name"
    done
    check "no datagram left that namespace (Udp OutDatagrams is 0)" test "$(counter /proc/self/net/snmp Udp OutDatagrams)" == 0
    check "no multicast left that namespace (IpExt OutMcastPkts is 0)" test "$(counter /proc/self/net/netstat IpExt OutMcastPkts)" == 0
    write_counts "$WORK/crowded.counts"
}

# --- inside the private namespace ---------------------------------------------------------------------------------

received() { # received TEXT: what a client prints for a datagram TEXT from the server
    echo "Received from 127.0.0.1:$SERVER_PORT: $1"
}

multicast_to_all() { # multicast_to_all TEXT NAME...: the server multicasts TEXT; each NAME receives it
    local text=$1 name
    shift
    type_in server "$text"
    for name in "$@"; do
        check "$name receives '$text'" saw "$name" "$(received "$text")"
    done
}

private_namespace() {
    local ip found
    # The examples check this themselves; the scenario must not even start them anywhere else.
    found=$(interfaces)
    if [[ "$found" != lo ]]; then
        fail "the scenario runs in a namespace whose only interface is lo (found: $found); nothing was started"
        write_counts "$WORK/private.counts"
        exit 1
    fi
    pass "the scenario runs in a network namespace whose only interface is lo"
    ip=$(find_ip)
    check "run-in-private-netns.sh set lo up with multicast" grep -qE '<([^>]*,)?MULTICAST(,[^>]*)?,UP[,>]' <("$ip" link show lo)
    check "run-in-private-netns.sh routed 224.0.0.0/4 to lo" grep -q 'dev lo' <("$ip" route show 224.0.0.0/4)

    if can_trace; then
        # The control of the host check: the same watch does see the socket of a server that is allowed to start.
        run_bounded control $'\n' "${TRACE[@]}" -o "$WORK/control.strace" dotnet "$SERVER"
        check "(control) the strace watch sees the socket the server opens where it may run" opened_udp_socket "$WORK/control.strace"
    fi

    launch server dotnet "$SERVER"
    check "the server starts on the default group and port" saw server "UDP multicast server sending to $GROUP:$MCAST_PORT from 0.0.0.0:"
    SERVER_PORT=$(sed -n 's/^UDP multicast server sending to .* from 0\.0\.0\.0:\([0-9][0-9]*\)$/\1/p' "${OUT[server]}" | head -n 1)
    launch alice dotnet "$CLIENT"
    launch bob dotnet "$CLIENT"
    check "alice joins the group" saw alice "Joined multicast group $GROUP on port $MCAST_PORT"
    check "bob joins the group" saw bob "Joined multicast group $GROUP on port $MCAST_PORT"
    check "the kernel counts two members of $GROUP on lo" igmp_members_become 2

    multicast_to_all "hello everyone $TAG" alice bob
    multicast_to_all "grüße ✓ $TAG" alice bob
    multicast_to_all "third line $TAG" alice bob
    check "alice received each line once" saw_exactly alice ": hello everyone $TAG" 1
    check "bob received each line once" saw_exactly bob ": hello everyone $TAG" 1

    type_in server "!"
    check "the server says it is restarting" saw server "Server restarting..."
    check "the server finishes the restart" saw server "Done!"
    multicast_to_all "after the restart $TAG" alice bob

    type_in alice ""
    check "alice leaves the group when she quits" saw alice "Left multicast group $GROUP"
    check "alice quits with exit code 0 on an empty line" exits_with alice 0
    check "the kernel counts one member after alice quit" igmp_members_become 1
    multicast_to_all "after alice left $TAG" bob
    check "alice received nothing after she quit" saw_exactly alice "after alice left $TAG" 0

    launch carol dotnet "$CLIENT"
    check "carol joins the group late" saw carol "Joined multicast group $GROUP on port $MCAST_PORT"
    check "the kernel counts two members again" igmp_members_become 2
    multicast_to_all "for bob and carol $TAG" bob carol
    check "carol received nothing from before she joined" saw_exactly carol "hello everyone $TAG" 0
    type_in carol "hello?"
    check "a client explains that it only listens" saw carol "This client only listens"

    terminate bob
    check "bob leaves the group on SIGTERM" saw bob "Left multicast group $GROUP"
    check "bob quits with exit code 0 on SIGTERM" exits_with bob 0
    close_stdin carol
    check "carol quits with exit code 0 at the end of input" exits_with carol 0
    check "no member is left" igmp_members_become 0
    type_in server ""
    check "the server quits with exit code 0 on an empty line" exits_with server 0
    check "the server says it stopped" saw server "Server stopping..."

    launch server2 dotnet "$SERVER"
    check "a second server starts" saw server2 "UDP multicast server sending to"
    terminate server2
    check "the server quits with exit code 0 on SIGTERM" exits_with server2 0
    write_counts "$WORK/private.counts"
}

# --- the run ------------------------------------------------------------------------------------------------------

case "${1:-}" in
    "$INSIDE_CROWDED") crowded_namespace "$2"; exit 0 ;;
    "$INSIDE_PRIVATE") private_namespace; exit 0 ;;
    "") ;;
    *) echo "usage: $0   (the $INSIDE_PRIVATE and $INSIDE_CROWDED modes are this script's own)" >&2; exit 2 ;;
esac

if ! command -v unshare >/dev/null 2>&1 || [[ -z "$(find_ip)" ]]; then
    echo "SKIP: test-udpmulticast needs unshare (util-linux) and ip (iproute2) to create a private network namespace"
    exit 0
fi
UNSHARE_OPTIONS=(--net)
[[ "$(id -u)" == 0 ]] || UNSHARE_OPTIONS+=(--map-root-user)
if ! unshare_error=$(unshare "${UNSHARE_OPTIONS[@]}" true 2>&1); then
    echo "SKIP: no network namespace can be created here (unshare ${UNSHARE_OPTIONS[*]}: $unshare_error)"
    exit 0
fi

build_examples UdpMulticastServer UdpMulticastClient
host_checks
wrapper_checks

# The scenario: this script again, inside the wrapper's namespace. In the background, so a signal to this script
# reaches its trap at once, and the cleanup stops the scenario (whose own trap stops its processes).
env PROCESS_TEST_WORK="$WORK" TAG="$TAG" WAIT_SECONDS="$WAIT_SECONDS" \
    timeout 180 bash "$ROOT/examples/run-in-private-netns.sh" bash "$SELF" "$INSIDE_PRIVATE" &
PID["namespace"]=$!
wait "${PID["namespace"]}"
code=$?
unset 'PID[namespace]'
if [[ -f "$WORK/private.counts" ]]; then
    add_counts "$WORK/private.counts"
else
    fail "the scenario ran in the private network namespace (exit $code)"
fi
finish
