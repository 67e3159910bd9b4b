#!/usr/bin/env bash
# UDP echo, our server against the raw .NET baseline, in alternating rounds with the same load client:
#   performance/udp-load/udp-echo-rounds.sh [-r ROUNDS] [-z SECONDS] [-c CLIENTS] [-m WINDOW] [-l dotnet|c] [-v "raw ours1 ours2"]
# Variants: raw = RawEchoServer (one receive at a time); oursN = EchoServer --udp-receivers N. Load: dotnet = EchoClient,
# c = udp_echo_load (built here with cc). Prints one line per run (msg/s, datagrams lost, server and client CPU in
# cores, the server's receive queue half-way) and the medians, with each variant's median of per-round ratios to raw.
# Talks to 127.0.0.1 only; every process stops by itself (--lifetime, -z). Build Release first (EchoServer, EchoClient,
# RawEchoServer).
set -euo pipefail
rounds=5 seconds=5 clients=100 window=100 load=dotnet variants="raw ours1 ours2"
while getopts "r:z:c:m:l:v:" option; do
    case $option in
        r) rounds=$OPTARG ;; z) seconds=$OPTARG ;; c) clients=$OPTARG ;; m) window=$OPTARG ;; l) load=$OPTARG ;; v) variants=$OPTARG ;;
        *) exit 2 ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
bin() { echo "$here/../$1/bin/Release/net10.0/NetCoreServer.Performance.$1.dll"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ $load == c ]]; then
    cc -O2 -pthread -o "$work/udp_echo_load" "$here/udp_echo_load.c"
fi
ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }

run() { # variant port -> one line
    local variant=$1 port=$2 server
    case $variant in
        raw) server=(dotnet "$(bin RawEchoServer)" --protocol udp) ;;
        ours*) server=(dotnet "$(bin EchoServer)" --protocol udp --udp-receivers "${variant#ours}") ;;
        *) echo "unknown variant $variant" >&2; exit 2 ;;
    esac
    "${server[@]}" -p "$port" --lifetime $((seconds + 60)) > "$work/server.log" 2>&1 &
    local pid=$!
    for _ in $(seq 100); do grep -qi listening "$work/server.log" && break; sleep 0.1; done
    local before; before=$(cpu $pid)
    if [[ $load == c ]]; then
        /usr/bin/time -f "%U %S" -o "$work/client.time" "$work/udp_echo_load" -p "$port" -c "$clients" -m "$window" -s 32 -z "$seconds" > "$work/client.json" &
    else
        /usr/bin/time -f "%U %S" -o "$work/client.time" dotnet "$(bin EchoClient)" --protocol udp -p "$port" -c "$clients" -m "$window" -s 32 -z "$seconds" --json > "$work/client.json" &
    fi
    local client=$!
    sleep $((seconds / 2 + 1))
    local queue; queue=$(ss -uanm "sport = :$port" | awk 'NR == 2 {print $2}')
    wait $client
    local after; after=$(cpu $pid)
    kill -TERM $pid; wait $pid 2> /dev/null || true
    python3 - "$variant" "$seconds" $((after - before)) "$ticks" "${queue:-0}" "$work/client.json" "$work/client.time" << 'PY'
import json, sys
variant, seconds, ticks, tck, queue, result, times = sys.argv[1:8]
j = json.loads([l for l in open(result) if l.startswith('{')][-1])
user, system = open(times).read().split()[-2:]
# The client's CPU includes its start-up (about a second of runtime start for dotnet).
print(f"{variant} msg/s={j['msg_per_s']:.0f} lost={j.get('lost', 0)} server_cores={int(ticks) / int(tck) / float(seconds):.2f} "
      f"client_cores={(float(user) + float(system)) / float(seconds):.2f} server_queue_kib={int(queue) // 1024}")
PY
}

for round in $(seq "$rounds"); do
    for variant in $variants; do
        run "$variant" $((20000 + RANDOM % 20000)) | tee -a "$work/runs"
    done
done
python3 - "$work/runs" << 'PY'
import re, statistics, sys
runs = [(l.split()[0], dict(re.findall(r'([\w/]+)=([\d.]+)', l))) for l in open(sys.argv[1])]
variants = list(dict.fromkeys(v for v, _ in runs))
for v in variants:
    rows = [m for w, m in runs if w == v]
    print(f"{v:6} median msg/s={statistics.median(float(m['msg/s']) for m in rows):.0f} "
          f"lost={statistics.median(float(m['lost']) for m in rows):.0f} "
          f"server_cores={statistics.median(float(m['server_cores']) for m in rows):.2f} runs={len(rows)}")
per_round = len(variants)
if 'raw' in variants:
    for v in variants:
        if v == 'raw':
            continue
        ratios = []
        for start in range(0, len(runs) - per_round + 1, per_round):
            group = dict((w, float(m['msg/s'])) for w, m in runs[start:start + per_round])
            if group.get('raw'):
                ratios.append(group[v] / group['raw'])
        print(f"{v} / raw: median of per-round ratios {statistics.median(ratios):.2f} ({', '.join(f'{r:.2f}' for r in ratios)})")
PY
