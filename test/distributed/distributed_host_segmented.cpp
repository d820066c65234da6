// pscan::distributed over the CPU policies, run by mpirun on 1 to 4 ranks: the segmented
// families (segmented scans, scans by key and by offsets, segmented_reduce, reduce_by_key).

#include "host_memory.hpp"
#include "reduce_by_key_cases.hpp"
#include "segmented_cases.hpp"

// The CPU backends' default policies (test/CMakeLists.txt writes the list): the distributed
// layer is the same whatever the local thread count, which the conformance suite varies.
#include "host_fixtures.hpp"

DISTRIBUTED_SEGMENTED_CASES(HOST_FIXTURES_DEFAULT);
DISTRIBUTED_REDUCE_BY_KEY_CASES(HOST_FIXTURES_DEFAULT);
