#!/bin/bash
# Session 9 variants, built into bench_<name>; run from the repository root on the GPU machine,
# in a checkout that has commits ad8cad6 and 1a8d6e4. `variants.sh lfold` (run 1) or
# `variants.sh near` (run 3):
#   base    ad8cad6's policies (deterministic mode: the radix-32 tree look-back; 1a8d6e4 changes
#           no kernel code)
#   lfold   base + lfold.diff: deterministic mode is the decoupled look-back with every published
#           prefix the left fold of the aggregates; a tile folds the aggregates after the nearest
#           prefix onto it one at a time, and waits for a prefix inside its 32-tile window
#   lfold2  lfold with windows of 64 tiles (2 per lane) in deterministic mode
#   near    base + near.diff: the tree's newest level-1 node (the group just before the tile's)
#           is combined by the tile itself from that group's 32 aggregates instead of polled
source docs/experiments/variants_lib.sh
here=$root/docs/experiments/session9
rm -rf $V/src_base && mkdir -p $V/src_base && git archive ad8cad6 policies | tar -x -C $V/src_base
apply() { echo "import subprocess
subprocess.run(['patch', '-s', '-p1', '-i', '$here/$1.diff'], check=True)"; }
mk base "pass" $V/src_base
case "${1:-lfold}" in
  lfold)
    mk lfold "$(apply lfold)" $V/src_base
    mk lfold2 "$(apply lfold)
$(sub cuda_chained/scan_kernels.cuh 'decoupled_lookback<tuning<A>::lookback_items, Deterministic>' \
  'decoupled_lookback<Deterministic ? 2 : tuning<A>::lookback_items, Deterministic>')" $V/src_base
    VARIANTS="base lfold lfold2" build_variants docs/experiments/session3/bench.cu
    for round in 1 2; do
      for v in base lfold lfold2; do SIZES=14,16,18,20,22,24,26,28 TYPES=f32,f64,i64 $V/bench_$v scan; done
    done ;;
  near)
    mk near "$(apply near)" $V/src_base
    VARIANTS="base near" build_variants docs/experiments/session3/bench.cu
    for round in 1 2 3; do
      for v in base near; do SIZES=14,16,17,18,20,22,24,26,28 TYPES=f32,f64 $V/bench_$v scan; done
    done ;;
esac
