#!/usr/bin/env bash
# watchdog-onoff.sh OUT ROUNDS [A B]: echo_load -c 100 -m M -s 32 -z 4 against this folder's server (2 loops, no
# sleepers) with HandoffThreshold A and B (default: "default" = 1 ms, and "off"), alternating; msg/s and the server's
# CPU per message (utime+stime from /proc over the server's life). M: messages in flight per client (default 1,
# ping-pong). PEERS as echo-rotate.sh.
OUT=$1 R=$2 A=${3:-default} B=${4:-off} PEERS=${PEERS:-/tmp/peers} M=${M:-1}; port=${PORT:-19000}
run() { dotnet $OUT/safety.dll server $2 2 $1 7 >/dev/null 2>&1 & local sp=$!; sleep 1.5
  local rate; rate=$($PEERS/echo_load -h 127.0.0.1 -p $2 -c 100 -m $M -s 32 -z 4 | python3 -c 'import json,sys; print(int(json.load(sys.stdin)["msg_per_s"]))')
  local ticks; ticks=$(awk '{print $14+$15}' /proc/$sp/stat 2>/dev/null); wait $sp; echo "$rate $ticks"; }
for ((r = 1; r <= R; r++)); do
  if ((r % 2)); then a=$(run $A $((port++))); b=$(run $B $((port++))); else b=$(run $B $((port++))); a=$(run $A $((port++))); fi
  python3 -c "
ra,ta=map(int,'$a'.split()); rb,tb=map(int,'$b'.split())
print(f'round $r: $A {ra/1e3:.0f}K $B {rb/1e3:.0f}K ratio {ra/rb:.2f}  cpu ticks/Mmsg $A {ta/ra*1e6/4:.1f} $B {tb/rb*1e6/4:.1f} ratio {(ta/ra)/(tb/rb):.2f}')"
done
