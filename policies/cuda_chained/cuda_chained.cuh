#pragma once
// pscan::cuda_chained: the single-pass chained GPU backend (Merrill & Garland 2016, decoupled
// look-back; Liu & Aluru, LightScan). Scans read the input once and write the output once in one
// kernel launch; tiles learn their prefix from their predecessors through tile state cached per
// stream (no init kernel, no memset); .deterministic() makes results bitwise reproducible for
// any type and operator. Asynchronous on the policy's stream (.on(stream)); reduce returns a
// host value and syncs. The algorithms are cuda_common's (algorithms.cuh), run with this
// backend's kernels (policy.cuh).

#include <pscan/policies/cuda_chained/offsets_scan.cuh>
#include <pscan/policies/cuda_chained/policy.cuh>
#include <pscan/policies/cuda_chained/reduce.cuh>
#include <pscan/policies/cuda_chained/scan.cuh>

#include <pscan/policies/cuda_common/algorithms.cuh>
