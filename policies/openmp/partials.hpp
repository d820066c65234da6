#pragma once
// Per-thread partial results. There is no identity element, so a partial may be nothing
// (pscan/detail/partial.hpp): an empty range has no value, and joining nothing returns the other
// side unchanged.

#include <pscan/detail/partial.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace pscan::openmp_backend::detail {

// One cache line (or more) per thread, so threads writing their own slot never share a line.
template <class T>
struct alignas(64) padded {
  T value;
};

using pscan::detail::join;
using pscan::detail::partial;

// How many running values a thread's reduction keeps side by side: each op waits for the one
// before it in its chain (a floating-point add: ~4 cycles), so one chain uses a fraction of a
// core; eight overlap enough to reach memory bandwidth.
inline constexpr int stretches = 8;
// Shorter stretches than this reduce in one chain: setting up eight costs more than it saves.
inline constexpr std::int64_t min_stretch = 64;

// Integer reductions stay one chain, which compilers vectorise (whole-register adds); the
// stretches would hide that pattern from them.
template <class T>
inline constexpr bool reduces_in_stretches_v = !std::is_integral_v<T>;

// The first elements of the stretches of [lo, lo + stretches * length), converted to T.
template <class T, class InIt, std::size_t... S>
std::array<T, stretches> stretch_starts(InIt first, std::int64_t lo, std::int64_t length,
                                        std::index_sequence<S...>) {
  return {static_cast<T>(first[lo + static_cast<std::int64_t>(S) * length])...};
}

// first[lo] op ... op first[hi - 1], or nothing when lo >= hi. Grouped, never reordered: a
// long range splits into `stretches` contiguous stretches reduced in one loop, so that their
// chains overlap, then joined left to right, and the few elements past the last stretch after
// them. op need only be associative, sees only elements and its own results, and the same range
// always gives the same bits.
template <class T, class InIt, class Op>
partial<T> reduce_range(InIt first, std::int64_t lo, std::int64_t hi, Op& op) {
  if (lo >= hi) return {};
  const std::int64_t length = (hi - lo) / stretches;
  if (!reduces_in_stretches_v<T> || length < min_stretch) {
    T acc = static_cast<T>(first[lo]);
    for (std::int64_t i = lo + 1; i < hi; ++i) acc = op(acc, first[i]);
    return {true, acc};
  }
  std::array<T, stretches> accs =
      stretch_starts<T>(first, lo, length, std::make_index_sequence<stretches>{});
  for (std::int64_t j = 1; j < length; ++j) {
    for (int s = 0; s < stretches; ++s) accs[s] = op(accs[s], first[lo + s * length + j]);
  }
  T acc = accs[0];
  for (int s = 1; s < stretches; ++s) acc = op(acc, accs[s]);
  for (std::int64_t i = lo + stretches * length; i < hi; ++i) acc = op(acc, first[i]);
  return {true, acc};
}

// Thread t's share of [lo, hi) split into `parts` near-equal contiguous pieces.
inline std::int64_t split_point(std::int64_t lo, std::int64_t hi, int t, int parts) {
  return lo + (hi - lo) * t / parts;
}

}  // namespace pscan::openmp_backend::detail
