#!/bin/bash
# Session 7: the look-backs poll again only the entries still empty (sel: this tree, lookback
# windows after the first of 32 * lookback_items tiles, 1 here) against 49f9a34 (base, exported
# to .exp/old/policies); grow2 / grow4: windows after the first of 64 / 128 tiles. Built into
# bench_<name>; run from the repository root on the GPU machine.
source docs/experiments/variants_lib.sh
mk base "pass" $root/.exp/old
mk sel "pass"
mk grow2 "$(sub cuda_chained/tuning.cuh 'int lookback_items = 1;' 'int lookback_items = 2;')"
mk grow4 "$(sub cuda_chained/tuning.cuh 'int lookback_items = 1;' 'int lookback_items = 4;')"
VARIANTS="base sel grow2 grow4" build_variants docs/experiments/session3/bench.cu
