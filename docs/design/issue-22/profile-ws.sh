#!/usr/bin/env bash
# profile-ws.sh TREE OUT [PORT]: perf profile of TREE's ws EchoServer (Release build) for 6 s under 100 EchoClient ws clients.
# Read with: perf report -i OUT.data --no-children --sort symbol --stdio -g none; OUT.client.log has the msg/s.
T=$1; OUT=$2; PORT=${3:-18080}
export DOTNET_PerfMapEnabled=${PMAP:-1} DOTNET_EnableWriteXorExecute=0
dotnet $T/performance/EchoServer/bin/Release/net10.0/NetCoreServer.Performance.EchoServer.dll --protocol ws -p $PORT --lifetime 18 > $OUT.server.log 2>&1 &
SP=$!
sleep 2
unset DOTNET_PerfMapEnabled DOTNET_EnableWriteXorExecute
dotnet $T/performance/EchoClient/bin/Release/net10.0/NetCoreServer.Performance.EchoClient.dll --protocol ws -p $PORT -c 100 -z 12 > $OUT.client.log 2>&1 &
CP=$!
sleep 3
perf record -k 1 -F 999 -g -p $SP -o $OUT.data -- sleep 6 2>/dev/null
wait $CP
wait $SP
tail -3 $OUT.client.log
