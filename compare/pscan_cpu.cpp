// The CPU pscan policies: seq (the reference, timed at small sizes only), omp when the OpenMP
// backend is built in, both also with exact_plus (seq_exact, omp_exact: float and double), and
// the planted bug used by the harness's own test.

#include "pscan_calls.hpp"

#if PSCAN_COMPARE_WITH_OMP
#include <pscan/policies/openmp/openmp.hpp>
#define PSCAN_COMPARE_HAS_OMP_POLICY 1
#endif

namespace compare {
namespace {

// Off by one: +1 for numbers, b + 1 for affine maps.
template <class T>
void off_by_one(T& x) {
  if constexpr (std::is_same_v<T, affine>) {
    x.b += 1;
  } else {
    x = static_cast<T>(x + T(1));
  }
}

// pscan::seq with one output element off by one: the harness must report it FAILED.
implementation planted_bug() {
  implementation impl = pscan_implementation("planted_bug", target::cpu, pscan::seq);
  impl.library = "test";
  impl.prepare = [](const cell& c, const cell_buffers& b) {
    return with_element(c.type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return prepared_run{[a = c.algo, b] {
        run_pscan<T>(pscan::seq, a, b, false);
        off_by_one(static_cast<T*>(b.out)[output_count(a, b.n, b.segments) / 2]);
      }};
    });
  };
  return impl;
}

const built_in seq_entry([] { return pscan_implementation("seq", target::cpu, pscan::seq); });
const built_in seq_exact_entry(
    [] { return pscan_exact_implementation("seq_exact", target::cpu, pscan::seq); });
#if PSCAN_COMPARE_HAS_OMP_POLICY
const built_in omp_entry([] { return pscan_implementation("omp", target::cpu, pscan::omp); });
const built_in omp_exact_entry(
    [] { return pscan_exact_implementation("omp_exact", target::cpu, pscan::omp); });
#endif
const built_in planted_entry(planted_bug);

}  // namespace
}  // namespace compare
