#!/usr/bin/env bash
# timeline.sh SIDE: the CPU ticks of the TcpEchoServer ncs-compare.sh built (SIDE ncs|ours) every 0.5 s over one
# TcpEchoClient -c 100 -m 1000 -s 32 -z 8 run; columns: seconds since the client started, ticks, client output lines.
SIDE=$1; S=/tmp/ncs-compare; cd /tmp/ncs-src/tools/certificates
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
f=/tmp/tl-$SIDE.fifo; rm -f $f; mkfifo $f; exec {k}<> $f
dotnet $S/$SIDE-TcpEchoServer/bin/Release/net10.0/TcpEchoServer.dll -p $PORT < $f > /tmp/tl-$SIDE.log 2>&1 &
sp=$!; for i in $(seq 100); do grep -q "starting...Done" /tmp/tl-$SIDE.log && break; sleep 0.1; done
timeout 60 dotnet $S/ncs-TcpEchoClient/bin/Release/net10.0/TcpEchoClient.dll -a 127.0.0.1 -p $PORT -c 100 -m 1000 -s 32 -z 8 > /tmp/tl-$SIDE.out 2>&1 &
cp=$!; t0=$(date +%s.%N)
while kill -0 $cp 2>/dev/null; do
  printf '%.1f %s %s\n' "$(echo "$(date +%s.%N) - $t0" | bc)" "$(awk '{print $14+$15}' /proc/$sp/stat)" "$(grep -c . /tmp/tl-$SIDE.out)"; sleep 0.5; done
printf 'end %s\n' "$(awk '{print $14+$15}' /proc/$sp/stat)"
exec {k}>&-; sleep 2; kill $sp 2>/dev/null; grep "throughput: .* msg\|Total messages" /tmp/tl-$SIDE.out
