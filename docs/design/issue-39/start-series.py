#!/usr/bin/env python3
# start-series.py: reads start-timeline.sh output; prints per 0.5 s: messages, server ticks, ns of server CPU per message.
import sys, re
for line in sys.stdin:
    pts = re.findall(r'(\d+)k:(\d+)\|(\d+)\|(\d+)\|(\d+)', line)
    if len(pts) < 3: continue
    out = []
    for (k0, t0, l0, w0, j0), (k1, t1, l1, w1, j1) in zip(pts, pts[1:]):
        dk = int(k1) - int(k0); dt = int(t1) - int(t0)
        if dk <= 0: break
        out.append(f"{dk}k/{dt}t/{dt*1e7/(dk*1000):.0f}ns")
    tier = pts[-1][4]
    print(' '.join(out), f'| tiering {tier} ticks')
