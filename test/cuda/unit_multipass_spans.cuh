#pragma once
// The checking operator of the cuda_common and cuda_multipass unit tests: intervals [lo, hi]
// that join only when adjacent, so any value combined out of order, twice or not at all shows
// as the invalid [-1, -1]. Sizes 4, 8, 12 and 16 bytes take every path of the tile code.

#include <cstdint>
#include <cstring>

namespace spans {

struct span4 { std::int16_t lo, hi; };          // 16-byte units of 4 items
struct span8 { std::int32_t lo, hi; };          // units of 2 items
struct span12 { std::int32_t lo, hi, check; };  // no 16-byte units: moved one by one
struct span16 { std::int64_t lo, hi; };         // one item per 16-byte unit

template <class T>
__host__ __device__ T make_span(long long lo, long long hi) {
  T t{};
  t.lo = static_cast<decltype(t.lo)>(lo);
  t.hi = static_cast<decltype(t.hi)>(hi);
  if constexpr (sizeof(T) == 12) t.check = static_cast<std::int32_t>(lo * 7 + hi);
  return t;
}

// [a, b] op [b + 1, c] = [a, c]; anything else gives [-1, -1].
struct join {
  template <class T>
  __host__ __device__ T operator()(const T& x, const T& y) const {
    if (x.lo < 0 || y.lo < 0 || x.hi + 1 != y.lo) return make_span<T>(-1, -1);
    return make_span<T>(x.lo, y.hi);
  }
};

template <class T>
bool is(const T& t, long long lo, long long hi) {
  const T want = make_span<T>(lo, hi);
  return std::memcmp(&t, &want, sizeof(T)) == 0;
}

// A fancy input: element i is [i + offset, i + offset].
template <class T>
struct span_at {
  long long offset;
  __host__ __device__ T operator()(std::int64_t i) const { return make_span<T>(i + offset, i + offset); }
};

}  // namespace spans
