#!/usr/bin/env bash
# futex-count.sh DLL: the TcpEchoServer's futex and clock_nanosleep calls and context switches per second (all threads)
# over 3 s, after 2 s of a 6-s TcpEchoClient -c 100 -m 1000 -s 32 run, and the client's msg/s.
DLL=$1
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
f=${TMPDIR:-/tmp}/fifo.$$; rm -f $f; mkfifo $f; exec {k}<> $f
dotnet $DLL -p $PORT < $f > ${TMPDIR:-/tmp}/srv.$$.log 2>&1 &
sp=$!; for i in $(seq 200); do grep -q "starting...Done" ${TMPDIR:-/tmp}/srv.$$.log && break; sleep 0.05; done
timeout 60 dotnet /tmp/ncs-compare/ncs-TcpEchoClient/bin/Release/net10.0/TcpEchoClient.dll -a 127.0.0.1 -p $PORT -c 100 -m 1000 -s 32 -z 6 > ${TMPDIR:-/tmp}/cl.$$.out 2>&1 &
cp=$!; sleep 2
perf stat -x, -e syscalls:sys_enter_futex,syscalls:sys_enter_clock_nanosleep,context-switches -p $sp -o ${TMPDIR:-/tmp}/fx.$$.csv -- sleep 3
wait $cp; rate=$(grep "Message throughput" ${TMPDIR:-/tmp}/cl.$$.out | grep -o '[0-9]*' | head -1)
echo "$(awk -F, '$1 ~ /^[0-9]+$/ {printf "%s %.0f/s  ", $3, $1/3}' ${TMPDIR:-/tmp}/fx.$$.csv) msg/s $rate"
exec {k}>&-; sleep 0.3; kill $sp 2>/dev/null; wait $sp 2>/dev/null
rm -f $f ${TMPDIR:-/tmp}/srv.$$.log ${TMPDIR:-/tmp}/cl.$$.out ${TMPDIR:-/tmp}/fx.$$.csv
