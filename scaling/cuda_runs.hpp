#pragma once
// The GPU part of pscan-scaling (cuda_runs.cu), or its absence.

#include "measure.hpp"

namespace scaling {

// Runs o.policy (cuda_chained or cuda_multipass) over o.type on device memory: distributed, each
// rank on the device its rank on the host picks (with the MPI exchange, ranks share a GPU when
// there are more ranks than GPUs; with NCCL each needs its own), or in this process alone. Throws
// std::runtime_error when this build or machine cannot.
result run_cuda(const options& o, bool distributed, int rank);

}  // namespace scaling
