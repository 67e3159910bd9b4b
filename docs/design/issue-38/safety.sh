#!/usr/bin/env bash
# safety.sh NEW_OUT BASE_OUT ROUNDS: 20 ping-pong clients beside 4 whose server hook sleeps 100 ms per message, 8 s;
# p99 of the 20. NEW_OUT/BASE_OUT: this folder's program built against each tree's NetCoreServer.dll, e.g.
#   dotnet build -c Release -p:LibDll=TREE/source/NetCoreServer/bin/Release/net10.0/NetCoreServer.dll -o OUT
# (check the copied NetCoreServer.dll's checksum: an incremental build may keep the other tree's).
# Rows: new 2 loops +4 sleepers, new 2 loops +0, new thread pool +4, base 2 loops +4; order rotates per round.
# NEW_LOOPS (default 2; "default" sets no option: the library's default engine) is the loops of the new rows.
NEWO=$1 BASEO=$2 R=$3
port=${PORT:-18700}
run() { # run OUT LOOPS SLEEPERS PORT
  dotnet $1/safety.dll server $4 $2 default 11 >/dev/null 2>&1 &
  local sp=$!; sleep 1.5
  dotnet $NEWO/safety.dll client $4 8 $3 20
  wait $sp
}
NL=${NEW_LOOPS:-2}
rows=("$NEWO $NL 4" "$NEWO $NL 0" "$NEWO 0 4" "$BASEO 2 4")
for ((r = 0; r < R; r++)); do
  for ((k = 0; k < 4; k++)); do
    row=${rows[$(( (k + r) % 4 ))]}
    echo "round $((r+1)) [$row] $(run $row $((port++)))"
  done
done
