#pragma once
// The conformance fixtures of pscan::distributed over MPI_COMM_SELF, on seq and (with OpenMP)
// omp: SELF_FIXTURES.

#include <pscan/distributed.hpp>

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
