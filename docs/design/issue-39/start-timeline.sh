#!/usr/bin/env bash
# start-timeline.sh DLL CLIENTS SECONDS [ENV=VALUE...]: every 0.5 s of a TcpEchoClient -c CLIENTS -m 1000 -s 32 run, the
# messages the server has received so far (kmsgs, from ss bytes_received / 32) and its CPU ticks by thread group:
# "Nk:total|loops|watchdog (lowest-tid NetCoreServer thread)|tiering|thread pool|other/NetCoreServer threads".
# Pipe it into start-series.py for the CPU per message of each half second.
DLL=$1 C=$2 Z=$3; shift 3
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
f=${TMPDIR:-/tmp}/fifo.$$; rm -f $f; mkfifo $f; exec {k}<> $f
env "$@" dotnet $DLL -p $PORT < $f > ${TMPDIR:-/tmp}/srv.$$.log 2>&1 &
sp=$!; for i in $(seq 200); do grep -q "starting...Done" ${TMPDIR:-/tmp}/srv.$$.log && break; sleep 0.05; done
snap() {
  PORT=$PORT python3 - $sp <<'PY'
import os, sys
pid = sys.argv[1]; g = {'tot': 0, 'loops': 0, 'wd': 0, 'tier': 0, 'tp': 0, 'other': 0}; ncs = []
with open(f'/proc/{pid}/stat') as fh: s = fh.read().rsplit(')', 1)[1].split(); g['tot'] = int(s[11]) + int(s[12])
for t in os.listdir(f'/proc/{pid}/task'):
    try:
        comm = open(f'/proc/{pid}/task/{t}/comm').read().strip(); s = open(f'/proc/{pid}/task/{t}/stat').read().rsplit(')', 1)[1].split()
    except OSError: continue
    v = int(s[11]) + int(s[12])
    if comm.startswith('NetCoreServer'): ncs.append((int(t), v))
    elif 'Tiered' in comm: g['tier'] += v
    elif 'TP ' in comm or 'Sockets' in comm or 'IO' in comm: g['tp'] += v
    else: g['other'] += v
ncs.sort()
if ncs: g['wd'] = ncs[0][1]; g['loops'] = sum(v for _, v in ncs[1:])
import subprocess, re, os
out = subprocess.run(['ss', '-tinH', 'state', 'established', f"( sport = :{os.environ['PORT']} )"], capture_output=True, text=True).stdout
g['kb'] = sum(int(x) for x in re.findall(r'bytes_received:(\d+)', out)) // 32000
print(f"{g['kb']}k:{g['tot']}|{g['loops']}|{g['wd']}|{g['tier']}|{g['tp']}|{g['other']}/{len(ncs)}", end=' ')
PY
}
echo -n "ready: "; snap; echo
timeout 60 dotnet /tmp/ncs-compare/ncs-TcpEchoClient/bin/Release/net10.0/TcpEchoClient.dll -a 127.0.0.1 -p $PORT -c $C -m 1000 -s 32 -z $Z > ${TMPDIR:-/tmp}/cl.$$.out 2>&1 &
cp=$!
while kill -0 $cp 2>/dev/null; do snap; sleep 0.5; done; echo
echo -n "end: "; snap; echo " msgs=$(grep "Total messages" ${TMPDIR:-/tmp}/cl.$$.out | grep -o '[0-9]*' | head -1)"
exec {k}>&-; sleep 0.3; kill $sp 2>/dev/null; wait $sp 2>/dev/null
rm -f $f ${TMPDIR:-/tmp}/srv.$$.log ${TMPDIR:-/tmp}/cl.$$.out
