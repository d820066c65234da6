#pragma once
// What a call through pscan's C interface asks for (a request), and running it over one policy,
// element type and operator: the templates each translation unit of libpscan_c instantiates for
// its backends.

#include <pscan/pscan_c.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <pscan/pscan.hpp>
#include <stdexcept>
#include <type_traits>

namespace pscan::capi {

enum class algorithm {
  inclusive_scan,
  exclusive_scan,
  reduce,
  inclusive_scan_by_offsets,
  exclusive_scan_by_offsets,
  segmented_reduce,
  reduce_by_key
};

// The arguments of every C call; each algorithm reads its own. Scalars are on the host.
struct request {
  algorithm what;
  pscan_dtype dtype;
  pscan_op op;
  const void* in = nullptr;
  void* out = nullptr;
  std::int64_t n = 0;
  const std::int64_t* offsets = nullptr;
  std::int64_t num_offsets = 0;
  const void* init = nullptr;  // null: the operator's identity
  void* result = nullptr;      // reduce's value
  pscan_dtype key_dtype = PSCAN_INT64;
  const void* keys = nullptr;
  void* keys_out = nullptr;
  std::int64_t* runs = nullptr;
};

// The identity of Op over T: what init means when the caller gives none.
template <class Op, class T>
T identity() {
  using limits = std::numeric_limits<T>;
  if constexpr (std::is_same_v<Op, minimum<>>) {
    return limits::has_infinity ? limits::infinity() : limits::max();
  } else if constexpr (std::is_same_v<Op, maximum<>>) {
    return limits::has_infinity ? -limits::infinity() : limits::lowest();
  } else {
    return T{};
  }
}

template <class Op, class T>
T init_of(const request& r) {
  if (r.init == nullptr) return identity<Op, T>();
  T value;
  std::memcpy(&value, r.init, sizeof value);
  return value;
}

// f(Op{}, T{}) for the operator `op` names over T: PSCAN_EXACT_SUM is exact_plus over floating
// point and plus over integers (already exact).
template <class T, class F>
void with_operator(pscan_op op, F&& f) {
  switch (op) {
    case PSCAN_SUM:
      return f(plus<>{}, T{});
    case PSCAN_MIN:
      return f(minimum<>{}, T{});
    case PSCAN_MAX:
      return f(maximum<>{}, T{});
    case PSCAN_EXACT_SUM:
      if constexpr (std::is_floating_point_v<T>) {
        return f(exact_plus<>{}, T{});
      } else {
        return f(plus<>{}, T{});
      }
  }
}

template <class F>
void with_key_type(pscan_dtype key_dtype, F&& f) {
  if (key_dtype == PSCAN_INT32) {
    f(std::int32_t{});
  } else {
    f(std::int64_t{});
  }
}

// Runs r over policy p with elements T and operator Op.
template <class Op, class T, class P>
void run(const P& p, const request& r) {
  const T* in = static_cast<const T*>(r.in);
  T* out = static_cast<T*>(r.out);
  const std::int64_t* offsets_last = r.offsets + r.num_offsets;
  switch (r.what) {
    case algorithm::inclusive_scan:
      pscan::inclusive_scan(p, in, in + r.n, out, Op{});
      return;
    case algorithm::exclusive_scan:
      pscan::exclusive_scan(p, in, in + r.n, out, init_of<Op, T>(r), Op{});
      return;
    case algorithm::reduce: {
      const T value = pscan::reduce(p, in, in + r.n, init_of<Op, T>(r), Op{});
      std::memcpy(r.result, &value, sizeof value);
      return;
    }
    case algorithm::inclusive_scan_by_offsets:
      pscan::inclusive_scan_by_offsets_into(p, in, r.offsets, offsets_last, out, Op{});
      return;
    case algorithm::exclusive_scan_by_offsets:
      pscan::exclusive_scan_by_offsets_into(p, in, r.offsets, offsets_last, out, init_of<Op, T>(r),
                                            Op{});
      return;
    case algorithm::segmented_reduce:
      pscan::segmented_reduce(p, in, r.offsets, offsets_last, out, init_of<Op, T>(r), Op{});
      return;
    case algorithm::reduce_by_key:
      with_key_type(r.key_dtype, [&](auto key) {
        using K = decltype(key);
        const K* keys = static_cast<const K*>(r.keys);
        K* keys_out = static_cast<K*>(r.keys_out);
        const auto ends =
            pscan::reduce_by_key(p, keys, keys + r.n, in, keys_out, out, equal_to<>{}, Op{});
        *r.runs = ends.first - keys_out;
      });
      return;
  }
}

// A backend or an input this build of the library has no code for.
struct unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The host backends (host_calls.cpp) and the CUDA one (cuda_calls.cu, built with CUDA).
void run_host(const pscan_policy& policy, const request& r);
void run_cuda(const pscan_policy& policy, const request& r);
bool cuda_available();
// Waits for the policy's stream and throws what its unchecked calls found.
void synchronize_cuda(const pscan_policy& policy);

}  // namespace pscan::capi
