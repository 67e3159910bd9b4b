#!/usr/bin/env bash
# watchdog-onoff.sh OUT ROUNDS [A B]: echo_load -c 100 -m 1 -s 32 -z 4 against this folder's server (2 loops, no
# sleepers) with HandoffThreshold A and B (default: "default" = 1 ms, and "off"), alternating. PEERS as echo-rotate.sh.
OUT=$1 R=$2 A=${3:-default} B=${4:-off} PEERS=${PEERS:-/tmp/peers}; port=${PORT:-19000}
run() { dotnet $OUT/safety.dll server $2 2 $1 8 >/dev/null 2>&1 & local sp=$!; sleep 1.5
  $PEERS/echo_load -h 127.0.0.1 -p $2 -c 100 -m 1 -s 32 -z 4 | python3 -c 'import json,sys; print(int(json.load(sys.stdin)["msg_per_s"]))'; wait $sp; }
for ((r = 1; r <= R; r++)); do
  if ((r % 2)); then a=$(run $A $((port++))); b=$(run $B $((port++))); else b=$(run $B $((port++))); a=$(run $A $((port++))); fi
  python3 -c "print(f'round $r: $A {$a/1e3:.0f}K $B {$b/1e3:.0f}K ratio {$a/$b:.2f}')"
done
