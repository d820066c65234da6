#pragma once
// The distributed cases' CUDA fixtures: cuda_chained and cuda_multipass doing the local work on
// device memory, over one kind of each shape (a number; a non-commutative 8-byte struct; a padded
// struct that catches an operator call on a value not derived from the input): the distributed
// layer is the same for every kind, and each kind's kernels cost minutes of compile time.

#include "device_fixture.cuh"
#include "gpu_exchange_over_mpi.cuh"
#include "support.hpp"

namespace distributed_test {

using cuda_kinds = conformance::kind_list<conformance::int32_plus, conformance::affine_chain,
                                          conformance::tainted_sum>;

struct chained_fixture : conformance::cuda_chained_fixture {
  using distributed_kinds = cuda_kinds;
};
struct multipass_fixture : conformance::cuda_multipass_fixture {
  using distributed_kinds = cuda_kinds;
};

// The NCCL policy's scans and reduce_into on ranks that share the device, their all-gather
// through MPI (gpu_exchange_over_mpi.cuh). Its other algorithms are the MPI backend's
// (its runs_as, nccl/policy.hpp), which chained_fixture runs.
struct gpu_exchange_fixture : conformance::cuda_chained_fixture {
  using distributed_kinds = cuda_kinds;
  static auto distributed_policy() {
    return pscan::distributed_backend::nccl::policy<gpu_exchange_over_mpi, decltype(policy())>{
        {}, gpu_exchange_over_mpi(MPI_COMM_WORLD), policy()};
  }
};

}  // namespace distributed_test

TYPE_TO_STRING_AS("cuda_chained", distributed_test::chained_fixture);
TYPE_TO_STRING_AS("cuda_multipass", distributed_test::multipass_fixture);
TYPE_TO_STRING_AS("NCCL's exchange over MPI, cuda_chained", distributed_test::gpu_exchange_fixture);

#define DISTRIBUTED_CUDA_FIXTURES \
  distributed_test::chained_fixture, distributed_test::multipass_fixture
