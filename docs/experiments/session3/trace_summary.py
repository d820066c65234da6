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
    return [round(xs[min(L-1,int(p*L))],2) for p in (0.05,0.25,0.5,0.75,0.95,0.99)]
start=[r[0] for r in rows]; agg=[r[1] for r in rows]; pre=[r[2] for r in rows]; end=[r[3] for r in rows]
print("kernel span us", (max(end)-min(start))/1e3, "tiles", n)
lo,hi=50000,max(start)-50000
idx=[i for i in range(n) if lo<start[i]<hi]
print("pcts 5/25/50/75/95/99 (ns), steady state")
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
# time after runmax: polls after runmax? approx
pm=[];m=0
for x in pre: m=max(m,x); pm.append(m)
print("pre - pre(prev tile)", pct([pre[i]-pre[i-1] for i in idx]))
