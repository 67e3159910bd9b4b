#!/usr/bin/env bash
# start-ab.sh OLD_DLL NEW_DLL ROUNDS [CLIENTS] [SECONDS]: two TcpEchoServer builds (NetCoreServer's example server on our
# library, e.g. as performance/ncs-compare.sh builds it, against two trees) alternated under NetCoreServer's TcpEchoClient
# (-c CLIENTS -m 1000 -s 32 -z SECONDS, built in /tmp/ncs-compare); per run the server's CPU ticks in the first 3 s
# after the client started, its CPU per message over the client's run, the watchdog thread's ticks and msg/s.
OLD=$1 NEW=$2 R=$3 C=${4:-100} Z=${5:-3}
TICK=$(getconf CLK_TCK)
one() {
  local id=$BASHPID DLL=$1 PORT; PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  local f=${TMPDIR:-/tmp}/fifo.$id; rm -f $f; mkfifo $f; exec {k}<> $f
  dotnet $DLL -p $PORT < $f > ${TMPDIR:-/tmp}/srv.$id.log 2>&1 &
  local sp=$!; for i in $(seq 200); do grep -q "starting...Done" ${TMPDIR:-/tmp}/srv.$id.log && break; sleep 0.05; done
  cpu() { awk '{print $14+$15}' /proc/$sp/stat; }
  local c0; c0=$(cpu); local t0; t0=$(date +%s.%N)
  timeout 60 dotnet /tmp/ncs-compare/ncs-TcpEchoClient/bin/Release/net10.0/TcpEchoClient.dll -a 127.0.0.1 -p $PORT -c $C -m 1000 -s 32 -z $Z > ${TMPDIR:-/tmp}/cl.$id.out 2>&1 &
  local cp=$!
  sleep $(echo "3 - ($(date +%s.%N) - $t0)" | bc)
  local c3; c3=$(cpu)
  wait $cp; local c9; c9=$(cpu)
  local wd; wd=$(for t in $(ls /proc/$sp/task | sort -n); do [[ $(cat /proc/$sp/task/$t/comm) == NetCoreServer* ]] && { sed 's/.*) //' /proc/$sp/task/$t/stat | awk '{print $12+$13}'; break; }; done)
  local msgs; msgs=$(grep "Total messages" ${TMPDIR:-/tmp}/cl.$id.out | grep -o '[0-9]*' | head -1)
  local rate; rate=$(grep "Message throughput" ${TMPDIR:-/tmp}/cl.$id.out | grep -o '[0-9]*' | head -1)
  exec {k}>&-; sleep 0.2; kill $sp 2>/dev/null; wait $sp 2>/dev/null; rm -f $f ${TMPDIR:-/tmp}/srv.$id.log ${TMPDIR:-/tmp}/cl.$id.out
  echo "$((c3 - c0)) $((c9 - c0)) ${msgs:-0} ${rate:-0} ${wd:-0}"
}
for ((r = 1; r <= R; r++)); do
  if ((r % 2)); then o=$(one $OLD); n=$(one $NEW); else n=$(one $NEW); o=$(one $OLD); fi
  python3 -c "
o = list(map(int, '$o'.split())); n = list(map(int, '$n'.split())); t = $TICK
ns = lambda x: x[1] / t * 1e9 / max(x[2], 1)
print(f'round $r: cpu3s old {o[0]} new {n[0]} ratio {n[0]/max(o[0],1):.2f} | cpu/msg old {ns(o):.0f} new {ns(n):.0f} ratio {ns(n)/max(ns(o),1e-9):.2f} | msg/s old {o[3]} new {n[3]} ratio {n[3]/max(o[3],1):.2f} | watchdog ticks old {o[4]} new {n[4]} | load $(cut -d' ' -f1 /proc/loadavg)')"
done
