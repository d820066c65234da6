// pscan::distributed's scans, reductions, segmented scans and reduce_by_key with exact_plus, on 1
// to 4 ranks: every result the same bits as seq's over the whole input, whatever the split.

#include "conformance/exact_cases.hpp"
#include "host_memory.hpp"
#include "reduce_by_key_cases.hpp"
#include "scan_cases.hpp"
#include "segmented_cases.hpp"

#include "host_fixtures.hpp"

namespace distributed_test {
// A fixture whose cases run over the exact_plus value kinds alone.
template <class F>
struct exact_kinds : F {
  using distributed_kinds = conformance::kind_list<conformance::exact_plus_kind<float>,
                                                   conformance::exact_plus_kind<double>>;
};
}  // namespace distributed_test

TYPE_TO_STRING_AS("seq, exact_plus", distributed_test::exact_kinds<conformance::seq_fixture>);
#if defined(_OPENMP)
TYPE_TO_STRING_AS("omp, exact_plus", distributed_test::exact_kinds<conformance::omp_fixture>);
#define EXACT_FIXTURES                                      \
  distributed_test::exact_kinds<conformance::seq_fixture>, \
      distributed_test::exact_kinds<conformance::omp_fixture>
#else
#define EXACT_FIXTURES distributed_test::exact_kinds<conformance::seq_fixture>
#endif

// One case of each kind of exchange: a scan's carries with and without init, a reduce, the
// segmented scans' carries by flags and by key, segmented_reduce with the scans by offsets, and
// reduce_by_key's runs across ranks.
TEST_CASE_TEMPLATE_INVOKE(distributed_inclusive_scan_init_case, EXACT_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(distributed_exclusive_scan_case, EXACT_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(distributed_reduce_case, EXACT_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(distributed_segmented_inclusive_case, EXACT_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(distributed_exclusive_by_key_case, EXACT_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(distributed_segmented_reduce_case, EXACT_FIXTURES);
DISTRIBUTED_REDUCE_BY_KEY_CASES(EXACT_FIXTURES);
