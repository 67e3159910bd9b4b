#!/usr/bin/env python3
"""Moves source/NetCoreServer files into layer folders and sets internal namespaces from folders.
Usage: restructure.py REPO [--dry]"""
import os, re, subprocess, sys
repo = sys.argv[1]; dry = '--dry' in sys.argv
src = os.path.join(repo, 'source/NetCoreServer')

ENGINE = {'StreamSessionEngine','ReceivePump','SendPipeline','Backpressure','SendCork','SendWaiters','MulticastCursor',
          'SendQueue','InFlightBatch','MulticastLog','LogChunk','EngineBuffers','Hooks','IStreamSessionHost',
          'IReceiveCompletion','IdleSweep','TimerWheel','TimerEntry','CallbackTimer','EngineOptions','SessionState','ReceiveRelay',
          'CorkStage','IMessageWriter','QueueWriter'}
TRANSPORT = {'IStreamTransport','IoResult','SocketErrors','ITlsInfo','HandshakeGate','TcpSocketOptions'}
PROTOCOL = {'IStreamProtocol','ProtocolFeed','ReceivedOverride','PooledUtf8'}
COMPAT = {'Buffer','Utilities','StringExtensions','DisposableLock','ReadLock','WriteLock'}

def target(rel):
    """rel: path under source/NetCoreServer. Returns new rel path or None to keep."""
    parts = rel.split('/'); top = parts[0]; name = parts[-1]; base = name.split('.')[0]
    if top in ('Engine','Connections','Protocols','Compat'): return None
    if top == 'Transports': return None
    if top == 'Core':
        if base in ENGINE or base.startswith('Timer'): return 'Engine/' + '/'.join(parts[1:])
        if base in TRANSPORT: return 'Transports/' + '/'.join(parts[1:])
        if base in PROTOCOL: return 'Protocols/' + '/'.join(parts[1:])
        return 'Connections/' + '/'.join(parts[1:])
    if top in ('Tcp','Ssl','Uds'):
        if base in TRANSPORT: return 'Transports/' + '/'.join(parts[1:])
        return 'Connections/' + top + '/' + '/'.join(parts[1:])
    if top == 'Http':
        if base in COMPAT or base == 'FileCache': return 'Compat/' + '/'.join(parts[1:])
        return 'Protocols/Http/' + '/'.join(parts[1:])
    if top == 'WebSockets': return 'Protocols/WebSockets/' + '/'.join(parts[1:])
    return None

def folder_ns(rel):
    d = os.path.dirname(rel)
    if d.startswith('Connections'): return 'NetCoreServer.Connections'
    return 'NetCoreServer.' + d.replace('/', '.')

moves = []
for root, dirs, files in os.walk(src):
    dirs[:] = [d for d in dirs if d not in ('bin','obj')]
    for f in files:
        if not f.endswith('.cs'): continue
        rel = os.path.relpath(os.path.join(root, f), src)
        t = target(rel)
        if t: moves.append((rel, t))
for a, b in sorted(moves): print(f'{a} -> {b}')
if dry: sys.exit(0)
for a, b in moves:
    os.makedirs(os.path.join(src, os.path.dirname(b)), exist_ok=True)
    subprocess.check_call(['git', 'mv', os.path.join(src, a), os.path.join(src, b)], cwd=repo)
# namespaces: internal namespaces (NetCoreServer.X) follow the folder; NetCoreServer stays.
renamed = {}
for root, dirs, files in os.walk(src):
    dirs[:] = [d for d in dirs if d not in ('bin','obj')]
    for f in files:
        if not f.endswith('.cs'): continue
        p = os.path.join(root, f); rel = os.path.relpath(p, src)
        s = open(p).read()
        m = re.search(r'^namespace (NetCoreServer\.[\w.]+);', s, re.M)
        if not m: continue
        ns = folder_ns(rel)
        if m.group(1) != ns:
            renamed.setdefault(m.group(1), set()).add(ns)
            s = s[:m.start(1)] + ns + s[m.end(1):]
            open(p, 'w').write(s)
print('namespace changes:', {k: sorted(v) for k, v in renamed.items()})

# usings: each file gets `using N;` for every renamed namespace N whose types it names (its own excepted), and loses
# `using OLD;` where OLD no longer exists.
decl = {}   # type name -> namespace
all_ns = set()
for root, dirs, files in os.walk(src):
    dirs[:] = [d for d in dirs if d not in ('bin','obj')]
    for f in files:
        if not f.endswith('.cs'): continue
        s = open(os.path.join(root, f)).read()
        m = re.search(r'^namespace ([\w.]+);', s, re.M)
        if not m: continue
        all_ns.add(m.group(1))
        for t in re.findall(r'^(?:    )?(?:(?:public|internal|private|protected|static|sealed|abstract|readonly|partial|ref|file)\s+)*(?:class|struct|interface|enum|record(?:\s+struct)?)\s+(\w+)', s, re.M):
            decl.setdefault(t, set()).add(m.group(1))
targets = set().union(*renamed.values()) if renamed else set()
old = set(renamed) - all_ns
def fix(path):
    s = open(path).read()
    m = re.search(r'^namespace ([\w.]+);', s, re.M)
    own = m.group(1) if m else None
    body = re.sub(r'^using [\w.]+;\n', '', s, flags=re.M)
    had_old = any(re.search(rf'^using {re.escape(o)};$', s, re.M) for o in old) or (own in renamed)
    names = set(re.findall(r'\b([A-Z]\w*)\b', body))
    need = set()
    for n in names:
        for ns in decl.get(n, ()):
            if ns in targets and ns != own and not (own or '').startswith(ns + '.'):
                need.add(ns)
    lines = s.split('\n')
    out = [l for l in lines if not any(l == f'using {o};' for o in old)]
    existing = {l[6:-1] for l in out if l.startswith('using ') and l.endswith(';') and '=' not in l}
    add = sorted(n for n in need if n not in existing)
    if not add and len(out) == len(lines): return False
    # each new using goes before the first using that sorts after it (System ones first), else after the last; the
    # others keep their order
    key = lambda ns: (not ns.startswith('System'), ns)
    for n in add:
        idx = [i for i, l in enumerate(out) if l.startswith('using ') and l.endswith(';') and '=' not in l and not l.startswith('using static')]
        after = [i for i in idx if key(out[i][6:-1]) > key(n)]
        pos = after[0] if after else (idx[-1] + 1 if idx else 0)
        out.insert(pos, f'using {n};')
    open(path, 'w').write('\n'.join(out))
    return True
changed = 0
for top in ('source', 'tests/NetCoreServer.Tests', 'tests/NetCoreServer.Udp.Tests', 'performance/Benchmarks'):
    for root, dirs, files in os.walk(os.path.join(repo, top)):
        dirs[:] = [d for d in dirs if d not in ('bin','obj','node_modules')]
        for f in files:
            if f.endswith('.cs') and fix(os.path.join(root, f)): changed += 1
print('files with usings changed:', changed)
