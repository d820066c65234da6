#!/bin/bash
# Session 4: header variants of the warp-specialized chained scan under $VROOT/<name>/policies
# (default /root/v), each built into bench_<name>. Run from the repository root on the GPU machine.
source docs/experiments/variants_lib.sh
mk base "pass"
mk old "pass" $root/.exp/old
mk w224 "$(sub cuda_chained/tuning.cuh 'scan_threads = 256;' 'scan_threads = 224;')"
mk trace "exec(open('$root/.exp/trace_patch.py').read())"
mk k2 "$(sub cuda_chained/tuning.cuh 'lookback_items = 1;' 'lookback_items = 2;')"
mk bo2 "$(sub cuda_chained/tuning.cuh 'backoff_min_ns = 16;' 'backoff_min_ns = 64;')
$(sub cuda_chained/tuning.cuh 'backoff_max_ns = 128;' 'backoff_max_ns = 512;')"
VARIANTS=${VARIANTS-base trace} build_variants .exp/bench.cu -Xptxas -v
