#!/bin/bash
# Session 5: header variants of the chained scan under $VROOT/<name>/policies (run 5's: the
# deterministic tree), built into bench_<name>. Run from the repository root on the GPU machine.
source docs/experiments/variants_lib.sh
mk base "pass"
mk old "pass" $root/.exp/old
K=cuda_chained/scan_kernels.cuh
mk dlate "$(sub $K '  if (cuda::warp_id() == block::lookback_warp) {
' '  if (cuda::warp_id() == block::lookback_warp) {
    if constexpr (Deterministic) cuda::named_barrier<3, block::threads>::sync();
')
$(sub $K 'state.publish(tile, total, tile_status::aggregate);
' 'state.publish(tile, total, tile_status::aggregate);
    if constexpr (Deterministic) cuda::named_barrier<3, block::threads>::arrive();
')"
mk dbo "$(sub $K 'backoff{cfg::backoff_min_ns, cfg::backoff_max_ns}' 'backoff{Deterministic ? 64u : cfg::backoff_min_ns, Deterministic ? 256u : cfg::backoff_max_ns}')"
VARIANTS=${VARIANTS-base old} build_variants docs/experiments/session3/bench.cu
