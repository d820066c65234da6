#!/bin/bash
# Session 8 variants, built into bench_<name>; run from the repository root on the GPU machine,
# in a checkout that has commits 896c061 and ebe7c1f. base = 896c061's policies; one6 = ebe7c1f's
# (as committed: one look-back call site, the tree keeping node values at 6 blocks per SM);
# the others are patches in this folder:
#   v2     base + tile-state words polled / published two at a time (16-byte relaxed vector access)
#   one    v2 + decoupled_lookback calling lookback_window at one site
#   tree6  base + the tree keeping node values, 6 blocks per SM for 8-byte types
#   all    one + tree6 (measured with v2 written as store_pair / load_pair helpers: the same PTX)
#   nosync base without the cluster kernel's hand-off (diagnostic: wrong results past tile 0)
#   push   one6 + the cluster kernel pushing tile totals into later blocks' DSMEM mailboxes
#   push2x push + clusters of 2x register tiles once the 1x tiles no longer fit one cluster
# Run 1 (H200) timed base v2 one tree6 all nosync, run 2 (H100) base one6 push push2x:
# docs/results/nvidia-h100/runs/session8-variants.txt.
source docs/experiments/variants_lib.sh
here=$root/docs/experiments/session8
export_policies() { rm -rf $V/src_$1 && mkdir -p $V/src_$1 && git archive $2 policies | tar -x -C $V/src_$1; }
# The python patch step mk runs: apply this folder's diffs, in order, to the copied policies.
patches() { echo "import subprocess
for d in '$*'.split(): subprocess.run(['patch', '-s', '-p1', '-i', '$here/' + d + '.diff'], check=True)"; }
export_policies base 896c061
export_policies one6 ebe7c1f
mk base "pass" $V/src_base
mk one6 "pass" $V/src_one6
for v in v2 one tree6 nosync; do mk $v "$(patches $v)" $V/src_base; done
mk all "$(patches one tree6)" $V/src_base
mk push "$(patches push)" $V/src_one6
mk push2x "$(patches push push2x)" $V/src_one6
VARIANTS="base one6 v2 one tree6 all nosync push push2x" build_variants docs/experiments/session3/bench.cu
for v in base v2 one tree6 all; do
  SIZES=14,16,20,22,24,28 TYPES=i32,i64,f32,f64 $V/bench_$v scan
done
for v in base nosync one6 push push2x; do SIZES=12,13,14,15,16,17 TYPES=i32,i64,f64 $V/bench_$v scan; done
