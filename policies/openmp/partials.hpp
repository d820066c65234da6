#pragma once
// Per-thread partial results. There is no identity element, so a partial is an optional: an
// empty range has no value, and combining with "none" returns the other side unchanged.

#include <cstdint>
#include <optional>

namespace pscan::openmp::detail {

// One cache line (or more) per thread, so threads writing their own slot never share a line.
template <class T>
struct alignas(64) padded {
  T value;
};

// a op b, where either side may be absent; op is applied only to values that exist.
template <class T, class Op>
std::optional<T> combine(const std::optional<T>& a, const std::optional<T>& b, Op& op) {
  if (!a) return b;
  if (!b) return a;
  return static_cast<T>(op(*a, *b));
}

// first[lo] op ... op first[hi - 1] in that order, or none when lo >= hi.
template <class T, class InIt, class Op>
std::optional<T> reduce_range(InIt first, std::int64_t lo, std::int64_t hi, Op& op) {
  if (lo >= hi) return std::nullopt;
  T acc = static_cast<T>(first[lo]);
  for (std::int64_t i = lo + 1; i < hi; ++i) acc = op(acc, first[i]);
  return acc;
}

// Thread t's share of [lo, hi) split into `parts` near-equal contiguous pieces.
inline std::int64_t split_point(std::int64_t lo, std::int64_t hi, int t, int parts) {
  return lo + (hi - lo) * t / parts;
}

}  // namespace pscan::openmp::detail
