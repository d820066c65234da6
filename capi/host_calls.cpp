// The C interface's requests on pscan::seq and pscan::omp.

#include <cstdint>

#include "calls.hpp"

namespace pscan::capi {

void run_host(const pscan_policy& policy, const request& r) {
  const auto run_typed = [&](auto value) {
    using T = decltype(value);
    with_operator<T>(r.op, [&](auto op, T) {
      using Op = decltype(op);
#if PSCAN_C_OPENMP
      if (policy.backend == PSCAN_OMP) return run<Op, T>(pscan::omp.threads(policy.threads), r);
#endif
      run<Op, T>(pscan::seq, r);
    });
  };
  switch (r.dtype) {
    case PSCAN_INT32:
      return run_typed(std::int32_t{});
    case PSCAN_INT64:
      return run_typed(std::int64_t{});
    case PSCAN_FLOAT32:
      return run_typed(float{});
    case PSCAN_FLOAT64:
      return run_typed(double{});
  }
}

}  // namespace pscan::capi
