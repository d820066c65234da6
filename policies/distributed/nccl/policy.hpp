#pragma once
// pscan::distributed's policy over GPU ranks: a communicator (Comm) and the CUDA policy that does
// each rank's local work on the communicator's GPU. Comm moves a few bytes between the ranks' GPUs
// on a stream (all_gather), and gives its rank, size, device and the MPI communicator over the
// same ranks for what the hosts must agree on: NCCL's communicator (communicator.hpp) is the one pscan ships; the tests also
// drive this exchange through MPI with several ranks on one GPU, which NCCL refuses.

#include <pscan/policies/distributed/policy.hpp>

#include <pscan/policy.hpp>

namespace pscan::distributed_backend::nccl {

// Calls with this policy are collective over the communicator's ranks, as with MPI (every rank
// makes them in the same order, one thread at a time), and queued on the local policy's stream.
template <class Comm, class Local>
struct policy : collective_policy_base {
  Comm comm;
  Local local;
};

// The algorithms the NCCL backend has no path of its own for, whose few bytes per rank cross
// through the hosts, run as the MPI backend's with the same local policy (dispatch.hpp's runs_as
// hook; nccl.hpp includes them).
template <class Comm, class Local>
distributed_backend::policy<Local> runs_as(const policy<Comm, Local>& p) {
  return {{}, p.comm.mpi(), p.local};
}

}  // namespace pscan::distributed_backend::nccl
