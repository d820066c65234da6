#!/bin/bash
# Session 11 variants of the deterministic tree look-back, built into bench_<name>; run from the
# repository root on the GPU machine (`variants.sh build NAMES`, then `variants.sh run NAMES`),
# with the generated pscan/backends.hpp of a CUDA build in .exp/gen/pscan/. Each applies one
# patch of this folder to the policies of commit 6dfc80e:
#   base   unpatched
#   sh     each lane's tree nodes kept in shared memory (5 x 32 values per block) instead of
#          registers: the look-back warp's registers no longer shape the data warps' code at the
#          32-register ceiling (locally: the float kernel re-reads threadIdx.x once, not 8 times,
#          and no longer spills)
#   sh32   sh with 32-bit tree entry indices
#   shpf   sh32 with level l + 1's poll issued before level l's result is looked at (a round of
#          polls took one L2 round trip per level still missing)
#   ph     the tile's carry delivered as soon as its predecessors' nodes are in: a tile that
#          closes a level-0 group (every 32nd) no longer waits for its own aggregate to come
#          back from L2 before its data warps get the carry, and the last tile closes no group;
#          32-bit entry indices (the 8-byte kernels spill 24 bytes)
#   phsh   ph with the nodes in shared memory (no spill)
#   dl     the look-back warp hands the carry to a callback instead of returning it (ph's change
#          to scan_kernels.cuh alone, the tree as in base): the default kernels' code changed
#          with it (int64 / double 2^22-2^24 ran 1-4 % faster in ph / phsh), an A/B of that
#   dlshu1 dl with sh32's shared-memory nodes and the tree's level loops not unrolled (`#pragma
#          unroll 1`): a third less code for the deterministic kernels (float, 8 items: 1408 -> 896
#          instructions, the default's 656). If the deterministic kernel loses ~0.5 us at
#          2^17-2^20 to fetching its larger code cold (the bench flushes L2), this gets it back
#   dllv   dl with the tree's depth a template parameter: 2 levels up to 1024 tiles, 3 up to
#          32768, else 5 (fewer levels: fewer votes and branches per round of polls, fewer
#          registers; dlshu1 showed the look-back warp's instruction path costs time at 2^17-2^20)
# `run` takes TYPES (f32,f64), SIZES and ROUNDS (3) from the environment.
source docs/experiments/variants_lib.sh
names=${2:-base sh sh32 shpf}
apply() { echo "import subprocess; subprocess.run(['patch', '-s', '-p1', '-i', '$root/docs/experiments/session11/$1.diff'], check=True)"; }
case "${1:-}" in
  run)
    for round in $(seq ${ROUNDS:-3}); do
      for v in $names; do
        SIZES=${SIZES:-14,16,17,18,19,20,21,22,24,26,28} TYPES=${TYPES:-f32,f64} $V/bench_$v scan
      done
    done
    exit 0 ;;
esac
rm -rf $V/src_head && mkdir -p $V/src_head && git archive 6dfc80e policies | tar -x -C $V/src_head
for v in $names; do
  if [ $v = base ]; then mk base "pass" $V/src_head; else mk $v "$(apply $v)" $V/src_head; fi
done
VARIANTS="$names" build_variants docs/experiments/session3/bench.cu
