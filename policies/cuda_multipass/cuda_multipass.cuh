#pragma once
// pscan::cuda_multipass: the recursive multi-pass GPU backend (Blelloch 1990; Harris, Sengupta &
// Owens, GPU Gems 3 ch. 39): scans as reduce-then-scan over a recursively scanned array of tile
// totals, reduce in two ordered passes. Asynchronous on the policy's stream (.on(stream));
// scratch from libpscan's per-stream cache (cuda_common/runtime/call_scratch.cuh) or the policy's
// resource (.with(resource)). The algorithms are cuda_common's (algorithms.cuh), run with this
// backend's kernels (policy.cuh).

#include <pscan/policies/cuda_multipass/policy.cuh>
#include <pscan/policies/cuda_multipass/reduce.cuh>
#include <pscan/policies/cuda_multipass/scan.cuh>

#include <pscan/policies/cuda_common/algorithms.cuh>
