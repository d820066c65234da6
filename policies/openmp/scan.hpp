#pragma once
// pscan::omp scans: Blelloch's (1990) cost-optimal three-phase scan (each thread reduces its
// chunk, the chunk totals are scanned, each thread rescans its chunk from its carry-in),
// cache-blocked: the input goes through in blocks of team x chunk_bytes, so the rescan of phase
// 3 reads the chunk from the thread's own cache and DRAM sees one read of the input and one
// write of the output.

#include "partials.hpp"
#include "policy.hpp"

#include <pscan/policies/sequential/sequential.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

namespace pscan::openmp_backend {
namespace detail {

// Input bytes per thread per block: read in phase 1, read again in phase 3, so it must stay in
// a core's private L2 (1-2 MiB on current x86 servers) together with the output it writes.
inline constexpr std::int64_t chunk_bytes = 128 * 1024;

// A thread scans ~8K int32 in a few microseconds, about what starting a team costs: below
// 2 x this many elements the calling thread runs pscan::seq's own loop, so omp never loses to seq
// at small n.
inline constexpr std::int64_t scan_min_per_thread = 8192;

enum class scan_kind { inclusive, exclusive };

// The first element of a scan chain, at i, from `carry` (none: first[i] starts an inclusive
// scan; exclusive scans always have one, their init): writes out[i] and returns the running
// value. Each element is read before its output is written, so out may equal first.
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
T scan_start(const partial<T>& carry, InIt first, std::int64_t i, OutIt out, Op& op) {
  if constexpr (Kind == scan_kind::inclusive) {
    const T acc = carry.has ? static_cast<T>(op(carry.value, first[i])) : static_cast<T>(first[i]);
    out[i] = acc;
    return acc;
  } else {
    const T acc = op(carry.value, first[i]);
    out[i] = carry.value;
    return acc;
  }
}

// The next element of a scan chain: writes out[i] and takes first[i] into the running value.
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
void scan_step(T& acc, InIt first, std::int64_t i, OutIt out, Op& op) {
  if constexpr (Kind == scan_kind::inclusive) {
    acc = op(acc, first[i]);
    out[i] = acc;
  } else {
    T next = op(acc, first[i]);
    out[i] = acc;
    acc = next;
  }
}

// Scans [lo, hi) into out starting from `carry`, in one chain.
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
void scan_chain(InIt first, std::int64_t lo, std::int64_t hi, OutIt out, Op& op,
                const partial<T>& carry) {
  if (lo >= hi) return;
  T acc = scan_start<Kind>(carry, first, lo, out, op);
  for (std::int64_t i = lo + 1; i < hi; ++i) scan_step<Kind>(acc, first, i, out, op);
}

// scan_chain for a range that phase 1 reduced in stretches (partials.hpp): it is rescanned in
// the same stretches side by side, each from its own carry (the range's, then the stretches
// before it), so that their chains overlap too.
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
void scan_range(InIt first, std::int64_t lo, std::int64_t hi, OutIt out, Op& op,
                const partial<T>& carry, const stretch_parts<T>& parts) {
  const std::int64_t length = parts.length;
  if (length == 0) return scan_chain<Kind>(first, lo, hi, out, op, carry);
  stretch_values<T> running;
  partial<T> stretch_carry = carry;
  for (int s = 0; s < stretches; ++s) {
    running[s] = scan_start<Kind>(stretch_carry, first, lo + s * length, out, op);
    stretch_carry = detail::join(stretch_carry, partial<T>{true, parts.values[s]}, op);
  }
  for (std::int64_t j = 1; j < length; ++j) {
    for (int s = 0; s < stretches; ++s) {
      scan_step<Kind>(running[s], first, lo + s * length + j, out, op);
    }
  }
  scan_chain<Kind>(first, lo + stretches * length, hi, out, op,
                   partial<T>{true, running[stretches - 1]});
}

// The blocked three-phase scan of [0, n) on `team` threads, in one parallel region.
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
void blocked_scan(int team, InIt first, std::int64_t n, OutIt out, Op op,
                  const partial<T>& init) {
  using value_type = typename std::iterator_traits<InIt>::value_type;
  const std::int64_t chunk =
      std::max<std::int64_t>(chunk_bytes / static_cast<std::int64_t>(sizeof(value_type)), 1024);
  // Chunk totals, double-buffered by block parity: a thread may start block b+1 (writing its
  // total) while a slower one still reads the totals of block b. One barrier per block suffices.
  std::vector<padded<partial<T>>> totals(2 * static_cast<std::size_t>(team));

#pragma omp parallel num_threads(team)
  {
    const int threads = omp_get_num_threads();  // may be fewer than asked for
    const int t = omp_get_thread_num();
    const std::int64_t block = chunk * threads;
    Op thread_op = op;
    // Every thread folds all chunk totals itself (p op calls per block) instead of waiting for
    // one thread to scan them: the same left fold everywhere, so all agree on the carry.
    partial<T> carry = init;
    for (std::int64_t begin = 0, b = 0; begin < n; begin += block, ++b) {
      const std::int64_t end = std::min(n, begin + block);
      const std::int64_t lo = detail::split_point(begin, end, t, threads);
      const std::int64_t hi = detail::split_point(begin, end, t + 1, threads);
      padded<partial<T>>* block_totals = totals.data() + (b % 2) * threads;
      stretch_parts<T> parts;  // phase 1's stretches, rescanned in phase 3
      block_totals[t].value = detail::reduce_range<T>(first, lo, hi, thread_op, &parts);
#pragma omp barrier
      for (int u = 0; u < t; ++u) {
        carry = detail::join(carry, block_totals[u].value, thread_op);
      }
      detail::scan_range<Kind>(first, lo, hi, out, thread_op, carry, parts);  // phase 3, cached
      for (int u = t; u < threads; ++u) {
        carry = detail::join(carry, block_totals[u].value, thread_op);
      }
    }
  }
}

// The team for a scan of n elements; below 2, the calling thread runs pscan::seq's loop.
inline int scan_team(const policy& p, std::int64_t n) {
  return detail::team_size(p, n, scan_min_per_thread);
}

}  // namespace detail

template <class InIt, class OutIt, class Op>
void inclusive_scan(const policy& p, InIt first, InIt last, OutIt out, Op op) {
  using T = typename std::iterator_traits<InIt>::value_type;
  const int team = detail::scan_team(p, last - first);
  if (team < 2) return sequential_backend::inclusive_scan(seq, first, last, out, op);
  detail::blocked_scan<detail::scan_kind::inclusive>(team, first, last - first, out, op,
                                                     detail::partial<T>{});
}

template <class InIt, class OutIt, class Op, class T>
void inclusive_scan(const policy& p, InIt first, InIt last, OutIt out, Op op, T init) {
  const int team = detail::scan_team(p, last - first);
  if (team < 2) return sequential_backend::inclusive_scan(seq, first, last, out, op, init);
  detail::blocked_scan<detail::scan_kind::inclusive>(team, first, last - first, out, op,
                                                     detail::partial<T>{true, init});
}

template <class InIt, class OutIt, class T, class Op>
void exclusive_scan(const policy& p, InIt first, InIt last, OutIt out, T init, Op op) {
  const int team = detail::scan_team(p, last - first);
  if (team < 2) return sequential_backend::exclusive_scan(seq, first, last, out, init, op);
  detail::blocked_scan<detail::scan_kind::exclusive>(team, first, last - first, out, op,
                                                     detail::partial<T>{true, init});
}

}  // namespace pscan::openmp_backend
