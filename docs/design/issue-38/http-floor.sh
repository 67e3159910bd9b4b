#!/usr/bin/env bash
# http-floor.sh ROUNDS: GET /fixed under wrk -t1 -c100 against three servers, a fresh one each run, the order rotating
# per round: "floor" (http-floor/: the library's TcpServer answering each request head with EchoServer's bytes, no HTTP
# parsed), "ours" (performance/EchoServer --protocol http, default options) and "kestrel" (performance/KestrelServer).
# Per run: requests/s, the server's CPU per request (utime+stime from /proc) and wrk's (from /usr/bin/time), after a
# 2 s warm-up; per round ours/kestrel and floor/kestrel; then the medians. Needs wrk and a Release build of the
# solution (dotnet build NetCoreServer.sln -c Release); builds http-floor/ into $OUT.
set -euo pipefail
shopt -s inherit_errexit   # a failure inside run's command substitution stops the script
R=${1:-6} SECS=${SECONDS_PER_RUN:-5} PORT=${PORT:-18800}
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
OUT=${OUT:-/tmp/http-floor}
mkdir -p "$OUT"
dotnet build "$ROOT/docs/design/issue-38/http-floor" -c Release -nologo -clp:ErrorsOnly -o "$OUT/bin" > "$OUT/build.log"
PERF=$ROOT/performance
run() { # run KIND PORT -> "req/s server_us wrk_us"
  case $1 in
    floor) dotnet "$OUT/bin/http-floor.dll" "$2" 30 > "$OUT/server.log" 2>&1 & ;;
    ours) dotnet "$PERF/EchoServer/bin/Release/net10.0/NetCoreServer.Performance.EchoServer.dll" --protocol http -a 127.0.0.1 -p "$2" --lifetime 30 > "$OUT/server.log" 2>&1 & ;;
    kestrel) dotnet "$PERF/KestrelServer/bin/Release/net10.0/NetCoreServer.Performance.KestrelServer.dll" "$2" http --address 127.0.0.1 --lifetime 30 > "$OUT/server.log" 2>&1 & ;;
  esac
  local sp=$! i
  for ((i = 0; i < 100; i++)); do grep -qi listening "$OUT/server.log" && break; sleep 0.1; done
  if ! grep -qi listening "$OUT/server.log"; then echo "http-floor.sh: $1 did not start on port $2:" >&2; cat "$OUT/server.log" >&2; kill $sp 2>/dev/null; exit 1; fi
  wrk -t1 -c100 -d2s "http://127.0.0.1:$2/fixed" > /dev/null
  local before after; before=$(awk '{ print $14 + $15 }' /proc/$sp/stat)
  /usr/bin/time -f "%U %S" -o "$OUT/wrk.time" wrk -t1 -c100 -d"${SECS}s" "http://127.0.0.1:$2/fixed" > "$OUT/wrk.out"
  after=$(awk '{ print $14 + $15 }' /proc/$sp/stat)
  kill $sp; wait $sp 2>/dev/null || true
  if grep -q -e Non-2xx -e "Socket errors" "$OUT/wrk.out"; then echo "http-floor.sh: $1 had errors:" >&2; cat "$OUT/wrk.out" >&2; exit 1; fi
  awk -v n="$(awk '/requests in/ { print $1 }' "$OUT/wrk.out")" -v r="$(awk '/^Requests\/sec:/ { print $2 }' "$OUT/wrk.out")" \
      -v d=$((after - before)) -v hz="$(getconf CLK_TCK)" -v w="$(awk '{ print $1 + $2 }' "$OUT/wrk.time")" \
      'BEGIN { printf "%.0f %.2f %.2f", r, d / hz * 1e6 / n, w * 1e6 / n }'
}
kinds=(floor ours kestrel)
: > "$OUT/ratios"
for ((r = 0; r < R; r++)); do
  declare -A v
  for ((k = 0; k < 3; k++)); do
    kind=${kinds[$(( (k + r) % 3 ))]}
    v[$kind]=$(run "$kind" $((PORT++)))
  done
  python3 - "${v[floor]}" "${v[ours]}" "${v[kestrel]}" "$((r + 1))" "$OUT/ratios" <<'PY'
import sys
(f, fs, fw), (o, os_, ow), (k, ks, kw) = [map(float, x.split()) for x in sys.argv[1:4]]
print(f"round {sys.argv[4]}: floor {f/1e3:.0f}K ours {o/1e3:.0f}K kestrel {k/1e3:.0f}K  ours/kestrel {o/k:.2f} floor/kestrel {f/k:.2f} ours/floor {o/f:.2f}"
      f"  server us/req floor {fs:.2f} ours {os_:.2f} kestrel {ks:.2f}  wrk us/req {fw:.2f} {ow:.2f} {kw:.2f}")
open(sys.argv[5], "a").write(f"{o/k} {f/k} {o/f}\n")
PY
done
python3 - "$OUT/ratios" <<'PY'
import sys, statistics as s
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
print("medians: " + "  ".join(f"{n} {s.median(r[i] for r in rows):.2f}" for i, n in enumerate(["ours/kestrel", "floor/kestrel", "ours/floor"])))
PY
