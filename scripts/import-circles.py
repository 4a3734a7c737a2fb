#!/usr/bin/env python3
"""Lists the import circles among the TypeScript files under ROOT/src (static, re-exports and dynamic imports): python3 scripts/import-circles.py [ROOT]."""
import os,re,sys
root=sys.argv[1] if len(sys.argv) > 1 else '.'
g={}
for d,_,fs in os.walk(root+'/src'):
    for f in fs:
        if not f.endswith('.ts'): continue
        p=os.path.join(d,f); s=open(p).read()
        deps=set()
        for m in re.finditer(r"(?:(?:import|export)[^;]*?from\s+|import\(\s*)'(\.[^']+)'",s,re.S):
            t=os.path.normpath(os.path.join(d,m.group(1))).replace('.js','.ts')
            if os.path.exists(t): deps.add(t)
        g[p]=deps
# Tarjan SCC
idx={};low={};st=[];on=set();out=[];c=[0]
sys.setrecursionlimit(10000)
def sc(v):
    idx[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
    for w in g.get(v,()):
        if w not in idx: sc(w);low[v]=min(low[v],low[w])
        elif w in on: low[v]=min(low[v],idx[w])
    if low[v]==idx[v]:
        comp=[]
        while True:
            w=st.pop();on.discard(w);comp.append(w)
            if w==v:break
        if len(comp)>1: out.append(comp)
for v in list(g):
    if v not in idx: sc(v)
print(len(out),'import circles')
for comp in out: print(sorted(os.path.relpath(x,root) for x in comp))
