#!/bin/bash
# Session 7: the look-backs poll again only the entries still empty (sel: this tree, as committed
# in 517e259) against 49f9a34 (base, exported to .exp/old/policies); grow2 / grow4: sel with a
# first window of 32 tiles and later windows of 64 / 128 (as measured then; the committed code
# uses one window size, tuning's lookback_items). Built into bench_<name>; run from the
# repository root on the GPU machine.
source docs/experiments/variants_lib.sh
first_window_32="$(sub cuda_chained/lookback.cuh 'bool found = lookback_window<K>(state, newest, op, wait, prefix);
  for (newest -= 32 * K;' 'bool found = lookback_window<1>(state, newest, op, wait, prefix);
  for (newest -= 32;')"
mk base "pass" $root/.exp/old
mk sel "pass"
mk grow2 "$first_window_32
$(sub cuda_chained/tuning.cuh 'int lookback_items = 1;' 'int lookback_items = 2;')"
mk grow4 "$first_window_32
$(sub cuda_chained/tuning.cuh 'int lookback_items = 1;' 'int lookback_items = 4;')"
VARIANTS="base sel grow2 grow4" build_variants docs/experiments/session3/bench.cu
