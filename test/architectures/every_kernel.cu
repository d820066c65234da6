// Compiled, never run: every kernel of every algorithm of the CUDA policies, instantiated once
// for the architectures pscan supports (test/architectures/CMakeLists.txt), so that no supported
// architecture stops building. Every algorithm as the comparison harness calls it
// (compare/pscan_calls.hpp: a new algorithm is here once it is measured), and the forms the
// harness does not call (inits, deferred inits, the returning reduce_by_key). Each kernel path
// shows up through a value type that takes it: 1-byte values (no half-size cluster tiles), 4-, 8-
// and 12-byte ones, a 16-byte non-commutative one, and 20-byte accumulators (a 16-byte struct with
// its head flag in the generic segmented path); deferred inits; the deterministic tree.

#include "pscan_calls.hpp"

#include <pscan/pscan.hpp>

#include <cstdint>

namespace {

struct vec3 {
  std::int32_t x, y, z;
};
struct vec3_plus {
  __host__ __device__ vec3 operator()(const vec3& a, const vec3& b) const {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
  }
};
struct mat2 {
  std::uint32_t a, b, c, d;
};
struct mat2_product {
  __host__ __device__ mat2 operator()(const mat2& l, const mat2& r) const {
    return {l.a * r.a + l.b * r.c, l.a * r.b + l.b * r.d, l.c * r.a + l.d * r.c,
            l.c * r.b + l.d * r.d};
  }
};
// The harness's transforms combine x with itself through `+` (compare::plus).
__host__ __device__ vec3 operator+(const vec3& a, const vec3& b) { return vec3_plus{}(a, b); }
__host__ __device__ mat2 operator+(const mat2& a, const mat2& b) { return mat2_product{}(a, b); }

// The operator each value type is combined with.
template <class T>
struct operator_for {
  using type = pscan::plus<>;
};
template <>
struct operator_for<double> {
  using type = pscan::maximum<>;
};
template <>
struct operator_for<vec3> {
  using type = vec3_plus;
};
template <>
struct operator_for<mat2> {
  using type = mat2_product;
};

// Every algorithm over values of type T on policy p.
template <class T, class Policy>
void every_algorithm(const Policy& p, std::int64_t n) {
  compare::cell_buffers buffers;
  buffers.n = n;
  buffers.segments = n;
  for (const compare::algorithm a : compare::every_algorithm()) {
    compare::run_pscan<T, operator_for>(p, a, buffers, true);
  }
  const T* in = nullptr;
  T* out = nullptr;
  const std::uint8_t* flags = nullptr;
  const std::int64_t* keys = nullptr;
  std::int64_t* const keys_out = nullptr;
  const T init{};
  const typename operator_for<T>::type op{};
  pscan::inclusive_scan(p, in, in + n, out, op, init);
  pscan::inclusive_scan(p, in, in + n, out, op, pscan::future_value(in));
  pscan::exclusive_scan(p, in, in + n, out, pscan::future_value(in), op);
  pscan::reduce_into(p, in, in + n, out, pscan::future_value(in), op);
  pscan::segmented_exclusive_scan(p, in, in + n, flags, out, init, op);
  (void)pscan::reduce_by_key(p, keys, keys + n, in, keys_out, out, pscan::equal_to<>{}, op);
}

template <class T>
void every_policy(std::int64_t n) {
  every_algorithm<T>(pscan::cuda_multipass, n);
  every_algorithm<T>(pscan::cuda_chained, n);
  every_algorithm<T>(pscan::cuda_chained.deterministic(), n);
}

}  // namespace

// Referenced, so that nothing above is discarded before it is compiled.
void pscan_every_kernel(std::int64_t n) {
  every_policy<std::uint8_t>(n);
  every_policy<std::int32_t>(n);
  every_policy<float>(n);
  every_policy<double>(n);
  every_policy<std::int64_t>(n);
  every_policy<vec3>(n);
  every_policy<mat2>(n);
}
