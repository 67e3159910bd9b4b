#!/usr/bin/env python3
"""Compares servers against the neutral C load peers (../shared/peers), alternating them round by round.

Usage: peer-compare.py KIND SECONDS ROUNDS NAME=COMMAND ...
  KIND: echo (100 clients, 1000 in flight), echo1 (1 client), pingpong (100 clients, 1 in flight), mcast (100 receivers),
        udp (100 UDP clients, 10 datagrams in flight each, from performance/udp-load/udp_echo_load.c; lost ones counted)
  COMMAND: a server command line with {port} (and {path} for a Unix socket, with UDS=1 in the environment).
Per run it prints msg/s from the load client, the server's CPU (from /proc, over the load window after 1 s), messages
per CPU-second, context switches per message (all the server's threads, from /proc), allocated bytes, thread-pool work
items per message and Gen0 collections (from a .NET server's --stats lines), peak RSS and,
for mcast, the slowest client's bytes over the fastest's; then the medians. Servers run with DOTNET_gcServer=0.
PEERS (default ../shared/peers next to the repository) holds the C sources; they are built into a temporary folder.
"""
import json, os, signal, subprocess, sys, tempfile, threading, time, statistics
if len(sys.argv) < 5 or sys.argv[1] in ('-h', '-?', '--help'):
    print(__doc__)
    sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ('-h', '-?', '--help') else 2)
