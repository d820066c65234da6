#!/bin/bash
# Session 10, run 7 (H200): the tree look-back as a call (__noinline__), so that its register
# needs no longer shape the allocation of the data warps' code in the deterministic kernel (run 5:
# at 32 registers that code re-reads threadIdx.x five more times per warp and tile than the
# default kernel's). The callee spills (88 bytes for float, 212 for double, ptxas). Run from the
# repository root on the GPU machine, with .exp/gen/pscan/ from a CUDA build.
#   base    this tree's policies
#   noinl   tree_lookback declared __noinline__
source docs/experiments/variants_lib.sh
mk base "pass"
mk noinl "$(sub cuda_chained/lookback_tree.cuh '__device__ bool tree_lookback(' \
  '__device__ __noinline__ bool tree_lookback(')"
VARIANTS="base noinl" build_variants docs/experiments/session3/bench.cu
for round in 1 2; do
  for v in base noinl; do SIZES=16,18,20,22,24,26,28 TYPES=f32,f64 $V/bench_$v scan; done
done
