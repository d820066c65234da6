#!/bin/bash
# Makes header variants under /root/v/<name>/policies and builds bench_<name> for each.
set -u
root=$(pwd)
mkdir -p /root/v
mk() {  # name, python patch applied to the copy
  local name=$1 patch=$2
  rm -rf /root/v/$name && mkdir -p /root/v/$name && cp -r $root/policies /root/v/$name/
  (cd /root/v/$name && python3 -c "$patch") || { echo "patch $name failed"; return 1; }
}
sub() { echo "import sys
p='policies/$1'; s=open(p).read(); a='''$2'''; b='''$3'''
assert a in s, (p, a); open(p,'w').write(s.replace(a,b))"; }
mk base "pass"
mk nolb "$(sub cuda_chained/scan_kernels.cuh 'const bool lane0 = cuda::lane_id() == 0;' 'const bool lane0 = cuda::lane_id() == 0; if (tile < 0xffffffffu) return {HasInit, init};')"
mk k1 "$(sub cuda_chained/tuning.cuh 'lookback_items = 2;' 'lookback_items = 1;')"
mk k4 "$(sub cuda_chained/tuning.cuh 'lookback_items = 2;' 'lookback_items = 4;')"
mk t8 "$(sub cuda_chained/tuning.cuh 'sizeof(T) <= 4 ? 32 : sizeof(T) <= 8 ? 16 :' 'sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 8 :')
$(sub cuda_chained/tuning.cuh 'sizeof(T) <= 8 ? 12 : 6;' 'sizeof(T) <= 8 ? 16 : 6;')"
mk rnc "$(sub cuda_common/tile_io.cuh 'detail::unpack_unit(units[lane + warp_threads * j], items + j * K);' 'detail::unpack_unit(__ldg(&units[lane + warp_threads * j]), items + j * K);')"
mk ri32 "$(sub cuda_chained/tuning.cuh 'int items = sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 8 :' 'int items = sizeof(T) <= 4 ? 32 : sizeof(T) <= 8 ? 16 :')"
mk b10 "$(sub cuda_chained/tuning.cuh 'sizeof(T) <= 8 ? 12 : 6;' 'sizeof(T) <= 4 ? 12 : 10;')"
mk t32k1 "$(sub cuda_chained/tuning.cuh 'scan_threads = 128;' 'scan_threads = 256;')
$(sub cuda_chained/tuning.cuh 'sizeof(T) <= 8 ? 12 : 6;' 'sizeof(T) <= 8 ? 6 : 3;')
$(sub cuda_chained/tuning.cuh 'lookback_items = 2;' 'lookback_items = 1;')"
mk t32k2 "$(sub cuda_chained/tuning.cuh 'scan_threads = 128;' 'scan_threads = 256;')
$(sub cuda_chained/tuning.cuh 'sizeof(T) <= 8 ? 12 : 6;' 'sizeof(T) <= 8 ? 6 : 3;')"
mk k1bo "$(sub cuda_chained/tuning.cuh 'lookback_items = 2;' 'lookback_items = 1;')
$(sub cuda_chained/tuning.cuh 'backoff_min_ns = 16;' 'backoff_min_ns = 64;')
$(sub cuda_chained/tuning.cuh 'backoff_max_ns = 128;' 'backoff_max_ns = 512;')"
mk k1bs "$(sub cuda_chained/tuning.cuh 'lookback_items = 2;' 'lookback_items = 1;')
$(sub cuda_chained/tuning.cuh 'backoff_min_ns = 16;' 'backoff_min_ns = 8;')
$(sub cuda_chained/tuning.cuh 'backoff_max_ns = 128;' 'backoff_max_ns = 32;')"
mk trace "$(sub cuda_chained/tuning.cuh 'lookback_items = 2;' 'lookback_items = 1;')
exec(open('$root/.exp/trace_patch.py').read())"
mk trace32 "$(sub cuda_chained/tuning.cuh 'scan_threads = 128;' 'scan_threads = 256;')
$(sub cuda_chained/tuning.cuh 'sizeof(T) <= 8 ? 12 : 6;' 'sizeof(T) <= 8 ? 6 : 3;')
$(sub cuda_chained/tuning.cuh 'lookback_items = 2;' 'lookback_items = 1;')
exec(open('$root/.exp/trace_patch.py').read())"
mk t32t128 "$(sub cuda_chained/tuning.cuh 'sizeof(T) <= 4 ? 32 : sizeof(T) <= 8 ? 16 :' 'sizeof(T) <= 4 ? 64 : sizeof(T) <= 8 ? 32 :')
$(sub cuda_chained/tuning.cuh 'sizeof(T) <= 8 ? 12 : 6;' 'sizeof(T) <= 8 ? 6 : 3;')
$(sub cuda_chained/tuning.cuh 'lookback_items = 2;' 'lookback_items = 1;')"
mk oldtree "import subprocess; subprocess.run(['patch', '-R', '-p1', '-i', '$root/.exp/tree_fix.diff'], check=True)"
mk det5 "$(sub cuda_chained/scan_kernels.cuh '__launch_bounds__(tuning<A>::scan_threads, tuning<A>::scan_min_blocks_per_sm)' '__launch_bounds__(tuning<A>::scan_threads, Deterministic && sizeof(A) > 4 ? 5 : tuning<A>::scan_min_blocks_per_sm)')"
for v in ${VARIANTS-base nolb k1 k4 t8 b10 rnc ri32 t32k1 t32k2 k1bo k1bs trace}; do
  ( nvcc -std=c++20 -O3 -arch=sm_90 -Xcompiler -fopenmp -Xptxas -v -I include -I /root/v/$v/policies -I .exp/gen \
      -DVARIANT="\"$v\"" $([ ${v#trace} != $v ] && echo -DPSCAN_TRACE) .exp/bench.cu lib/*.cu -lgomp -o /root/v/bench_$v > /root/v/build_$v.log 2>&1 \
      || echo "build $v FAILED" ) &
done
wait
