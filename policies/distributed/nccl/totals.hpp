#pragma once
// The rank totals of the scans and reduce_into over NCCL, kept on the GPUs. The hosts first agree
// over MPI on every rank's arguments and size (exchange.hpp: one MPI_Allgather, no GPU work
// waited for), which tells every rank which totals exist and whether any rank needs one. Then, on
// the local policy's stream: each rank's total (a reduce_into of its range, its leading elements
// as the init, so no identity is needed) into its record, one ncclAllGather of the records, and a
// reduce_into of the lower ranks' records, in rank order, into the carry-in that the local scan
// reads as a future_value. No host synchronisation.

#include <pscan/policies/cuda_common/runtime/temporary.cuh>
#include <pscan/policies/distributed/exchange.hpp>
#include <pscan/policies/distributed/local.hpp>
#include <pscan/policies/distributed/nccl/policy.hpp>
#include <pscan/runtime/check.cuh>

#include <pscan/detail/config.hpp>
#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/error.hpp>
#include <pscan/future_value.hpp>
#include <pscan/reduce.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pscan::distributed_backend::nccl::detail {

using distributed_backend::detail::partial;
using distributed_backend::detail::partial_op;

// Output: the reduce's value into a record, marked present.
template <class T>
struct present_record {
  struct writer {
    partial<T>* record;
    template <class U>
    PSCAN_HOST_DEVICE const writer& operator=(const U& value) const {
      *record = partial<T>{true, static_cast<T>(value)};
      return *this;
    }
  };
  partial<T>* record;
  PSCAN_HOST_DEVICE writer operator()(std::int64_t) const { return writer{record}; }
};

// Output: a record's value into *out.
template <class OutIt>
struct record_value {
  struct writer {
    OutIt out;
    template <class T>
    PSCAN_HOST_DEVICE const writer& operator=(const partial<T>& record) const {
      *out = record.value;
      return *this;
    }
  };
  OutIt out;
  PSCAN_HOST_DEVICE writer operator()(std::int64_t) const { return writer{out}; }
};

// Whether any of ranks 0 .. upto-1 holds elements.
inline bool any_elements(const std::vector<std::int64_t>& sizes, int upto) {
  for (int r = 0; r < upto; ++r) {
    if (sizes[static_cast<std::size_t>(r)] > 0) return true;
  }
  return false;
}

// A call's device records: one per rank, then the folded one.
template <class T>
class records {
 public:
  template <class Comm, class Local>
  explicit records(const policy<Comm, Local>& p)
      : size_(p.comm.size()), buffer_(static_cast<std::size_t>(size_) + 1, p.local) {}
  partial<T>* rank(int r) const { return buffer_.data() + r; }
  partial<T>* folded() const { return buffer_.data() + size_; }
  // The folded value, for a local scan's init.
  future_value<T> folded_value() const { return future_value<T>(&folded()->value); }

 private:
  int size_;
  cuda_common::temporary_buffer<partial<T>> buffer_;
};

// Throws pscan::invalid_argument when the current device is not `device`, the communicator's: the
// rank's local work and its exchange run on one GPU.
inline void check_current_device(const char* algorithm, int device) {
  int now = -1;
  PSCAN_CUDA_CHECK(cudaGetDevice(&now));
  if (now != device) {
    throw invalid_argument(std::string(algorithm) + ": the current device is " +
                           std::to_string(now) + ", the communicator's is " +
                           std::to_string(device));
  }
}

// A call's agreement: every rank's size, once every rank has checked its arguments (`check` runs
// this rank's checks and returns its n) and allocated the call's records. A bad argument or a
// failed allocation anywhere throws on every rank, before any GPU work is queued, so no rank is
// left waiting in the all-gather.
template <class T, class Comm, class Local, class Check>
std::vector<std::int64_t> agree(const policy<Comm, Local>& p,
                                const distributed_backend::detail::place& where,
                                const char* algorithm, std::optional<records<T>>& all,
                                Check&& check) {
  return distributed_backend::detail::exchange<std::int64_t>(p.comm.mpi(), where, algorithm, [&] {
    check_current_device(algorithm, p.comm.device());
    const std::int64_t n = check();
    all.emplace(p);
    return n;
  });
}

// Queues this rank's total into its record (`needed`; an empty range's record says nothing), then
// the all-gather that gives every rank every record. Every rank of the call runs it.
template <class T, class Comm, class Local, class InIt, class Op>
void all_gather_totals(const policy<Comm, Local>& p, const records<T>& all, bool needed, InIt first,
                       std::int64_t n, Op op) {
  const cudaStream_t stream = cuda_common::explicit_stream(p.local.stream);
  partial<T>* const mine = all.rank(p.comm.rank());
  if (needed && n > 0) {
    const auto leading = distributed_backend::detail::leading_elements_of<T>(first, n, op);
    pscan::reduce_into(p.local, first + leading.count, first + n,
                       pscan::detail::make_index_iterator(present_record<T>{mine}), leading, op);
  } else if (needed) {
    PSCAN_CUDA_CHECK(cudaMemsetAsync(mine, 0, sizeof(partial<T>), stream));  // has: false
  }
  p.comm.all_gather(mine, all.rank(0), sizeof(partial<T>), stream);
}

// Queues init op the records of ranks 0 .. upto-1 (those present), in rank order, into `out`.
template <class T, class Comm, class Local, class OutIt, class Op>
void fold_records(const policy<Comm, Local>& p, const records<T>& all, int upto, OutIt out,
                  const partial<T>& init, Op op) {
  pscan::reduce_into(p.local, all.rank(0), all.rank(upto), out, init, partial_op<Op>{op});
}

}  // namespace pscan::distributed_backend::nccl::detail
