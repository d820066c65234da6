// Compiled, never run: every kernel of every algorithm of the CUDA policies, instantiated once
// for the architectures pscan supports (test/architectures/CMakeLists.txt), so that no supported
// architecture stops building. Each kernel path shows up through a value type that takes it:
// 1-byte values (no half-size cluster tiles), 4-, 8- and 12-byte ones, a 16-byte non-commutative
// one, and 20-byte accumulators (a 16-byte struct with its head flag in the generic segmented
// path); deferred inits; the deterministic tree.

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

// Every algorithm over values of type T with operator op on policy p.
template <class Policy, class T, class Op>
void every_algorithm(const Policy& p, const T* in, T* out, const std::uint8_t* flags,
                     const std::int64_t* offsets, std::int64_t n, const T* init_on_device,
                     T init, Op op) {
  pscan::inclusive_scan(p, in, in + n, out, op);
  pscan::inclusive_scan(p, in, in + n, out, op, init);
  pscan::inclusive_scan(p, in, in + n, out, op, pscan::future_value(init_on_device));
  pscan::exclusive_scan(p, in, in + n, out, init, op);
  pscan::exclusive_scan(p, in, in + n, out, pscan::future_value(init_on_device), op);
  (void)pscan::reduce(p, in, in + n, init, op);
  pscan::reduce_into(p, in, in + n, out, init, op);
  pscan::reduce_into(p, in, in + n, out, pscan::future_value(init_on_device), op);
  pscan::segmented_inclusive_scan(p, in, in + n, flags, out, op);
  pscan::segmented_exclusive_scan(p, in, in + n, flags, out, init, op);
  pscan::inclusive_scan_by_key(p, offsets, offsets + n, in, out, op);
  pscan::exclusive_scan_by_key(p, offsets, offsets + n, in, out, init, op);
  pscan::segmented_reduce(p, in, offsets, offsets + n, out, init, op);
  std::int64_t* const keys_out = nullptr;
  std::int64_t* const runs_out = nullptr;
  (void)pscan::reduce_by_key(p, offsets, offsets + n, in, keys_out, out, pscan::equal_to<>{}, op);
  pscan::reduce_by_key_into(p, offsets, offsets + n, in, keys_out, out, runs_out,
                            pscan::equal_to<>{}, op);
}

template <class T, class Op>
void every_policy(std::int64_t n, T init, Op op) {
  const T* in = nullptr;
  T* out = nullptr;
  const std::uint8_t* flags = nullptr;
  const std::int64_t* offsets = nullptr;
  every_algorithm(pscan::cuda_multipass, in, out, flags, offsets, n, in, init, op);
  every_algorithm(pscan::cuda_chained, in, out, flags, offsets, n, in, init, op);
  every_algorithm(pscan::cuda_chained.deterministic(), in, out, flags, offsets, n, in, init, op);
}

}  // namespace

// Referenced, so that nothing above is discarded before it is compiled.
void pscan_every_kernel(std::int64_t n) {
  every_policy(n, std::uint8_t{1}, pscan::plus<>{});
  every_policy(n, 1, pscan::plus<>{});
  every_policy(n, 1.0f, pscan::plus<>{});
  every_policy(n, 1.0, pscan::maximum<>{});
  every_policy(n, std::int64_t{1}, pscan::plus<>{});
  every_policy(n, vec3{1, 2, 3}, vec3_plus{});
  every_policy(n, mat2{1, 0, 0, 1}, mat2_product{});
}
