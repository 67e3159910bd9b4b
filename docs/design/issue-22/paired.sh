#!/usr/bin/env bash
# Paired rounds of the suite for two builds: OLD and NEW are repository folders, each with its performance programs
# built in Release. Rounds alternate which build goes first. Prints one TSV line per row and round, then medians.
# Usage: paired.sh OLD NEW ROUNDS OUTDIR [suite options...]   e.g. paired.sh /old /new 3 /tmp/p --protocol tcp -c 100
set -euo pipefail
old=$1 new=$2 rounds=$3 out=$4; shift 4
mkdir -p "$out"
run() { # run LABEL REPO ROUND
    local dir="$out/$1-$3"
    dotnet "$2/performance/Suite/bin/Release/net10.0/NetCoreServer.Performance.Suite.dll" --out "$dir" "$@" >"$dir.log" 2>&1 || true
}
for ((r = 1; r <= rounds; r++)); do
    echo "round $r $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)" >&2
    if ((r % 2)); then run old "$old" "$r" "${@}"; run new "$new" "$r" "${@}"
    else run new "$new" "$r" "${@}"; run old "$old" "$r" "${@}"; fi
done
python3 - "$out" "$rounds" <<'PY'
import json, sys, statistics as st
out, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
for label in ('old', 'new'):
    for r in range(1, rounds + 1):
        try: data = json.load(open(f'{out}/{label}-{r}/suite.json'))
        except Exception: continue
        for row in data['rows']:
            if row.get('server') != 'ours': continue
            key = f"{row['benchmark']} {row['protocol']} x{row['clients']}"
            rows.setdefault(key, {}).setdefault(label, {})[r] = (row['msg_per_s'], row.get('server_cpu_seconds') or 0, row.get('allocated_bytes_per_message'))
print('| row | old msg/s (median) | new msg/s (median) | new/old per round | median ratio | msg per CPU-s new/old (median) | alloc B/msg old, new |')
print('|---|---:|---:|---|---:|---:|---|')
for key, v in rows.items():
    o, n = v.get('old', {}), v.get('new', {})
    common = sorted(set(o) & set(n))
    if not common: continue
    ratios = [n[r][0] / o[r][0] for r in common]
    cpu = [(n[r][0] / n[r][1]) / (o[r][0] / o[r][1]) for r in common if n[r][1] and o[r][1]]
    fmt = lambda x: f'{x/1e6:.2f}M' if x >= 1e6 else f'{x/1e3:.0f}K'
    print(f"| {key} | {fmt(st.median(o[r][0] for r in common))} | {fmt(st.median(n[r][0] for r in common))} | "
          f"{' '.join(f'{x:.2f}' for x in ratios)} | {st.median(ratios):.2f} | {st.median(cpu):.2f} | "
          f"{st.median([o[r][2] or 0 for r in common]):.2f}, {st.median([n[r][2] or 0 for r in common]):.2f} |")
PY
