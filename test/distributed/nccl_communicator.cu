// pscan::nccl_communicator: the caller's NCCL communicator, wrapped, runs the same calls as one
// pscan made, and what the constructors refuse (on every rank alike, so none is left waiting).

#include "conformance/error_cases.hpp"
#include "nccl_fixtures.cuh"

#include <cstdint>
#include <vector>

TEST_CASE("nccl communicator: a wrapped NCCL communicator runs the scans and reduce_into") {
  using namespace distributed_test;
  const pscan::nccl_communicator& made = *world_gpus();
  const pscan::nccl_communicator wrapped(MPI_COMM_WORLD, made.nccl());
  CHECK(wrapped.rank() == made.rank());
  CHECK(wrapped.size() == made.size());
  CHECK(wrapped.device() == made.device());
  // Rank r holds r + 1 ones: its inclusive scan counts on from the ranks before it.
  const place where = world();
  const std::int64_t n = where.rank + 1;
  const std::int64_t before = std::int64_t{where.rank} * (where.rank + 1) / 2;
  auto in = nccl_fixture::upload(std::vector<std::int32_t>(static_cast<std::size_t>(n), 1));
  auto out = nccl_fixture::upload(std::vector<std::int32_t>(static_cast<std::size_t>(n), 0));
  const auto p = pscan::distributed(wrapped, nccl_fixture::policy());
  pscan::inclusive_scan(p, in.begin(), in.end(), out.begin());
  std::vector<std::int32_t> expected(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    expected[i] = static_cast<std::int32_t>(before + static_cast<std::int64_t>(i) + 1);
  }
  CHECK(nccl_fixture::download(out) == expected);
  auto total = nccl_fixture::upload(std::vector<std::int32_t>{0});
  pscan::reduce_into(p, in.begin(), in.end(), total.begin(), 7);
  CHECK(nccl_fixture::download(total) == std::vector<std::int32_t>{static_cast<std::int32_t>(
                                             7 + where.size * (where.size + 1) / 2)});
}

TEST_CASE("nccl communicator: a null NCCL communicator or MPI_COMM_NULL is refused") {
  using namespace distributed_test;
  check_rejected([] { static_cast<void>(pscan::nccl_communicator(MPI_COMM_WORLD, nullptr)); },
                 {"pscan::nccl_communicator", "`nccl`"});
  check_rejected([] { static_cast<void>(pscan::nccl_communicator(MPI_COMM_NULL)); },
                 {"pscan::nccl_communicator", "MPI_COMM_NULL"});
}
