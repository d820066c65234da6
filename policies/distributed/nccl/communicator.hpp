#pragma once
// The communicator of pscan::distributed over NCCL: one process per GPU. A call's rank totals
// travel between the GPUs through NCCL, queued on the local policy's stream; MPI runs beside it
// for what the hosts must agree on before any GPU work is queued (every rank's arguments: a bad
// one on any rank throws on all of them, nothing written, no rank left waiting in a collective).

#include <pscan/error.hpp>
#include <pscan/policies/distributed/exchange.hpp>
#include <pscan/policies/distributed/nccl/policy.hpp>

#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace pscan::distributed_backend::nccl {

// Throws std::runtime_error for an NCCL call that failed.
inline void check_nccl(ncclResult_t code, const char* call) {
  if (code == ncclSuccess) return;
  throw std::runtime_error(std::string("pscan::distributed over NCCL: ") + call +
                           " failed: " + ncclGetErrorString(code));
}

class communicator {
 public:
  // Makes an NCCL communicator over the ranks of `comm`, each on its current device, in rank
  // order (collective over `comm`). Two ranks on one GPU are refused on every rank. The NCCL
  // communicator is destroyed with the last copy of this object and of the policies holding it.
  explicit communicator(MPI_Comm comm) {
    const distributed_backend::detail::place where = checked_place(comm);
    const int device = current_device();
    refuse_shared_gpus(comm, where, device);
    struct {
      ncclResult_t status;
      ncclUniqueId id;
    } root{};
    if (where.rank == 0) root.status = ncclGetUniqueId(&root.id);
    distributed_backend::detail::check_mpi(MPI_Bcast(&root, sizeof root, MPI_BYTE, 0, comm),
                                           "MPI_Bcast");
    check_nccl(root.status, "ncclGetUniqueId (on rank 0)");
    ncclComm_t made = nullptr;
    check_nccl(ncclCommInitRank(&made, where.size, root.id, where.rank), "ncclCommInitRank");
    state_ = std::make_shared<const state>(comm, made, where, device, true);
  }

  // `nccl`, made by the caller over the same ranks as `comm` in the same order, on the current
  // device (checked on every rank, collectively); not owned.
  communicator(MPI_Comm comm, ncclComm_t nccl) {
    const distributed_backend::detail::place where = checked_place(comm);
    const int device = current_device();
    int count = -1, rank = -1, nccl_device = -1;
    bool matches = nccl != nullptr && ncclCommCount(nccl, &count) == ncclSuccess &&
                   ncclCommUserRank(nccl, &rank) == ncclSuccess &&
                   ncclCommCuDevice(nccl, &nccl_device) == ncclSuccess;
    matches = matches && count == where.size && rank == where.rank && nccl_device == device;
    int mine = matches ? 1 : 0, all = 0;
    distributed_backend::detail::check_mpi(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm),
                                           "MPI_Allreduce");
    if (all == 0) {
      throw invalid_argument(
          "pscan::nccl_communicator: on some rank `nccl` is null or does not match `comm` (its "
          "rank " + std::to_string(rank) + " of " + std::to_string(count) + " on device " +
          std::to_string(nccl_device) + " here, against rank " + std::to_string(where.rank) +
          " of " + std::to_string(where.size) + " on device " + std::to_string(device) + ")");
    }
    state_ = std::make_shared<const state>(comm, nccl, where, device, false);
  }

  MPI_Comm mpi() const { return state_->comm; }
  ncclComm_t nccl() const { return state_->nccl; }
  int rank() const { return state_->where.rank; }
  int size() const { return state_->where.size; }
  // The GPU this rank's NCCL communicator runs on: the calls' local work must run there too.
  int device() const { return state_->device; }

  // Queues on `stream`: every rank's `bytes` from `send` into `receive`, in rank order.
  void all_gather(const void* send, void* receive, std::size_t bytes, cudaStream_t stream) const {
    check_nccl(ncclAllGather(send, receive, bytes, ncclUint8, nccl(), stream), "ncclAllGather");
  }

 private:
  struct state {
    MPI_Comm comm;
    ncclComm_t nccl;
    distributed_backend::detail::place where;
    int device;
    bool owned;
    state(MPI_Comm c, ncclComm_t n, distributed_backend::detail::place w, int d, bool o)
        : comm(c), nccl(n), where(w), device(d), owned(o) {}
    state(const state&) = delete;
    state& operator=(const state&) = delete;
    ~state() {
      if (owned) static_cast<void>(ncclCommDestroy(nccl));  // nothing to report from here
    }
  };

  static distributed_backend::detail::place checked_place(MPI_Comm comm) {
    if (comm == MPI_COMM_NULL) {
      throw invalid_argument("pscan::nccl_communicator: `comm` is MPI_COMM_NULL");
    }
    return distributed_backend::detail::place_in(comm);
  }

  static int current_device() {
    int device = -1;
    const cudaError_t status = cudaGetDevice(&device);
    if (status != cudaSuccess) {
      throw std::runtime_error(std::string("pscan::nccl_communicator: cudaGetDevice failed: ") +
                               cudaGetErrorString(status));
    }
    return device;
  }

  // NCCL allows one rank per GPU; refused here on every rank, naming the ranks, rather than by
  // NCCL on some of them.
  static void refuse_shared_gpus(MPI_Comm comm, const distributed_backend::detail::place& where,
                                 int device) {
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
      throw std::runtime_error("pscan::nccl_communicator: cudaGetDeviceProperties failed");
    }
    std::vector<cudaUUID_t> all(static_cast<std::size_t>(where.size));
    distributed_backend::detail::check_mpi(
        MPI_Allgather(&properties.uuid, sizeof(cudaUUID_t), MPI_BYTE, all.data(),
                      sizeof(cudaUUID_t), MPI_BYTE, comm),
        "MPI_Allgather");
    for (std::size_t a = 0; a < all.size(); ++a) {
      for (std::size_t b = a + 1; b < all.size(); ++b) {
        if (std::memcmp(&all[a], &all[b], sizeof(cudaUUID_t)) == 0) {
          throw invalid_argument("pscan::nccl_communicator: ranks " + std::to_string(a) +
                                 " and " + std::to_string(b) +
                                 " are on the same GPU (NCCL needs one GPU per rank)");
        }
      }
    }
  }

  std::shared_ptr<const state> state_;
};

}  // namespace pscan::distributed_backend::nccl

namespace pscan {

// The GPUs of pscan::distributed over NCCL, one a rank (policies/distributed/nccl/).
using nccl_communicator = distributed_backend::nccl::communicator;

// A policy running every algorithm over the ranks of `comm`, one GPU each, with `local` (a CUDA
// policy on the communicator's device) doing each rank's part.
template <class Local>
distributed_backend::nccl::policy<nccl_communicator, std::decay_t<Local>> distributed(
    const nccl_communicator& comm, Local&& local) {
  static_assert(is_execution_policy_v<Local> && policy_takes_future_values_v<Local>,
                "pscan::distributed over NCCL: `local` must be a CUDA policy such as "
                "pscan::cuda_chained.on(stream), on the communicator's GPU");
  return {{}, comm, std::forward<Local>(local)};
}

}  // namespace pscan
