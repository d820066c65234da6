#pragma once
// Checking operators shared by the CUDA unit tests.
//  - intervals [lo, hi] that join only when adjacent, so any value combined out of order, twice
//    or not at all shows (as the error [1, 0], which stays an error). Sizes 4, 8, 12 and 16
//    bytes take every path of the tile code and of the chained tile state.
//  - affine maps x -> a*x + b over uint32: exact, not commutative, 8 bytes.

#include <cstdint>
#include <cstring>

namespace unit_support {

// `Check` (when set) makes 32-bit intervals 12 bytes: no 16-byte units, 32-bit tile-state words.
template <class I, bool Check = false>
struct interval {
  I lo, hi;
};
template <>
struct interval<std::int32_t, true> {
  std::int32_t lo, hi, check;
};

template <class T>
__host__ __device__ T make_interval(long long lo, long long hi) {
  T t{};
  t.lo = static_cast<decltype(t.lo)>(lo);
  t.hi = static_cast<decltype(t.hi)>(hi);
  if constexpr (sizeof(T) == 12) t.check = static_cast<std::int32_t>(lo * 7 + hi);
  return t;
}

// [a, b] op [b + 1, c] = [a, c]; anything else (out of order, gaps, overlaps, errors) is [1, 0].
struct join {
  template <class T>
  __host__ __device__ T operator()(const T& x, const T& y) const {
    if (x.lo > x.hi || y.lo > y.hi || x.hi + 1 != y.lo) return make_interval<T>(1, 0);
    return make_interval<T>(x.lo, y.hi);
  }
};

template <class T>
bool is(const T& t, long long lo, long long hi) {
  const T want = make_interval<T>(lo, hi);
  return std::memcmp(&t, &want, sizeof(T)) == 0;
}

// A fancy input: element i is [i + offset, i + offset].
template <class T>
struct interval_at {
  long long offset;
  __host__ __device__ T operator()(std::int64_t i) const {
    return make_interval<T>(i + offset, i + offset);
  }
};

struct affine {
  std::uint32_t a, b;
};
// "f then g".
struct affine_then {
  __host__ __device__ affine operator()(const affine& f, const affine& g) const {
    return {g.a * f.a, g.a * f.b + g.b};
  }
};
inline bool operator==(const affine& l, const affine& r) { return l.a == r.a && l.b == r.b; }

// An odd slope keeps every composition invertible (no collapse to a constant map).
template <class Random>
affine random_affine(Random& random) {
  return {static_cast<std::uint32_t>(random.next()) | 1u,
          static_cast<std::uint32_t>(random.next())};
}

// The interval types of the cuda_common and cuda_multipass unit tests.
using span4 = interval<std::int16_t>;         // 16-byte units of 4 items
using span8 = interval<std::int32_t>;         // units of 2 items
using span12 = interval<std::int32_t, true>;  // no 16-byte units: moved one by one
using span16 = interval<std::int64_t>;        // one item per 16-byte unit

}  // namespace unit_support
