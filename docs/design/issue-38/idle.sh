#!/usr/bin/env bash
# idle.sh TREE: CPU of an idle EchoServer (2 loops, 20 connected idle clients) over 10 s, from /proc/PID/stat.
# ARGS: the server's engine options (default --event-loops 2; ARGS= runs the library's default).
NEW=${1:?tree}/performance/EchoServer/bin/Release/net10.0/NetCoreServer.Performance.EchoServer.dll
port=${PORT:-18900}
ARGS=${ARGS---event-loops 2}
dotnet $NEW --protocol tcp -p $port $ARGS --lifetime 30 >/dev/null 2>&1 &
sp=$!; sleep 2
python3 - $port $sp <<'PY'
import socket, sys, time, os
port, pid = int(sys.argv[1]), int(sys.argv[2])
socks = []
for i in range(20):
    s = socket.create_connection(("127.0.0.1", port)); s.sendall(b"x" * 32); s.recv(32); socks.append(s)
time.sleep(1)
def ticks():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(f[11]) + int(f[12])
hz = os.sysconf("SC_CLK_TCK")
t0, c0 = time.time(), ticks(); time.sleep(10); t1, c1 = time.time(), ticks()
print(f"idle server CPU over {t1-t0:.1f} s with 20 idle connections: {(c1-c0)/hz*100/(t1-t0):.2f} % of one core ({c1-c0} ticks)")
PY
kill $sp 2>/dev/null; wait $sp 2>/dev/null
