#!/usr/bin/env bash
# Our HTTP server against ASP.NET Core's Kestrel over h2c (HTTP/2 with prior knowledge), both driven by h2load (Debian's
# nghttp2-client) on GET /fixed ("Hello, World!"), over loopback; and ours over HTTP/1.1 with the same client (--h1).
#
#   performance/h2c-vs-kestrel.sh                          # 3 rounds, 5 s per run, -c 100 -m 10
#   ROUNDS=5 SECONDS_PER_RUN=10 CONNECTIONS=100 STREAMS=10 performance/h2c-vs-kestrel.sh
#   MODE=h2 performance/h2c-vs-kestrel.sh                  # h2 over TLS by ALPN (ours: --protocol h2), HTTP/1.1 over TLS
#
# Each round runs ours (h2c), Kestrel (h2c), ours (HTTP/1.1), one after the other, each on a freshly started server
# (port 0, read from its "listening" line) after a 2 s warm-up that is not counted. It prints requests/s of every run,
# then per case the median, and the median of the per-round ratio ours/Kestrel (which drifting load disturbs less).
# The machine is shared: read only medians and ratios, never one absolute figure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-3}"
SECONDS_PER_RUN="${SECONDS_PER_RUN:-5}"
CONNECTIONS="${CONNECTIONS:-100}"
STREAMS="${STREAMS:-10}"
MODE="${MODE:-h2c}"
case "$MODE" in
    h2c) OURS_PROTOCOL=http; KESTREL_MODE=h2c; SCHEME=http ;;
    h2) OURS_PROTOCOL=h2; KESTREL_MODE=h2; SCHEME=https ;;
    *) echo "h2c-vs-kestrel.sh: MODE is h2c or h2, not '$MODE'" >&2; exit 2 ;;
esac
OUT="${H2_BENCH_OUT:-$ROOT/artifacts/h2c-vs-kestrel/$MODE}"
mkdir -p "$OUT"

export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1
command -v h2load >/dev/null || { echo "h2c-vs-kestrel.sh: h2load is missing (apt-get install nghttp2-client)" >&2; exit 2; }
dotnet build "$ROOT/performance/EchoServer" -c Release -nologo -clp:ErrorsOnly >/dev/null
dotnet build "$ROOT/performance/KestrelServer" -c Release -nologo -clp:ErrorsOnly >/dev/null
OURS="$ROOT/performance/EchoServer/bin/Release/net10.0/NetCoreServer.Performance.EchoServer"
KESTREL="$ROOT/performance/KestrelServer/bin/Release/net10.0/NetCoreServer.Performance.KestrelServer"
LIFETIME=$((SECONDS_PER_RUN + 40))

# run NAME LOG COMMAND...: starts a server, waits for its port, runs h2load against it, prints requests/s.
run() {
    local name=$1 log=$2 client=$3; shift 3
    "$@" >"$log" 2>&1 &
    local pid=$! port=""
    for _ in $(seq 1 300); do
        port=$(grep -oE 'listening on [0-9.]+:[0-9]+' "$log" 2>/dev/null | grep -oE '[0-9]+$' || true)
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "$name did not start: $(cat "$log")" >&2; kill "$pid"; exit 1; }
    local args=(-c "$CONNECTIONS" -m "$STREAMS")
    [ "$client" = h1 ] && args=(--h1 -c "$CONNECTIONS" -m 1)
    h2load "${args[@]}" -D 2 "$SCHEME://127.0.0.1:$port/fixed" >/dev/null
    h2load "${args[@]}" -D "$SECONDS_PER_RUN" "$SCHEME://127.0.0.1:$port/fixed" >"$OUT/$name.txt"
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
    grep -q " 0 failed, 0 errored" "$OUT/$name.txt" || echo "warning: $name had failures" >&2
    grep -oE 'finished in [0-9.]+s, [0-9.]+ req/s' "$OUT/$name.txt" | grep -oE '[0-9.]+ req/s' | cut -d' ' -f1
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$OUT/results.tsv"
for round in $(seq 1 "$ROUNDS"); do
    ours=$(run "ours-$MODE-$round" "$OUT/ours-$MODE-$round.log" h2 "$OURS" --protocol "$OURS_PROTOCOL" --port 0 --lifetime "$LIFETIME")
    kestrel=$(run "kestrel-$MODE-$round" "$OUT/kestrel-$MODE-$round.log" h2 "$KESTREL" 0 "$KESTREL_MODE" --lifetime "$LIFETIME")
    h1=$(run "ours-h1-$round" "$OUT/ours-h1-$round.log" h1 "$OURS" --protocol "$OURS_PROTOCOL" --port 0 --lifetime "$LIFETIME")
    ratio=$(awk -v a="$ours" -v b="$kestrel" 'BEGIN {printf "%.2f", a / b}')
    printf '%s\t%s\t%s\t%s\n' "$round" "$ours" "$kestrel" "$h1" >>"$OUT/results.tsv"
    echo "round $round: ours $MODE $ours req/s, Kestrel $MODE $kestrel req/s (ours/Kestrel $ratio), ours HTTP/1.1 $h1 req/s"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median ours $MODE:      $(cut -f2 "$OUT/results.tsv" | median) req/s"
echo "median Kestrel $MODE:   $(cut -f3 "$OUT/results.tsv" | median) req/s"
echo "median ours HTTP/1.1: $(cut -f4 "$OUT/results.tsv" | median) req/s"
echo "median of per-round ours/Kestrel: $(awk '{printf "%.3f\n", $2 / $3}' "$OUT/results.tsv" | median)"
