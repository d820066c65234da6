#pragma once
// The algorithms of pscan::distributed over NCCL whose few bytes per rank cross through the
// hosts: the MPI backend's, with the same local policy. reduce returns its value to the host
// anyway; the segmented algorithms and reduce_by_key exchange (total, head) pairs, boundary keys,
// run edges or only their checks through MPI_Allgather, their local work on the GPU as with any
// local policy.

#include <pscan/policies/distributed/nccl/policy.hpp>
#include <pscan/policies/distributed/reduce.hpp>
#include <pscan/policies/distributed/reduce_by_key.hpp>
#include <pscan/policies/distributed/scan_by_offsets.hpp>
#include <pscan/policies/distributed/segmented_reduce.hpp>
#include <pscan/policies/distributed/segmented_scan.hpp>

#include <utility>

namespace pscan::distributed_backend::nccl {

#define PSCAN_NCCL_OVER_MPI(name)                                         \
  template <class Comm, class Local, class... A>                          \
  auto name(const policy<Comm, Local>& p, A&&... args)                    \
      -> decltype(distributed_backend::name(detail::over_mpi(p), std::forward<A>(args)...)) { \
    return distributed_backend::name(detail::over_mpi(p), std::forward<A>(args)...);      \
  }

PSCAN_NCCL_OVER_MPI(reduce)
PSCAN_NCCL_OVER_MPI(segmented_inclusive_scan)
PSCAN_NCCL_OVER_MPI(segmented_exclusive_scan)
PSCAN_NCCL_OVER_MPI(inclusive_scan_by_key)
PSCAN_NCCL_OVER_MPI(exclusive_scan_by_key)
PSCAN_NCCL_OVER_MPI(segmented_reduce)
PSCAN_NCCL_OVER_MPI(inclusive_scan_by_offsets)
PSCAN_NCCL_OVER_MPI(exclusive_scan_by_offsets)
PSCAN_NCCL_OVER_MPI(reduce_by_key)
PSCAN_NCCL_OVER_MPI(reduce_by_key_into)

#undef PSCAN_NCCL_OVER_MPI

}  // namespace pscan::distributed_backend::nccl
