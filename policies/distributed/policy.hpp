#pragma once
// pscan::distributed's policy: an MPI communicator and the policy that does each rank's local
// work (any other pscan policy: seq, omp, cuda_chained.on(stream), ...).

#include <pscan/error.hpp>
#include <pscan/policy.hpp>

#include <mpi.h>

#include <type_traits>
#include <utility>

namespace pscan {
namespace distributed_backend {

// Calls with this policy are collective over `comm`: every rank makes them in the same order, one
// thread at a time (MPI's rule for collectives).
template <class Local>
struct policy : collective_policy_base {
  MPI_Comm comm;
  Local local;
};

}  // namespace distributed_backend

// A policy running every algorithm over the ranks of `comm`, with `local` doing each rank's part.
template <class Local>
distributed_backend::policy<std::decay_t<Local>> distributed(MPI_Comm comm, Local&& local) {
  static_assert(is_execution_policy_v<Local> && !is_collective_policy_v<Local>,
                "pscan::distributed: `local` must be a single-process policy such as pscan::seq, "
                "pscan::omp or pscan::cuda_chained");
  if (comm == MPI_COMM_NULL) {
    throw invalid_argument("pscan::distributed: `comm` is MPI_COMM_NULL");
  }
  return {{}, comm, std::forward<Local>(local)};
}

}  // namespace pscan
