#!/bin/bash
# Session 10 variants of the one-launch reduce, built into bench_<name>; run from the repository
# root on the GPU machine (`variants.sh build`, then `variants.sh run` on a quiet GPU), with the
# generated pscan/backends.hpp of a CUDA build in .exp/gen/pscan/.
#   base   this tree's policies: one wave of blocks (every resident block of the GPU), each
#          reducing one fixed contiguous share
#   sub2   sub4   sub8: 2, 4, 8 waves' worth of blocks, same fixed shares (smaller): blocks
#          that finish early are replaced, so a slow SM holds up less of the input
#   it32   base with 128 bytes per thread per step for 4-byte types (32 items) instead of 64
#   head   the policies of commit REV (`variants.sh build REV`, REV = 00e451f), for an A/B of the
#          scans (`variants.sh scans`) against commit 962bdf7, whose tile_io shared its partial-
#          segment loops through one helper taking a lambda: that changed the chained kernels'
#          code (the deterministic float kernel spilled 4 bytes) and was reverted (run 1, H100)
source docs/experiments/variants_lib.sh
waves() { sub cuda_common/tile_reduce.cuh \
  'std::max(1, max_active_blocks_per_sm(kernel, BLOCK_THREADS));' \
  "std::max(1, max_active_blocks_per_sm(kernel, BLOCK_THREADS)) * $1;"; }
names="base sub2 sub4 sub8 it32 head"
case "${1:-}" in
  run)
    for round in 1 2; do
      for v in base sub2 sub4 sub8 it32; do
        SIZES=16,20,22,24,26,28 TYPES=i32,i64,f32,f64 $V/bench_$v reduce
      done
    done
    exit 0 ;;
  scans)
    for round in 1 2; do
      for v in base head; do SIZES=14,16,18,20,22,24,26,28 TYPES=i32,i64,f32,f64 $V/bench_$v scan; done
    done
    exit 0 ;;
esac
rm -rf $V/src_head && mkdir -p $V/src_head && git archive "${2:?variants.sh build REV}" policies | tar -x -C $V/src_head
mk head "pass" $V/src_head
mk base "pass"
mk sub2 "$(waves 2)"
mk sub4 "$(waves 4)"
mk sub8 "$(waves 8)"
mk it32 "$(sub cuda_chained/tuning.cuh 'static constexpr int items = sizeof(T) <= 4 ? 16' \
  'static constexpr int items = sizeof(T) <= 4 ? 32')"
VARIANTS="$names" build_variants docs/experiments/session3/bench.cu
