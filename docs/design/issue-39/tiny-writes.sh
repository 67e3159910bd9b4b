#!/usr/bin/env bash
# tiny-writes.sh KIND [echo_load args]: one echo_load run (-c 100 -m 1000 -s 32 -z 7, then the args, e.g. -w 32) against
# NetCoreServer's TcpEchoServer Program.cs on KIND = ncs (its library), ours (our default), pool (ours with
# OptionEventLoops = 0, built by tree-server.sh on this tree) or var-NAME (built by tree-server.sh NAME), or against c
# (echo_epoll -t 2); prints msg/s, TCP segments per message (nstat, whole run), and per 1,000 messages the system calls,
# context switches and CPU of the server (WHO=client: of the client) over a 4 s window (perf stat). Needs what
# performance/ncs-compare.sh built in /tmp/ncs-compare, perf and nstat.
set -e
KIND=$1; shift
P=/tmp/ncs-compare
if [[ $KIND == pool && ! -f $P/var-pool/bin/Release/net10.0/TcpEchoServer.dll ]]; then
    # The same Program.cs with OptionEventLoops = 0 (in place of a commented-out line), on this tree's library.
    bash "$(dirname "${BASH_SOURCE[0]}")/tree-server.sh" pool "$(dirname "${BASH_SOURCE[0]}")/../../.." \
        's#// server.OptionNoDelay = true;#server.OptionEventLoops = 0;#' > /dev/null
fi
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
case $KIND in
    c) /tmp/peers/echo_epoll -p $PORT -t 2 -z 14 > /dev/null 2>&1 & ;;
    pool | var-*) dotnet $P/var-${KIND#var-}/bin/Release/net10.0/TcpEchoServer.dll -p $PORT < <(sleep 14) > /dev/null 2>&1 & ;;
    *) dotnet $P/$KIND-TcpEchoServer/bin/Release/net10.0/TcpEchoServer.dll -p $PORT < <(sleep 14) > /dev/null 2>&1 & ;;
esac
SP=$!; sleep 1.5
nstat -n > /dev/null
$P/echo_load -h 127.0.0.1 -p $PORT -c 100 -m 1000 -s 32 -z 7 "$@" > /tmp/tiny-writes.json &
LP=$!; sleep 2
[[ ${WHO:-server} == client ]] && TARGET=$LP || TARGET=$SP
perf stat -x, -o /tmp/tiny-writes.stat -p $TARGET -e 'syscalls:sys_enter_recvfrom,syscalls:sys_enter_sendto,syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_sched_yield,context-switches,task-clock' -- sleep 4
wait $LP; kill $SP 2> /dev/null; wait $SP 2> /dev/null || true
SEGMENTS=$(nstat 2> /dev/null | awk '/^TcpOutSegs/ { print $2 }')
python3 - "$KIND" "${SEGMENTS:-0}" << 'PY'
import json, sys
rate = json.load(open('/tmp/tiny-writes.json'))['msg_per_s']; per = rate * 4 / 1000
c = {}
for line in open('/tmp/tiny-writes.stat'):
    f = line.strip().split(',')
    if len(f) > 2 and f[0].replace('.', '').isdigit(): c[f[2].split(':')[-1]] = float(f[0])
g = lambda *names: sum(c.get(n, 0) for n in names) / per
print(f"{sys.argv[1]}: {rate:,.0f} msg/s, {int(sys.argv[2]) / (rate * 7):.2f} segments/msg; per 1,000 msgs: reads {g('sys_enter_recvfrom', 'sys_enter_read'):.1f}"
      f" writes {g('sys_enter_sendto', 'sys_enter_write'):.1f} epoll_wait {g('sys_enter_epoll_wait'):.1f} yield {g('sys_enter_sched_yield'):.1f}"
      f" cs {g('context-switches'):.1f}; CPU {c.get('task-clock', 0) * 1e6 / (rate * 4):,.0f} ns/msg")
PY
