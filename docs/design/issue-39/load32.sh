#!/usr/bin/env bash
# load32.sh ROUNDS [CLIENTS]: echo_load -w 32 -c CLIENTS -m 1000 -s 32 -z 5 (one write per 32-byte message) against
# NetCoreServer's TcpEchoServer on its library and on ours (as performance/ncs-compare.sh built them) and against
# echo_epoll -t 2, rotating; msg/s and server CPU ns per message (/proc) of each.
R=$1 C=${2:-100} P=/tmp/ncs-compare TICK=$(getconf CLK_TCK)
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
one() { # one ncs|ours|c
  local p; p=$(port)
  if [[ $1 == c ]]; then /tmp/peers/echo_epoll -p $p -t 2 -z 12 > /dev/null 2>&1 &
  else dotnet $P/$1-TcpEchoServer/bin/Release/net10.0/TcpEchoServer.dll -p $p < <(sleep 12) > /dev/null 2>&1 & fi
  local sp=$!; sleep 1.5
  local b; b=$(awk '{print $14+$15}' /proc/$sp/stat)
  local r; r=$($P/echo_load -h 127.0.0.1 -p $p -c $C -m 1000 -s 32 -w 32 -z 5 | python3 -c 'import json,sys; print(int(json.load(sys.stdin)["msg_per_s"]))')
  local a; a=$(awk '{print $14+$15}' /proc/$sp/stat)
  kill $sp 2>/dev/null; wait $sp 2>/dev/null
  echo "$1 $r $(( (a - b) * 1000000000 / TICK / (r * 5 > 0 ? r * 5 : 1) ))"
}
kinds=(ncs ours c)
for ((r = 0; r < R; r++)); do
  line="round $((r + 1)):"
  for ((k = 0; k < 3; k++)); do line="$line $(one ${kinds[$(( (k + r) % 3 ))]}) |"; done
  echo "$line"
done
