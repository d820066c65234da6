#!/bin/bash
# Session 10, run 6 (H200): the deterministic kernel of 4-byte types at 5 blocks per SM (40
# registers) instead of 6 (32). Nsight Compute (run 5) showed its data warps compiled differently
# from the default kernel's at 32 registers: threadIdx.x re-read (S2R) five more times per warp and
# tile, more short-scoreboard and MIO stalls on the shared-memory scan. Run from the repository
# root on the GPU machine, with .exp/gen/pscan/ from a CUDA build.
#   base   this tree's policies
#   det5   the deterministic chained kernel of types up to 4 bytes at 5 blocks per SM
source docs/experiments/variants_lib.sh
mk base "pass"
mk det5 "$(sub cuda_chained/scan_kernels.cuh '__global__ void __launch_bounds__(chained_block<A, ITEMS>::threads,
                                  tuning<A>::scan_min_blocks_per_sm)' \
  '__global__ void __launch_bounds__(chained_block<A, ITEMS>::threads,
                                  tuning<A>::scan_min_blocks_per_sm - (Deterministic && sizeof(A) <= 4))')"
VARIANTS="base det5" build_variants docs/experiments/session3/bench.cu
for round in 1 2; do
  for v in base det5; do SIZES=16,18,20,22,24,26,28 TYPES=f32 $V/bench_$v scan; done
done
