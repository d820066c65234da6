#pragma once
// Per-thread partial results. There is no identity element, so a partial may be nothing
// (pscan/detail/partial.hpp): an empty range has no value, and joining nothing returns the other
// side unchanged.

#include <pscan/detail/partial.hpp>

#include <algorithm>
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

// How many running values a thread keeps side by side: each op waits for the one before it in
// its chain (a floating-point add: ~4 cycles), so one chain uses a fraction of a core; eight
// overlap enough to reach memory bandwidth. Their values must stay in registers (x86-64 has 16
// vector registers), so at most 64 bytes of them: 8 doubles, 4 affine maps or (double, head)
// pairs. Eight 16-byte values spilled, and each op then waited on memory: 2.6x slower than one
// chain.
template <class T>
inline constexpr int stretches_v = static_cast<int>(
    std::clamp<std::size_t>(64 / sizeof(T), 1, 8));
// Shorter stretches than this run as one chain: setting up eight costs more than it saves.
inline constexpr std::int64_t min_stretch = 64;

// Integer reductions stay one chain, which compilers vectorise (whole-register adds); the
// stretches would hide that pattern from them.
template <class T>
inline constexpr bool reduces_in_stretches_v = !std::is_integral_v<T> && stretches_v<T> > 1;

template <class T>
using stretch_values = std::array<T, stretches_v<T>>;

// How reduce_range reduced a range: the stretches' length (0: as one chain) and their reductions,
// so that a scan's rescan follows the same stretches.
template <class T>
struct stretch_parts {
  std::int64_t length = 0;
  stretch_values<T> values;
};

// Whether stretches `stride` bytes apart start at least a cache line apart modulo 4 KiB. Starts
// that are not would share L1 sets, and loads would falsely wait on stores to other stretches
// (4K aliasing): a scan rescanning 8 stretches 16 KiB apart ran at half the speed of one chain.
constexpr bool starts_spread(std::int64_t stride, int stretches) {
  constexpr std::int64_t page = 4096, line = 64;
  for (std::int64_t a = 1; a < stretches; ++a) {
    const std::int64_t apart = a * stride % page;
    if (apart < line || apart > page - line) return false;
  }
  return true;
}

// [lo, hi) as stretches_v<T> contiguous stretches of the returned length from lo, the few elements
// past them after; 0 when the range runs as one chain.
template <class T>
std::int64_t stretch_length(std::int64_t lo, std::int64_t hi) {
  if (!reduces_in_stretches_v<T>) return 0;
  constexpr int count = stretches_v<T>;
  std::int64_t length = (hi - lo) / count;
  while (length >= min_stretch && !starts_spread(length * std::int64_t{sizeof(T)}, count)) --length;
  return length >= min_stretch ? length : 0;
}

// acc op first[from] op ... op first[hi - 1].
template <class T, class InIt, class Op>
T fold(T acc, InIt first, std::int64_t from, std::int64_t hi, Op& op) {
  for (std::int64_t i = from; i < hi; ++i) acc = op(acc, first[i]);
  return acc;
}

template <class T, class InIt, std::size_t... S>
stretch_values<T> stretch_starts(InIt first, std::int64_t lo, std::int64_t length,
                                 std::index_sequence<S...>) {
  return {static_cast<T>(first[lo + static_cast<std::int64_t>(S) * length])...};
}

// first[lo] op ... op first[hi - 1], or nothing when lo >= hi. Grouped, never reordered: a long
// range is reduced as its stretches, in one loop so that their chains overlap (the stretches go
// to *parts when given), then joined left to right, and the elements past them after. op need
// only be associative, sees only elements and its own results, and the same range always gives
// the same bits.
template <class T, class InIt, class Op>
partial<T> reduce_range(InIt first, std::int64_t lo, std::int64_t hi, Op& op,
                        stretch_parts<T>* parts = nullptr) {
  const std::int64_t length = lo < hi ? stretch_length<T>(lo, hi) : 0;
  if (parts != nullptr) parts->length = length;
  if (lo >= hi) return {};
  if (length == 0) return {true, fold(static_cast<T>(first[lo]), first, lo + 1, hi, op)};
  stretch_values<T> accs =
      stretch_starts<T>(first, lo, length, std::make_index_sequence<stretches_v<T>>{});
  for (std::int64_t j = 1; j < length; ++j) {
    for (int s = 0; s < stretches_v<T>; ++s) accs[s] = op(accs[s], first[lo + s * length + j]);
  }
  if (parts != nullptr) parts->values = accs;
  T acc = accs[0];
  for (int s = 1; s < stretches_v<T>; ++s) acc = op(acc, accs[s]);
  return {true, fold(acc, first, lo + stretches_v<T> * length, hi, op)};
}

// Thread t's share of [lo, hi) split into `parts` near-equal contiguous pieces.
inline std::int64_t split_point(std::int64_t lo, std::int64_t hi, int t, int parts) {
  return lo + (hi - lo) * t / parts;
}

}  // namespace pscan::openmp_backend::detail
