#pragma once
// Per-thread partial results. There is no identity element, so a partial may be nothing
// (pscan/detail/partial.hpp): an empty range has no value, and joining nothing returns the other
// side unchanged.

#include <pscan/detail/partial.hpp>

#include <cstdint>

namespace pscan::openmp_backend::detail {

// One cache line (or more) per thread, so threads writing their own slot never share a line.
template <class T>
struct alignas(64) padded {
  T value;
};

using pscan::detail::join;
using pscan::detail::partial;

// first[lo] op ... op first[hi - 1] in that order, or nothing when lo >= hi.
template <class T, class InIt, class Op>
partial<T> reduce_range(InIt first, std::int64_t lo, std::int64_t hi, Op& op) {
  if (lo >= hi) return {};
  T acc = static_cast<T>(first[lo]);
  for (std::int64_t i = lo + 1; i < hi; ++i) acc = op(acc, first[i]);
  return {true, acc};
}

// Thread t's share of [lo, hi) split into `parts` near-equal contiguous pieces.
inline std::int64_t split_point(std::int64_t lo, std::int64_t hi, int t, int parts) {
  return lo + (hi - lo) * t / parts;
}

}  // namespace pscan::openmp_backend::detail
