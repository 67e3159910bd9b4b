#!/usr/bin/env bash
# echo-rotate.sh NEW_TREE BASE_TREE ROUNDS MSGS: echo_load -c 100 -m MSGS -s 32 -z 4 against the EchoServer of two
# trees (both --event-loops 2) and echo_epoll -t 2, the order rotating each round; msg/s and ratios per round, and
# each server's CPU time per message (utime+stime from /proc over the client's run, ns).
# PEERS: where echo_load and echo_epoll were built (cc -O2 -pthread, see ../shared/peers); PORT: the first port.
# NEW_ARGS, BASE_ARGS: the servers' engine options (default --event-loops 2; NEW_ARGS= runs the library's default).
# WARMUP=S: an uncounted echo_load run of S seconds on each fresh server first (the .NET servers' JIT tiering).
NEWT=$1 BASET=$2 R=$3 M=$4 PEERS=${PEERS:-/tmp/peers}
NEW_ARGS=${NEW_ARGS---event-loops 2} BASE_ARGS=${BASE_ARGS---event-loops 2}
DLL=performance/EchoServer/bin/Release/net10.0/NetCoreServer.Performance.EchoServer.dll
port=${PORT:-18500}
run() { # run KIND PORT
  case $1 in
    new) dotnet $NEWT/$DLL --protocol tcp -p $2 $NEW_ARGS --lifetime $((10 + ${WARMUP:-0})) >/dev/null 2>&1 & ;;
    base) dotnet $BASET/$DLL --protocol tcp -p $2 $BASE_ARGS --lifetime $((10 + ${WARMUP:-0})) >/dev/null 2>&1 & ;;
    c) $PEERS/echo_epoll -p $2 -t 2 -z $((8 + ${WARMUP:-0})) >/dev/null 2>&1 & ;;
  esac
  local sp=$!; sleep 1.5
  (( ${WARMUP:-0} > 0 )) && $PEERS/echo_load -h 127.0.0.1 -p $2 -c 100 -m $M -s 32 -z $WARMUP > /dev/null
  local before; before=$(awk '{ print $14 + $15 }' /proc/$sp/stat)
  local rate; rate=$($PEERS/echo_load -h 127.0.0.1 -p $2 -c 100 -m $M -s 32 -z 4 | python3 -c 'import json,sys; print(int(json.load(sys.stdin)["msg_per_s"]))')
  local after; after=$(awk '{ print $14 + $15 }' /proc/$sp/stat)
  echo "$rate $(( (after - before) * 1000000000 / $(getconf CLK_TCK) / (rate * 4 > 0 ? rate * 4 : 1) ))"
  wait $sp
}
kinds=(new base c)
for ((r = 0; r < R; r++)); do
  declare -A v
  for ((k = 0; k < 3; k++)); do
    kind=${kinds[$(( (k + r) % 3 ))]}
    v[$kind]=$(run $kind $((port++)))
  done
  python3 -c "(n,nc),(b,bc),(c,cc)=[map(int, x.split()) for x in ('${v[new]}','${v[base]}','${v[c]}')]; print(f'round {$r+1}: new {n/1e3:.0f}K base {b/1e3:.0f}K C {c/1e3:.0f}K new/C {n/c:.2f} new/base {n/b:.2f} base/C {b/c:.2f}  cpu/msg ns new {nc} base {bc} C {cc}')"
done