PEERS = os.environ.get('PEERS', os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../shared/peers'))
P = tempfile.mkdtemp(prefix='peer-compare-')
for name in ('echo_load', 'mcast_load'):
    subprocess.run(['cc', '-O2', '-pthread', '-o', f'{P}/{name}', f'{PEERS}/{name}.c'], check=True)
# mcast_load with one more output line: the bytes of the slowest and the fastest client (fairness).
source = open(f'{PEERS}/mcast_load.c').read()
source = source.replace('uint64_t total = 0, errors = 0;', 'uint64_t total = 0, errors = 0; uint64_t *per = calloc(clients, sizeof(uint64_t));')
source = source.replace('if (r > 0) total += r;', 'if (r > 0) { total += r; per[evs[k].data.u32] += r; }')
source = source.replace('    return errors ? 1 : 0;', """    uint64_t mn = per[0], mx = per[0];
    for (int i = 1; i < clients; i++) { if (per[i] < mn) mn = per[i]; if (per[i] > mx) mx = per[i]; }
    printf("{\\"per_client_min\\":%llu,\\"per_client_max\\":%llu}\\n", (unsigned long long)mn, (unsigned long long)mx);
    return errors ? 1 : 0;""")
open(f'{P}/mcast_load_pc.c', 'w').write(source)
subprocess.run(['cc', '-O2', '-pthread', '-o', f'{P}/mcast_load_pc', f'{P}/mcast_load_pc.c'], check=True)
subprocess.run(['cc', '-O2', '-o', f'{P}/udp_echo_load', os.path.join(os.path.dirname(os.path.abspath(__file__)), '../udp-load/udp_echo_load.c')], check=True)
kind, secs, rounds = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
uds = os.environ.get('UDS') == '1'
servers = [a.split('=', 1) for a in sys.argv[4:]]
def cpu_of(pid):
    f = open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')
def cs_of(pid):
    # Voluntary and involuntary context switches of the server's live threads (a thread that exited is not counted).
    total = 0
    for t in os.listdir(f'/proc/{pid}/task'):
        try:
            for l in open(f'/proc/{pid}/task/{t}/status'):
                if l.startswith(('voluntary_ctxt_switches', 'nonvoluntary_ctxt_switches')): total += int(l.split()[1])
        except OSError: pass
    return total
def rss_of(pid):
    for l in open(f'/proc/{pid}/status'):
        if l.startswith('VmRSS'): return int(l.split()[1]) / 1024
    return 0
def run(cmd, port):
    path = f'/tmp/perfb-{port}.sock'
    if os.path.exists(path): os.unlink(path)
    env = dict(os.environ, DOTNET_gcServer='0')
    srv = subprocess.Popen(cmd.format(port=port, path=path), shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, preexec_fn=os.setsid)
    stats = []
    # Wait for the server's "listening" (ours) or "ready" (the C references) line, at most 20 s.
    t0 = time.time()
    while time.time() - t0 < 20:
        line = srv.stdout.readline()
        if 'listening' in line or 'ready' in line: break
    time.sleep(0.3)
    target = ['-u', path] if uds else ['-h', '127.0.0.1', '-p', str(port)]
    if kind == 'mcast': load = [f'{P}/mcast_load_pc'] + target + ['-c', '100', '-s', '32', '-z', str(secs)]
    elif kind == 'echo': load = [f'{P}/echo_load'] + target + ['-c', '100', '-m', '1000', '-s', '32', '-z', str(secs)]
    elif kind == 'echo1': load = [f'{P}/echo_load'] + target + ['-c', '1', '-m', '1000', '-s', '32', '-z', str(secs)]
    elif kind == 'udp': load = [f'{P}/udp_echo_load'] + target + ['-c', '100', '-m', '10', '-s', '32', '-z', str(secs)]
    elif kind == 'pingpong': load = [f'{P}/echo_load'] + target + ['-c', '100', '-m', '1', '-s', '32', '-z', str(secs)]
    # The server's pid: the last process of the group the shell started (a single command is exec'd).
    lines = []
    def reader():
        for l in srv.stdout: lines.append((time.time(), l))
    th = threading.Thread(target=reader, daemon=True); th.start()
    pids = subprocess.run(['pgrep', '-g', str(srv.pid)], capture_output=True, text=True).stdout.split()
    pid = int(pids[-1]) if pids else srv.pid
    lp = subprocess.Popen(load, stdout=subprocess.PIPE, text=True)
    time.sleep(1.0)
    c1, s1, t1 = cpu_of(pid), cs_of(pid), time.time()
    rss_max = 0
    while lp.poll() is None:
        try: rss_max = max(rss_max, rss_of(pid))
        except Exception: pass
        time.sleep(0.25)
        if lp.poll() is None: c2, s2, t2 = cpu_of(pid), cs_of(pid), time.time()
    out = lp.stdout.read().strip().splitlines()
    os.killpg(srv.pid, signal.SIGTERM)
    try: srv.wait(10)
    except Exception: os.killpg(srv.pid, signal.SIGKILL)
    res = json.loads(out[0])
    if len(out) > 1: res.update(json.loads(out[1]))
    cpu_rate = (c2 - c1) / (t2 - t1)
    st = [(t, json.loads(l[len('stats '):])) for t, l in lines if l.startswith('stats ')]
    st = [(t, d) for t, d in st if t1 - 0.01 <= t <= t2 + 0.5]
    alloc = items = None
    if len(st) >= 2:
        (ta, a), (tb, b) = st[0], st[-1]
        msgs = res['msg_per_s'] * (tb - ta)
        alloc = (int(b['allocated_bytes']) - int(a['allocated_bytes'])) / msgs
        gen0 = int(b['gen0']) - int(a['gen0'])
        if 'work_items' in a: items = (int(b['work_items']) - int(a['work_items'])) / msgs
    else: gen0 = None
    cs = (s2 - s1) / max(res['msg_per_s'] * (t2 - t1), 1e-9)
    return dict(msgs=res['msg_per_s'], cpu=cpu_rate, per_cpu=res['msg_per_s'] / max(cpu_rate, 1e-9), cs=cs, items=items, alloc=alloc, gen0=gen0, rss=rss_max,
                errors=res.get('errors'), corrupt=res.get('corrupt'), lost=res.get('lost'), mn=res.get('per_client_min'), mx=res.get('per_client_max'))
results = {n: [] for n, _ in servers}
port = 21000 + (os.getpid() % 1000) * 10
for r in range(rounds):
    for n, cmd in servers:
        port += 1
        x = run(cmd, port)
        results[n].append(x)
        fair = f" min/max={x['mn']/max(x['mx'],1):.2f}" if x['mn'] is not None else ''
        a = f"{x['alloc']:.2f}" if x['alloc'] is not None else '-'
        lost = f" lost={x['lost']}" if x['lost'] is not None else ''
        it = f"{x['items']:.3g}" if x['items'] is not None else '-'
        print(f"round {r+1} {n}: {x['msgs']/1e6:.3f}M msg/s cpu={x['cpu']:.2f} cores {x['per_cpu']/1e6:.2f}M msg/cpu-s cs={x['cs']:.3g}/msg items={it}/msg alloc={a} B/msg gen0={x['gen0']} rss_max={x['rss']:.0f}MiB err={x['errors']} corrupt={x['corrupt']}{lost}{fair}", flush=True)
print('medians:')
for n, xs in results.items():
    m = lambda k: statistics.median([x[k] for x in xs if x[k] is not None]) if any(x[k] is not None for x in xs) else float('nan')
    fair = f" min/max={statistics.median([x['mn']/max(x['mx'],1) for x in xs]):.2f}" if xs[0]['mn'] is not None else ''
    print(f"  {n}: {m('msgs')/1e6:.3f}M msg/s, {m('per_cpu')/1e6:.2f}M msg/cpu-s, cpu {m('cpu'):.2f} cores, {m('cs'):.3g} cs/msg, {m('items'):.3g} work items/msg, alloc {m('alloc'):.2f} B/msg, rss_max {m('rss'):.0f} MiB{fair}")
