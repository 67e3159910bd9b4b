#!/usr/bin/env bash
# Runs a command in a new, private network namespace whose only interface is lo, set up for multicast: lo up with
# its MULTICAST flag, 224.0.0.0/4 routed to lo (and ff00::/8 in the local table, for IPv6 groups, where the system
# allows it). Nothing sent inside can reach a real network, which is why the multicast examples, tests and benchmarks
# run only there: on the host, loopback has no multicast route and a multicast datagram would leave the machine.
#
#   examples/run-in-private-netns.sh COMMAND [ARGUMENT...]
#   examples/run-in-private-netns.sh dotnet UdpMulticastServer.dll
#
# Every process started by COMMAND shares the namespace; it disappears when the last of them exits. As root this is
# `unshare --net`; otherwise `unshare --net --map-root-user`, which needs unprivileged user namespaces and makes
# COMMAND root inside a user namespace (its files are still created as you). Needs unshare (util-linux) and ip
# (iproute2). Exits with COMMAND's exit code; 125 when a tool is missing or lo cannot be set up; when the namespace
# cannot be created at all, unshare says why and exits with 1.
set -euo pipefail

name=$(basename "$0")
if (($# == 0)) || [[ "$1" == -h || "$1" == --help ]]; then
    sed -n '2,15s/^# \{0,1\}//p' "$0" >&2
    exit 2
fi

unshare=$(command -v unshare) || { echo "$name: unshare is not installed (package util-linux)" >&2; exit 125; }
# ip often lives in /usr/sbin, which is not on an ordinary user's PATH.
ip=$(command -v ip || for candidate in /usr/sbin/ip /sbin/ip /usr/bin/ip; do [[ -x "$candidate" ]] && echo "$candidate" && break; done) \
    || { echo "$name: ip is not installed (package iproute2)" >&2; exit 125; }

options=(--net)
[[ "$(id -u)" == 0 ]] || options+=(--map-root-user)

# The inner shell gets ip's path and the command as positional parameters, so no argument is ever re-parsed.
# shellcheck disable=SC2016 # the script is for the inner shell, which expands it
exec "$unshare" "${options[@]}" -- /bin/sh -c '
    ip=$1
    shift
    "$ip" link set lo up && "$ip" link set lo multicast on && "$ip" route add 224.0.0.0/4 dev lo \
        || { echo "run-in-private-netns.sh: setting up lo for multicast failed" >&2; exit 125; }
    "$ip" -6 route add ff00::/8 dev lo table local 2>/dev/null || true
    exec "$@"' run-in-private-netns "$ip" "$@"
