#!/bin/bash
# Session 5: header variants of the chained scan's tile shapes under $VROOT/<name>/policies.
set -u
root=$(pwd)
V=${VROOT-/root/v}
mkdir -p $V
mk() {  # name, python patch applied to a copy of policies/ (or of .exp/old/policies for "old")
  local name=$1 patch=$2 src=${3-$root}
  rm -rf $V/$name && mkdir -p $V/$name && cp -r $src/policies $V/$name/
  (cd $V/$name && python3 -c "$patch") || { echo "patch $name failed"; return 1; }
}
sub() { echo "import sys
p='policies/$1'; s=open(p).read(); a='''$2'''; b='''$3'''
assert a in s, (p, a); open(p,'w').write(s.replace(a,b))"; }
T=cuda_chained/tuning.cuh
mk base "pass"
mk old "pass" $root/.exp/old
K=cuda_chained/scan_kernels.cuh
mk dlate "$(sub $K '  if (cuda::warp_id() == block::lookback_warp) {
' '  if (cuda::warp_id() == block::lookback_warp) {
    if constexpr (Deterministic) cuda::named_barrier<3, block::threads>::sync();
')
$(sub $K 'state.publish(tile, total, tile_status::aggregate);
' 'state.publish(tile, total, tile_status::aggregate);
    if constexpr (Deterministic) cuda::named_barrier<3, block::threads>::arrive();
')"
mk dbo "$(sub $K 'backoff{cfg::backoff_min_ns, cfg::backoff_max_ns}' 'backoff{Deterministic ? 64u : cfg::backoff_min_ns, Deterministic ? 256u : cfg::backoff_max_ns}')"
for v in ${VARIANTS-base old}; do
  ( nvcc -std=c++20 -O3 -arch=sm_90 -Xcompiler -fopenmp -I include -I $V/$v/policies -I .exp/gen \
      -DVARIANT="\"$v\"" docs/experiments/session5/bench.cu lib/*.cu -lgomp -o $V/bench_$v > $V/build_$v.log 2>&1 \
      || echo "build $v FAILED" ) &
done
wait
