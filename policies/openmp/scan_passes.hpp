#pragma once
// The passes of pscan::omp's scans over one range of elements: a chain (each element's output
// from the one before), the same range rescanned in the stretches a reduction of it took
// (partials.hpp), and both passes fused for a range whose carry is known before it starts.

#include <pscan/policies/openmp/partials.hpp>

#include <cstdint>
#include <iterator>

namespace pscan::openmp_backend::detail {

enum class scan_kind { inclusive, exclusive };

// The first element x of a scan chain, at i, from `carry` (none: x starts an inclusive scan;
// exclusive scans always have one, their init): writes out[i] and returns the running value. x is
// read before its output is written, so out may equal the input.
template <scan_kind Kind, class T, class X, class OutIt, class Op>
T scan_start(const partial<T>& carry, const X& x, const OutIt& out, std::int64_t i, Op& op) {
  if constexpr (Kind == scan_kind::inclusive) {
    const T acc = carry.has ? static_cast<T>(op(carry.value, x)) : static_cast<T>(x);
    out[i] = acc;
    return acc;
  } else {
    const T acc = op(carry.value, x);
    out[i] = carry.value;
    return acc;
  }
}

// The next element x of a scan chain, at i: writes out[i] and takes x into the running value.
template <scan_kind Kind, class T, class X, class OutIt, class Op>
void scan_step(T& acc, const X& x, const OutIt& out, std::int64_t i, Op& op) {
  if constexpr (Kind == scan_kind::inclusive) {
    acc = op(acc, x);
    out[i] = acc;
  } else {
    T next = op(acc, x);
    out[i] = acc;
    acc = next;
  }
}

// Scans [lo, hi) into out starting from `carry`, in one chain; returns the inclusive prefix at
// hi (carry op first[lo] op ... op first[hi - 1]).
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
partial<T> scan_chain(InIt first, std::int64_t lo, std::int64_t hi, OutIt out, Op& op,
                      const partial<T>& carry) {
  if (lo >= hi) return carry;
  T acc = scan_start<Kind>(carry, first[lo], out, lo, op);
  for (std::int64_t i = lo + 1; i < hi; ++i) scan_step<Kind>(acc, first[i], out, i, op);
  return {true, acc};
}

// scan_chain for a range that phase 1 reduced in stretches (partials.hpp): it is rescanned in
// the same stretches side by side, each from its own carry (the range's, then the stretches
// before it), so that their chains overlap too.
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
void scan_range(InIt first, std::int64_t lo, std::int64_t hi, OutIt out, Op& op,
                const partial<T>& carry, const stretch_parts<T>& parts) {
  const std::int64_t length = parts.length;
  if (length == 0) {
    scan_chain<Kind>(first, lo, hi, out, op, carry);
    return;
  }
  stretch_values<T> running;
  partial<T> stretch_carry = carry;
  for (int s = 0; s < stretches_v<T>; ++s) {
    const std::int64_t begin = lo + s * length;
    running[s] = scan_start<Kind>(stretch_carry, first[begin], out, begin, op);
    stretch_carry = detail::join(stretch_carry, partial<T>{true, parts.values[s]}, op);
  }
  for (std::int64_t j = 1; j < length; ++j) {
    for (int s = 0; s < stretches_v<T>; ++s) {
      const std::int64_t i = lo + s * length + j;
      scan_step<Kind>(running[s], first[i], out, i, op);
    }
  }
  scan_chain<Kind>(first, lo + stretches_v<T> * length, hi, out, op,
                   partial<T>{true, running[stretches_v<T> - 1]});
}

// reduce_range and then scan_range of [lo, hi) in one pass, for a chunk whose carry is known
// before it starts (the calling thread taking every chunk alone), in their grouping, so with
// their bits: the stretches one after another, each element into the output chain from its
// stretch's carry and into the stretch's own reduction, of which the next stretch's carry and
// the chunk's total are made. Two independent chains an element, each as long as seq's one, and
// the input read once. Returns the chunk's inclusive prefix, join(carry, total).
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
partial<T> scan_range_from_carry(InIt first, std::int64_t lo, std::int64_t hi, OutIt out, Op& op,
                                 const partial<T>& carry) {
  using value_type = typename std::iterator_traits<InIt>::value_type;
  if (lo >= hi) return carry;
  const std::int64_t length = stretch_length<T>(lo, hi);
  const int count = length > 0 ? stretches_v<T> : 0;
  partial<T> running = carry;  // the output chain's value
  partial<T> stretch_carry = carry;
  partial<T> total{};  // the stretches' reductions, joined left to right: none yet
  for (int s = 0; s < count; ++s) {
    const std::int64_t begin = lo + s * length;
    // Each element copied (its output may take its place) and as the two passes see it: uncast.
    const value_type x0 = first[begin];
    T acc = scan_start<Kind>(stretch_carry, x0, out, begin, op);
    T part = static_cast<T>(x0);
    for (std::int64_t i = begin + 1; i < begin + length; ++i) {
      const value_type x = first[i];
      scan_step<Kind>(acc, x, out, i, op);
      part = op(part, x);
    }
    stretch_carry = detail::join(stretch_carry, partial<T>{true, part}, op);
    total = detail::join(total, partial<T>{true, part}, op);
    running = {true, acc};
  }
  // The elements past the stretches (all of them without stretches): the output chain goes on,
  // and they fold into the total.
  for (std::int64_t i = lo + count * length; i < hi; ++i) {
    const value_type x = first[i];
    if (i == lo + count * length) {
      running = {true, scan_start<Kind>(running, x, out, i, op)};
    } else {
      scan_step<Kind>(running.value, x, out, i, op);
    }
    total = {true, total.has ? static_cast<T>(op(total.value, x)) : static_cast<T>(x)};
  }
  return detail::join(carry, total, op);
}

}  // namespace pscan::openmp_backend::detail
