#!/usr/bin/env bash
# syscalls.sh DLL [CLIENTS]: a TcpEchoServer (NetCoreServer's Program.cs, built by performance/ncs-compare.sh on either
# library, or by tree-server.sh) under NetCoreServer's TcpEchoClient -c CLIENTS -m 1000 -s 32 -z 9; after 3 s, for 4 s:
# the server's receives, sends, epoll_waits, futex calls and context switches per 1,000 messages (perf stat), its CPU
# ns per message (/proc), and CPU ticks per thread name over the whole run. KIND=Ssl or Ws: the SslEchoServer or
# WsEchoServer DLL under that client instead (run from /tmp/ncs-src/tools/certificates, where the SSL ones find their
# certificates).
DLL=$(realpath $1) C=${2:-100} KIND=${KIND:-Tcp}
cd /tmp/ncs-src/tools/certificates
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
T=${TMPDIR:-/tmp}; f=$T/fifo.$$; rm -f $f; mkfifo $f; exec {k}<> $f
dotnet $DLL -p $PORT < $f > $T/srv.$$.log 2>&1 &
sp=$!; for i in $(seq 200); do grep -q "starting...Done" $T/srv.$$.log && break; sleep 0.05; done
timeout 60 dotnet /tmp/ncs-compare/ncs-${KIND}EchoClient/bin/Release/net10.0/${KIND}EchoClient.dll -a 127.0.0.1 -p $PORT -c $C -m 1000 -s 32 -z 9 > $T/cl.$$.out 2>&1 &
cp=$!; sleep 3
c0=$(awk '{print $14+$15}' /proc/$sp/stat)
perf stat -x, -e syscalls:sys_enter_recvfrom,syscalls:sys_enter_sendto,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_sched_yield,syscalls:sys_enter_futex,context-switches -p $sp -o $T/fx.$$.csv -- sleep 4
c1=$(awk '{print $14+$15}' /proc/$sp/stat)
wait $cp; rate=$(grep "Message throughput" $T/cl.$$.out | grep -o '[0-9]*' | head -1)
python3 - ${rate:-0} $((c1 - c0)) $T/fx.$$.csv $(getconf CLK_TCK) <<'PY'
import sys
rate, ticks, tick = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[4]); msgs = max(rate * 4, 1)
out = []
for line in open(sys.argv[3]):
    p = line.strip().split(',')
    if len(p) > 3 and p[0].isdigit():
        out.append(f"{p[2].replace('syscalls:sys_enter_', '')} {int(p[0]) / msgs * 1000:.2f}")
print(f"msg/s {rate}  cpu ns/msg {ticks / tick * 1e9 / msgs:.0f}  per 1000 msgs: " + "  ".join(out))
PY
for t in $(ls /proc/$sp/task); do echo "$(cat /proc/$sp/task/$t/comm) $(sed 's/.*) //' /proc/$sp/task/$t/stat | awk '{print $12+$13}')"; done \
  | awk '{n = $NF; $NF = ""; a[$0] += n} END {for (k in a) if (a[k] > 0) printf "%s=%d  ", k, a[k]; print ""}'
exec {k}>&-; sleep 0.3; kill $sp 2>/dev/null; wait $sp 2>/dev/null
rm -f $f $T/srv.$$.log $T/cl.$$.out $T/fx.$$.csv
