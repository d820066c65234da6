// pscan::distributed over the CPU policies (each host backend's default policy doing the local
// work), run by mpirun on 1 to 4 ranks: the scans and bad input (the segmented families are in
// distributed_host_segmented.cpp); plus what only host code can do: an operator that throws.

#include <stdexcept>

#include "error_cases.hpp"
#include "host_memory.hpp"
#include "scan_cases.hpp"

// The CPU backends' default policies (test/CMakeLists.txt writes the list): the distributed
// layer is the same whatever the local thread count, which the conformance suite varies.
#include "host_fixtures.hpp"

DISTRIBUTED_SCAN_CASES(HOST_FIXTURES_DEFAULT);
DISTRIBUTED_ERROR_CASES(HOST_FIXTURES_DEFAULT);

namespace {

// plus, except that it throws on the rank it is given.
struct throws_on_rank {
  int rank;
  int operator()(int a, int b) const {
    if (distributed_test::world().rank == rank) throw std::runtime_error("op failed here");
    return a + b;
  }
};

}  // namespace

// An exception from the local work before the exchange (here op in the local reduce) reaches
// every rank: the failing rank's own, a std::runtime_error naming it on the others.
TEST_CASE("distributed: an exception on one rank before the exchange reaches every rank") {
  using namespace distributed_test;
  const auto p = pscan::distributed(MPI_COMM_WORLD, pscan::seq);
  const std::vector<int> in(16, 1);
  for (const int bad : bad_ranks()) {
    INFO("failing rank ", bad);
    const std::string failed = "failed on rank " + std::to_string(bad);
    try {
      pscan::reduce(p, in.begin(), in.end(), 0, throws_on_rank{bad});
      FAIL_CHECK("no exception");
    } catch (const std::runtime_error& e) {
      const std::string message = e.what();
      if (world().rank == bad) {
        CHECK(message == "op failed here");
      } else {
        CHECK_MESSAGE(message.find(failed) != std::string::npos, message);
      }
    }
  }
}

TEST_CASE("distributed: MPI_COMM_NULL is rejected") {
  conformance::check_rejected([] { pscan::distributed(MPI_COMM_NULL, pscan::seq); },
                              {"distributed", "MPI_COMM_NULL"});
}
