// The single-process conformance suite on pscan::distributed over MPI_COMM_SELF: every process
// is a communicator of one rank, so every case applies unchanged, through the distributed
// backend's exchange and carry-in on every call.

#include <pscan/distributed.hpp>

#include "conformance/error_cases.hpp"
#include "conformance/large_cases.hpp"
#include "conformance/offsets_scan_cases.hpp"
#include "conformance/reduce_by_key_cases.hpp"
#include "conformance/reduce_cases.hpp"
#include "conformance/scan_cases.hpp"
#include "conformance/segmented_cases.hpp"
#include "conformance/transform_cases.hpp"
#include "host_memory.hpp"

namespace conformance {
struct distributed_seq_fixture : host_memory {
  static auto policy() { return pscan::distributed(MPI_COMM_SELF, pscan::seq); }
};
#if PSCAN_TEST_OPENMP
struct distributed_omp_fixture : host_memory {
  static auto policy() { return pscan::distributed(MPI_COMM_SELF, pscan::omp.threads(3)); }
};
#endif
}  // namespace conformance

TYPE_TO_STRING_AS("distributed_seq", conformance::distributed_seq_fixture);
#if PSCAN_TEST_OPENMP
TYPE_TO_STRING_AS("distributed_omp", conformance::distributed_omp_fixture);
#define SELF_FIXTURES conformance::distributed_seq_fixture, conformance::distributed_omp_fixture
#else
#define SELF_FIXTURES conformance::distributed_seq_fixture
#endif

CONFORMANCE_SCAN_CASES(SELF_FIXTURES);
CONFORMANCE_REDUCE_CASES(SELF_FIXTURES);
CONFORMANCE_SEGMENTED_CASES(SELF_FIXTURES);
CONFORMANCE_OFFSETS_SCAN_CASES(SELF_FIXTURES);
CONFORMANCE_REDUCE_BY_KEY_CASES(SELF_FIXTURES);
CONFORMANCE_TRANSFORM_CASES(SELF_FIXTURES);
CONFORMANCE_ERROR_CASES(SELF_FIXTURES);
CONFORMANCE_LARGE_CASES(SELF_FIXTURES);
