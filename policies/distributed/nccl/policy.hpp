#pragma once
// pscan::distributed's policy over NCCL: the communicator (NCCL between the GPUs, MPI between the
// hosts) and the CUDA policy that does each rank's local work on the communicator's GPU.

#include "communicator.hpp"

#include <distributed/policy.hpp>

#include <pscan/policy.hpp>

#include <type_traits>
#include <utility>

namespace pscan {
namespace distributed_backend::nccl {

// Calls with this policy are collective over the communicator's ranks, as with MPI (every rank
// makes them in the same order, one thread at a time), and queued on the local policy's stream.
template <class Local>
struct policy : collective_policy_base {
  communicator comm;
  Local local;
};

namespace detail {

// The same call over MPI alone: the algorithms whose rank exchange goes through the hosts.
template <class Local>
distributed_backend::policy<Local> over_mpi(const policy<Local>& p) {
  return {{}, p.comm.mpi(), p.local};
}

}  // namespace detail
}  // namespace distributed_backend::nccl

// A policy running every algorithm over the ranks of `comm`, one GPU each, with `local` (a CUDA
// policy on the communicator's device) doing each rank's part.
template <class Local>
distributed_backend::nccl::policy<std::decay_t<Local>> distributed(const nccl_communicator& comm,
                                                                  Local&& local) {
  static_assert(is_execution_policy_v<Local> && policy_takes_future_values_v<Local>,
                "pscan::distributed over NCCL: `local` must be a CUDA policy such as "
                "pscan::cuda_chained.on(stream), on the communicator's GPU");
  return {{}, comm, std::forward<Local>(local)};
}

}  // namespace pscan
