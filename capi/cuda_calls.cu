// The C interface's requests on pscan::cuda_chained, for the element type this translation unit
// is compiled for (PSCAN_C_CUDA_TYPE; CMake compiles one per type, to spread the kernels' build),
// and what the other types' units share: the device's presence and the wait.

#include <cuda_runtime.h>

#include <cstdint>
#include <pscan/runtime/check.cuh>
#include <type_traits>

#include "calls.hpp"

namespace pscan::capi {

template <class T>
void run_cuda_typed(const pscan_policy& policy, const request& r);

#if defined(PSCAN_C_CUDA_TYPE)

namespace {
// Checked, the offsets' pass on the device also checks that they end within the n values.
auto chained_policy(const pscan_policy& policy, const request& r) {
  auto p = pscan::cuda_chained.on(static_cast<cudaStream_t>(policy.stream));
  if (!policy.checked) return p;
  p = p.checked();
  p.values_count = r.n;
  return p;
}
}  // namespace

// .deterministic() only where the grouping can change the bits: floating-point plus (min, max,
// integers and the exact sum give the same bits either way).
template <>
void run_cuda_typed<PSCAN_C_CUDA_TYPE>(const pscan_policy& policy, const request& r) {
  using T = PSCAN_C_CUDA_TYPE;
  with_operator<T>(r.op, [&](auto op, T) {
    using Op = decltype(op);
    if constexpr (std::is_floating_point_v<T> && std::is_same_v<Op, plus<>>) {
      if (policy.deterministic) return run<Op, T>(chained_policy(policy, r).deterministic(), r);
    }
    run<Op, T>(chained_policy(policy, r), r);
  });
}

#else

void run_cuda(const pscan_policy& policy, const request& r) {
  switch (r.dtype) {
    case PSCAN_INT32:
      return run_cuda_typed<std::int32_t>(policy, r);
    case PSCAN_INT64:
      return run_cuda_typed<std::int64_t>(policy, r);
    case PSCAN_FLOAT32:
      return run_cuda_typed<float>(policy, r);
    case PSCAN_FLOAT64:
      return run_cuda_typed<double>(policy, r);
  }
}

bool cuda_available() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

void synchronize_cuda(const pscan_policy& policy) {
  pscan::cuda_chained.on(static_cast<cudaStream_t>(policy.stream)).synchronize();
}

#endif

}  // namespace pscan::capi
