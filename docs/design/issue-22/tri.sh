#!/usr/bin/env bash
# tri.sh OUT ROUNDS SUITE-OPTIONS...: three Release-built trees (OLD, MAIN, EXP; defaults below) rotated each round, medians of per-round ratios.
out=$1; rounds=$2; shift 2
declare -A T=([old]=${OLD:-/work/wt/server-base} [main]=${MAIN:-/work/main} [exp]=${EXP:-/work/wt/perf-exp})
orders=("old main exp" "main exp old" "exp old main")
mkdir -p $out
for ((r=1;r<=rounds;r++)); do
  for l in ${orders[$((r%3))]}; do
    dotnet ${T[$l]}/performance/Suite/bin/Release/net10.0/NetCoreServer.Performance.Suite.dll --out $out/$l-$r "$@" > $out/$l-$r.log 2>&1
  done
done
python3 - $out $rounds <<'PY'
import json,sys,statistics as st
out,R=sys.argv[1],int(sys.argv[2]); v={}
for l in ('old','main','exp'):
    for r in range(1,R+1):
        try: d=json.load(open(f'{out}/{l}-{r}/suite.json'))
        except: continue
        for row in d['rows']:
            if row.get('server')!='ours': continue
            v.setdefault(f"{row['benchmark']} {row['protocol']} x{row['clients']}",{}).setdefault(l,{})[r]=row['msg_per_s']
for k,x in v.items():
    rs=sorted(set(x['old'])&set(x['main'])&set(x['exp']))
    m=lambda a,b: st.median(x[a][r]/x[b][r] for r in rs)
    print(k,'| medians old %.2fM main %.2fM exp %.2fM | main/old %.2f exp/old %.2f exp/main %.2f'%(st.median(x['old'][r] for r in rs)/1e6,st.median(x['main'][r] for r in rs)/1e6,st.median(x['exp'][r] for r in rs)/1e6,m('main','old'),m('exp','old'),m('exp','main')))
PY
