#!/usr/bin/env bash
# profile.sh SIDE [CLIENTS]: a CPU profile and syscall counts of one TcpEchoServer that performance/ncs-compare.sh
# built (SIDE ncs = on NetCoreServer's library, ours = on ours) under NetCoreServer's TcpEchoClient (CLIENTS, 100;
# -m 1000 -s 32 -z 16). After 3 s of warm-up: `perf record -e cpu-clock -g` of the server for 5 s, then `perf stat` of
# its syscalls for 4 s; the client's msg/s over its whole run turns the counts into per-message figures.
# NCS_SCRATCH: the build of ncs-compare.sh (/tmp/ncs-compare); NCS_SRC: the NetCoreServer checkout (for its
# tools/certificates, the working directory); OUT: where perf.data, the reports and outputs go (/tmp/ncs-profile).
set -euo pipefail
SIDE=$1 C=${2:-100}
SCRATCH=${NCS_SCRATCH:-/tmp/ncs-compare} SRC=${NCS_SRC:-/tmp/ncs-src} OUT=${OUT:-/tmp/ncs-profile}
mkdir -p "$OUT"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fifo="$OUT/stdin.fifo"; rm -f "$fifo"; mkfifo "$fifo"; exec {keep}<> "$fifo"   # the server stops when this closes
(cd "$SRC/tools/certificates" && DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 exec dotnet \
    "$SCRATCH/$SIDE-TcpEchoServer/bin/Release/net10.0/TcpEchoServer.dll" -p "$PORT") < "$fifo" > "$OUT/$SIDE-server.log" 2>&1 &
server=$!
for _ in $(seq 1 300); do grep -q "starting...Done" "$OUT/$SIDE-server.log" && break; sleep 0.1; done
rm -f "$fifo"
timeout -k 5 90 dotnet "$SCRATCH/ncs-TcpEchoClient/bin/Release/net10.0/TcpEchoClient.dll" -a 127.0.0.1 -p "$PORT" \
    -c "$C" -m 1000 -s 32 -z 16 > "$OUT/$SIDE-client.out" 2>&1 &
client=$!
sleep 3
perf record -q -e cpu-clock -g -p "$server" -o "$OUT/$SIDE.perf.data" -- sleep 5 > /dev/null 2>&1
perf stat -x, -e 'syscalls:sys_enter_recvfrom,syscalls:sys_enter_recvmsg,syscalls:sys_enter_sendto,syscalls:sys_enter_sendmsg,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_pwait,syscalls:sys_enter_futex,context-switches,cpu-clock' \
    -p "$server" -o "$OUT/$SIDE.stat.csv" -- sleep 4
wait "$client" || true
exec {keep}>&-
for _ in $(seq 1 100); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
kill "$server" 2>/dev/null || true
rate=$(sed -n 's/^Message throughput: \([0-9]*\).*/\1/p' "$OUT/$SIDE-client.out")
echo "$SIDE: ${rate:-0} msg/s over the client's run"
awk -F, -v r="${rate:-0}" '$3 != "" && $1 ~ /^[0-9.]+$/ { printf "  %-36s %12.0f /s  %8.3f per message\n", $3, $1 / 4, (r > 0 ? $1 / 4 / r : 0) }' "$OUT/$SIDE.stat.csv"
perf report -i "$OUT/$SIDE.perf.data" --no-children --sort dso --stdio -g none 2> /dev/null | grep -v '^#' | grep -v '^$' | head -n 12 > "$OUT/$SIDE.dso.txt" || true
perf report -i "$OUT/$SIDE.perf.data" --no-children --sort sym --stdio -g none 2> /dev/null | grep -v '^#' | grep -v '^$' | head -n 40 > "$OUT/$SIDE.sym.txt" || true
echo "  by object:"; sed 's/^/    /' "$OUT/$SIDE.dso.txt"
echo "  top symbols:"; sed 's/^/    /' "$OUT/$SIDE.sym.txt"
