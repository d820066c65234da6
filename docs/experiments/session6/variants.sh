#!/bin/bash
# Session 6: the cluster kernel (base) against 2515276 (old, exported to .exp/old/policies) and
# 32 KiB cluster tiles (c2x), built into bench_<name>. Run from the repository root on the GPU
# machine, on a checkout of fc93359 (later, tuning's cluster_items became register_items).
source docs/experiments/variants_lib.sh
mk base "pass"
mk old "pass" $root/.exp/old
mk c2x "$(sub cuda_chained/tuning.cuh 'cluster_items = single_block_items;' 'cluster_items = 2 * single_block_items;')"
VARIANTS="base old c2x" build_variants docs/experiments/session3/bench.cu
