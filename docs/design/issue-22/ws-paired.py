#!/usr/bin/env python3
# Paired rounds: old (base) vs new WS servers, same client (the old build's), alternating order per round.
# Usage: OLD=dir NEW=dir python3 ws-paired.py ROUNDS SECONDS echo/ws/100,echo/ws/1,multicast/ws/100
import subprocess, sys, time, re, json, statistics, os, signal
ROUNDS=int(sys.argv[1]); SECS=int(sys.argv[2]); CASES=sys.argv[3].split(',')
# OLD and NEW: folders holding each build's EchoServer/, MulticastServer/ (and, for OLD, EchoClient/, MulticastClient/)
# output directories, e.g. `dotnet build performance/EchoServer -c Release -o $OLD/EchoServer`.
BIN={'base':os.environ['OLD']+'/','new':os.environ['NEW']+'/'}
ROOT=os.path.dirname(os.path.abspath(__file__))+'/../../..'
CERT=ROOT+'/tools/certificates/server.pfx'
def dll(tree,p): return f'{BIN[tree]}{p}/NetCoreServer.Performance.{p}.dll'
def run(tree, case):
    kind, proto, clients = case.split('/')
    prog = 'EchoServer' if kind=='echo' else 'MulticastServer'
    cprog = 'EchoClient' if kind=='echo' else 'MulticastClient'
    args=['dotnet',dll(tree,prog),'--protocol',proto,'-a','127.0.0.1','-p','0','--lifetime',str(SECS+60),'--stats']
    if proto=='wss': args+=['--cert',CERT]
    if kind=='multicast': args+=['-s','32']
    env=dict(os.environ, DOTNET_gcServer='0')
    srv=subprocess.Popen(args,env=env,stdout=subprocess.PIPE,stderr=subprocess.STDOUT,text=True,cwd=ROOT)
    port=None; first=None
    t0=time.time()
    while time.time()-t0<30:
        line=srv.stdout.readline()
        if line.startswith('stats '): first=json.loads(line[6:])
        m=re.search(r'listening on .*:(\d+)$',line.strip())
        if m:
            port=m.group(1)
            l2=srv.stdout.readline()
            if l2.startswith('stats '): first=json.loads(l2[6:])
            break
    if not port: srv.kill(); return None
    cargs=['dotnet',dll('base',cprog),'--protocol',proto,'-a','127.0.0.1','-p',port,'-c',clients,'-s','32','-z',str(SECS),'--json']
    if kind=='echo': cargs+=['-m','1000']
    out=subprocess.run(cargs,capture_output=True,text=True,timeout=SECS+90,cwd=ROOT)
    srv.send_signal(signal.SIGTERM)
    try: rest,_=srv.communicate(timeout=15)
    except subprocess.TimeoutExpired: srv.kill(); rest,_=srv.communicate()
    js=[l for l in out.stdout.splitlines() if l.startswith('{')]
    if not js: print('client failed', out.stdout[-300:], out.stderr[-300:]); return None
    j=json.loads(js[-1])
    # allocated bytes per message from the server's last stats line
    st=[l for l in rest.splitlines() if l.startswith('stats ')]
    last=json.loads(st[-1][6:]) if st else None
    rate=j.get('msg_per_s') or 0
    msgs=max(1,rate*SECS)
    extra={}
    if first and last:
        extra={'msg_per_cpu_s': msgs/max(1e-9,last['cpu_seconds']-first['cpu_seconds']), 'alloc_per_msg': (last['allocated_bytes']-first['allocated_bytes'])/msgs, 'wi': (last['work_items']-first['work_items'])/msgs*1000}
    return rate, j.get('errors'), extra
res={}
cpu={}
for r in range(ROUNDS):
    for case in CASES:
        order=['base','new'] if r%2==0 else ['new','base']
        for tree in order:
            x=run(tree,case)
            rate=x[0] if x else 0
            res.setdefault((case,tree),[]).append(rate)
            e=x[2] if x else {}
            cpu.setdefault((case,tree),[]).append(e.get('msg_per_cpu_s',0))
            print(f'round {r} {case:22} {tree:5} {rate:12.0f} msg/s {e.get("msg_per_cpu_s",0):12.0f} msg/cpu-s {e.get("alloc_per_msg",0):8.1f} B/msg {e.get("wi",0):7.2f} wi/kmsg errors={x[1] if x else "?"} load={os.getloadavg()[0]:.1f}',flush=True)
print('\nmedians and paired ratios (new/base)')
for case in CASES:
    b=res[(case,'base')]; n=res[(case,'new')]
    ratios=[nn/bb for nn,bb in zip(n,b) if bb]
    cb=cpu[(case,'base')]; cn=cpu[(case,'new')]
    print(f'{case:22} msg/cpu-s base {statistics.median(cb):12.0f} new {statistics.median(cn):12.0f} ratio {statistics.median(cn)/max(1,statistics.median(cb)):.3f} pairs {" ".join(f"{a/b:.2f}" for a,b in zip(cn,cb) if b)}')
    print(f'{case:22} base {statistics.median(b):12.0f}  new {statistics.median(n):12.0f}  ratio of medians {statistics.median(n)/statistics.median(b):.3f}  median paired {statistics.median(ratios):.3f}  pairs {" ".join(f"{x:.2f}" for x in ratios)}')
