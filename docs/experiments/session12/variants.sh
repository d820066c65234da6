#!/bin/bash
# Session 12 variants of the chained kernel's block shape, built into bench_<name>; run from the
# repository root on the GPU machine (`variants.sh build NAMES`, then `variants.sh run NAMES`),
# with the generated pscan/backends.hpp of a CUDA build in .exp/gen/pscan/. Each applies one
# patch of this folder to the policies of commit 7addf46:
#   base   unpatched
#   fat    the chained kernel's tile (32 KiB) held by 128 data threads of 256 bytes each, not 256
#          of 128 bytes (small tiles 8 KiB as before: 4 units a thread): 6 blocks of 160 threads
#          per SM may use 64 registers instead of 32, so neither kernel spills or re-reads
#          threadIdx.x (locally: the float kernels at 37-64 registers, no spill; base spills 4
#          bytes in the default float kernel and re-reads threadIdx.x 6-11 times in the
#          deterministic one). The shared-memory swizzle keys on the thread's units when a
#          thread has more than 8 of them.
#   pf     the tree look-back's level l + 1 poll issued before level l's result is looked at
#          (session 11's shpf, on register nodes): two levels per L2 round trip; shpf was slower
#          at 2^16-2^19 on the H100 but faster at 2^28 (double det/default 0.967 -> 0.984), and
#          the H200's shortfall is at 2^24-2^28 (locally: float no spill, double 16 bytes at 3
#          levels, 80 at 5)
#   pfall  every missing level's poll issued before any is looked at: one round trip per round
#          (float 36-44 bytes of spill at 5 levels, double 44-52 at 3, 140 at 5)
#   one512, one1024  an input of up to 512 / 1024 threads of register tiles (64 bytes each: 32 / 64
#          KiB) goes to one block of that many threads, not to a cluster of 256-thread blocks: no
#          hand-off (~0.7 us, eighth round) against one SM pulling the whole input (a 256-thread
#          block of 16 KiB takes ~0.35 us more than one of 4 KiB; c2x's 32 KiB clusters tiles
#          of 128 bytes a thread were 0.5-0.7 us slower, with 8 loads per thread in flight);
#          one1024 does not build (64 KiB of static shared memory, 48 KiB allowed)
#   c4k, c8k  inputs of 2-16 tiles of 16 / 32 bytes a thread (4 / 8 KiB) go to a cluster of
#          such tiles (before the 16 KiB register tiles' cluster): one512 says one SM's share
#          costs ~0.7 us per extra 16 KiB (a 32 KiB block ran as long as a two-block cluster),
#          so smaller shares per SM should shorten the slowest load: int32 2^13-2^14 and int64
#          2^12-2^13 5.2-5.4 -> ~4.9-5.0 us
# `run` takes TYPES (i32,i64,f32,f64), SIZES and ROUNDS (3) from the environment.
source docs/experiments/variants_lib.sh
names=${2:-base fat}
apply() { echo "import subprocess; subprocess.run(['patch', '-s', '-p1', '-i', '$root/docs/experiments/session12/$1.diff'], check=True)"; }
case "${1:-}" in
  run)
    for round in $(seq ${ROUNDS:-3}); do
      for v in $names; do
        SIZES=${SIZES:-16,17,18,19,20,21,22,24,26,28} TYPES=${TYPES:-i32,i64,f32,f64} $V/bench_$v scan
      done
    done
    exit 0 ;;
esac
rm -rf $V/src_head && mkdir -p $V/src_head && git archive 7addf46 policies | tar -x -C $V/src_head
for v in $names; do
  if [ $v = base ]; then mk base "pass" $V/src_head; else mk $v "$(apply $v)" $V/src_head; fi
done
VARIANTS="$names" build_variants docs/experiments/session3/bench.cu
