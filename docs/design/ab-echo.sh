#!/usr/bin/env bash
# ab-echo.sh OLD NEW PROTO CLIENTS ROUNDS SECONDS: the EchoServer of two trees alternated under main's EchoClient; msg/s
# per run, and the server's CPU time per message (utime+stime from /proc over the client's run, in nanoseconds), which
# a loaded machine disturbs less than the rate.
# BENCH=multicast runs MulticastServer and MulticastClient instead (the server multicasts as fast as the sessions take).
# SERVER_ARGS adds server options; in both, {port} is replaced by the run's port (uds: --path /tmp/ab-{port}.sock).
# OLD_ARGS and NEW_ARGS add server options to one tree only (NEW_ARGS="--event-loops 0": the new tree on the thread
# pool, as a tree from before the loops became the default runs).
# CLIENT_ARGS adds client options (CLIENT_ARGS="-m 1": one message in flight per client, ping-pong; udp needs "-m 10",
# the suite's window: with EchoClient's default most datagrams are lost and the rate means nothing); PORT the first port (default 18200: two runs at once need different ones).
OLD=$1 NEW=$2 P=$3 C=$4 R=$5 Z=${6:-5}
B=Echo; [[ ${BENCH:-echo} == multicast ]] && B=Multicast
CL=${CLIENT_TREE:-$NEW}/performance/${B}Client/bin/Release/net10.0/NetCoreServer.Performance.${B}Client.dll
TICK=$(getconf CLK_TCK)
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
one() { # one TREE PORT [EXTRA_SERVER_ARGS]: prints "rate cpu-ticks" (ticks -1 when the server was gone before a read of /proc)
  local at="-p $2"; [[ $P == uds ]] && at="" # uds takes --path only (in SERVER_ARGS and CLIENT_ARGS)
  dotnet $1/performance/${B}Server/bin/Release/net10.0/NetCoreServer.Performance.${B}Server.dll --protocol $P $at --lifetime $((Z + 6)) ${SERVER_ARGS//\{port\}/$2} $3 >/dev/null 2>&1 &
  local sp=$!; sleep 1.5
  local before; before=$(cpu $sp)
  local rate; rate=$(dotnet $CL --protocol $P $at -c $C -z $Z ${CLIENT_ARGS//\{port\}/$2} 2>/dev/null | grep "Message throughput" | grep -o '[0-9]*' | head -1)
  local after; after=$(cpu $sp)
  [[ -n $before && -n $after ]] && echo "${rate:-0} $((after - before))" || echo "${rate:-0} -1"
  wait $sp
}
port=${PORT:-18200}
for ((r = 1; r <= R; r++)); do
  if ((r % 2)); then o=$(one $OLD $((port++)) "$OLD_ARGS"); n=$(one $NEW $((port++)) "$NEW_ARGS"); else n=$(one $NEW $((port++)) "$NEW_ARGS"); o=$(one $OLD $((port++)) "$OLD_ARGS"); fi
  python3 -c "
o, oc = map(int, '$o'.split()); n, nc = map(int, '$n'.split()); z = $Z; t = $TICK
ns = lambda rate, ticks: ticks / t * 1e9 / max(rate * z, 1)
cpu = f'cpu/msg old {ns(o, oc):.0f} ns new {ns(n, nc):.0f} ns ratio {ns(n, nc)/max(ns(o, oc),1e-9):.2f}' if min(oc, nc) >= 0 else 'cpu/msg n/a (a server was gone before its /proc was read)'
print(f'round $r: old {o/1e6:.2f}M new {n/1e6:.2f}M ratio {n/max(o,1):.2f}  {cpu}')"
done
