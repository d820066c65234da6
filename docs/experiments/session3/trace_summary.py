# Per-tile trace summary (session 5): as session 3's, plus the whole kernel for small inputs and,
# for the deterministic tree, the look-back's end after the newest aggregate by the tile's digit.
import struct, sys
raw=open(sys.argv[1],'rb').read()
n=len(raw)//48
v=struct.unpack('<%dQ'%(6*n), raw)
rows=[list(v[4*i:4*i+4]) for i in range(n)]
polls=[v[4*n+2*i] for i in range(n)]; wins=[v[4*n+2*i+1] for i in range(n)]
t0=min(r[0] for r in rows)
rows=[[x-t0 for x in r] for r in rows]
def pct(xs):
    xs=sorted(xs); L=len(xs)
    if L == 0: return []
    return [round(xs[min(L-1,int(p*L))],2) for p in (0.05,0.25,0.5,0.75,0.95,0.99)]
start=[r[0] for r in rows]; agg=[r[1] for r in rows]; pre=[r[2] for r in rows]; end=[r[3] for r in rows]
span=max(end)-min(start)
print("kernel span us", span/1e3, "tiles", n, "| last start", max(start), "first agg", min(agg), "last end", max(end))
lo,hi=(50000,max(start)-50000) if span > 200000 else (-1, 1 << 62)
idx=[i for i in range(n) if lo<start[i]<hi]
print("pcts 5/25/50/75/95/99 (ns)", "steady state" if span > 200000 else "all tiles")
print("start       ", pct([start[i] for i in idx]))
print("load+reduce ", pct([agg[i]-start[i] for i in idx]))
print("lookback    ", pct([pre[i]-agg[i] for i in idx]))
print("rescan+store", pct([end[i]-pre[i] for i in idx]))
print("lifetime    ", pct([end[i]-start[i] for i in idx]))
rm=[];m=0
for x in agg: m=max(m,x); rm.append(m)
print("runmax(agg)-agg", pct([rm[i]-agg[i] for i in idx]))
print("pre-runmax(agg)", pct([pre[i]-rm[i] for i in idx]))
print("polls", pct([polls[i] for i in idx]))
print("windows/published", pct([wins[i] for i in idx]))
print("ns per poll", pct([(pre[i]-agg[i])/max(1,polls[i]) for i in idx]))
print("pre - pre(prev tile)", pct([pre[i]-pre[i-1] for i in idx if i > 0]))
for name, sel in (("digit 0", lambda i: i % 32 == 0), ("digit 1-15", lambda i: 1 <= i % 32 <= 15),
                  ("digit 16-30", lambda i: 16 <= i % 32 <= 30), ("digit 31", lambda i: i % 32 == 31)):
    print("pre-runmax(agg)", name, pct([pre[i]-rm[i] for i in idx if sel(i)]))
