#!/bin/bash
# Session 4: header variants of the warp-specialized chained scan under $VROOT/<name>/policies
# (default /root/v), each built into bench_<name>. Run from the repository root on the GPU machine.
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
mk base "pass"
mk old "pass" $root/.exp/old
mk w224 "$(sub cuda_chained/tuning.cuh 'scan_threads = 256;' 'scan_threads = 224;')"
mk trace "exec(open('$root/.exp/trace_patch.py').read())"
mk k2 "$(sub cuda_chained/tuning.cuh 'lookback_items = 1;' 'lookback_items = 2;')"
mk bo2 "$(sub cuda_chained/tuning.cuh 'backoff_min_ns = 16;' 'backoff_min_ns = 64;')
$(sub cuda_chained/tuning.cuh 'backoff_max_ns = 128;' 'backoff_max_ns = 512;')"
for v in ${VARIANTS-base trace}; do
  ( nvcc -std=c++20 -O3 -arch=sm_90 -Xcompiler -fopenmp -Xptxas -v -I include -I $V/$v/policies -I .exp/gen \
      -DVARIANT="\"$v\"" $([ "${v#trace}" != "$v" ] && echo -DPSCAN_TRACE) .exp/bench.cu lib/*.cu -lgomp -o $V/bench_$v > $V/build_$v.log 2>&1 \
      || echo "build $v FAILED" ) &
done
wait
