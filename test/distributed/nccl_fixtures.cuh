#pragma once
// The distributed cases over NCCL: cuda_chained doing each rank's local work on a GPU of its own,
// over a number, a non-commutative 16-byte struct (2x2 matrix product) and a padded struct that
// catches an operator call on a value not derived from the input (the exchange's records, say).

#include <pscan/policies/distributed/nccl/nccl.hpp>

#include <optional>

#include "cuda_fixtures.cuh"

namespace distributed_test {

// The communicator over MPI_COMM_WORLD's GPUs, made and released by the runner (main_nccl.cu).
inline std::optional<pscan::nccl_communicator>& world_gpus() {
  static std::optional<pscan::nccl_communicator> communicator;
  return communicator;
}

struct nccl_fixture : conformance::cuda_chained_fixture {
  using distributed_kinds =
      conformance::kind_list<conformance::int32_plus, conformance::mat2_chain,
                             conformance::tainted_sum>;
  static auto distributed_policy() { return pscan::distributed(*world_gpus(), policy()); }
};

}  // namespace distributed_test

TYPE_TO_STRING_AS("nccl, cuda_chained", distributed_test::nccl_fixture);
