#pragma once
// pscan::omp scans: a single pass over chunks in the order of a ticket counter (the CPU twin of
// cuda_chained's chained scan; LightScan, Merrill & Garland's chained scan with a serial
// prefix). A thread takes the next chunk, reduces it, waits for the inclusive prefix of the chunk
// before it, publishes its own and rescans the chunk (still in its cache) from its carry. The
// calling thread taking every chunk alone (detail::run_chunks) knows each carry first and scans a
// chunk in one pass, in the same grouping. No barrier: a thread only ever waits for a chunk that
// another thread has already taken, never for a thread the system has not scheduled yet, so a
// loaded machine slows a call by what it takes from it, not by a scheduler tick per barrier.
// Chunks depend on n and the thread count alone and each prefix is its predecessor's op the
// chunk's total, so the bits do not depend on which thread took which chunk, nor on how many of
// the team's threads took any.

#include "partials.hpp"
#include "policy.hpp"

#include <pscan/policies/sequential/sequential.hpp>

#include <pscan/detail/grouping.hpp>

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <memory>
#include <thread>

namespace pscan::openmp_backend {
namespace detail {

// Input bytes of a chunk: reduced, then rescanned, so it must stay in a core's private L2 (1-2
// MiB on current x86 servers) together with the output it writes.
inline constexpr std::int64_t chunk_bytes = 128 * 1024;

// A thread scans ~8K int32 in a few microseconds, about what starting a team costs: below
// 2 x this many elements the calling thread runs pscan::seq's own loop, so omp never loses to seq
// at small n.
inline constexpr std::int64_t scan_min_per_thread = 8192;

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

// A chunk's inclusive prefix, once published (ready, with release order after the value).
template <class T>
struct alignas(64) published_prefix {
  std::atomic<bool> ready{false};
  partial<T> value;
};

// The prefix that `slot` publishes. The thread that publishes it holds the chunk already, so the
// wait is for work in progress; a few polls, then the core goes to whoever needs it (the
// publisher, when the machine has more runnable threads than cores).
template <class T>
partial<T> wait_for(const published_prefix<T>& slot) {
  for (int polls = 0; !slot.ready.load(std::memory_order_acquire); ++polls) {
    if (polls >= 64) std::this_thread::yield();
  }
  return slot.value;
}

// The chained scan of [0, n) on up to `team` threads, in one parallel region (run_chunks).
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
void chained_scan(int team, InIt first, std::int64_t n, OutIt out, Op op,
                  const partial<T>& init) {
  using value_type = typename std::iterator_traits<InIt>::value_type;
  // chunk_bytes, or an equal share per thread where that is less (at least 1024 elements).
  const std::int64_t chunk = std::max<std::int64_t>(
      std::min<std::int64_t>(chunk_bytes / static_cast<std::int64_t>(sizeof(value_type)),
                             (n + team - 1) / team),
      1024);
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  const std::unique_ptr<published_prefix<T>[]> prefixes(
      new published_prefix<T>[static_cast<std::size_t>(chunks)]);
  std::atomic<std::int64_t> next_chunk{0};
  detail::run_chunks(static_cast<int>(std::min<std::int64_t>(team, chunks)), [&](bool alone) {
    Op thread_op = op;
    chunk_work work;
    for (std::int64_t c = next_chunk.fetch_add(1, std::memory_order_relaxed); c < chunks;
         c = next_chunk.fetch_add(1, std::memory_order_relaxed), ++work.chunks) {
      const std::int64_t lo = c * chunk;
      const std::int64_t hi = std::min(n, lo + chunk);
      const std::int64_t start = clock_ns();
      // Alone, each chunk's carry is known before it starts: one pass. (In a team, the prefix
      // goes out after the reduce, a pass at full ILP, which the successors wait on.) An
      // operator that groups freely needs no reduction beside the output chain.
      if (alone) {
        const partial<T> carry = c == 0 ? init : prefixes[c - 1].value;
        if constexpr (pscan::detail::grouping_free_v<T, Op>) {
          prefixes[c].value = detail::scan_chain<Kind>(first, lo, hi, out, thread_op, carry);
        } else {
          prefixes[c].value =
              detail::scan_range_from_carry<Kind>(first, lo, hi, out, thread_op, carry);
        }
        prefixes[c].ready.store(true, std::memory_order_relaxed);
        work.busy_ns += clock_ns() - start;
        continue;
      }
      stretch_parts<T> parts;  // the reduction's stretches, rescanned side by side
      const partial<T> total = detail::reduce_range<T>(first, lo, hi, thread_op, &parts);
      const std::int64_t reduced = clock_ns();
      const partial<T> carry = c == 0 ? init : wait_for(prefixes[c - 1]);
      prefixes[c].value = detail::join(carry, total, thread_op);
      prefixes[c].ready.store(true, std::memory_order_release);
      const std::int64_t rescan = clock_ns();
      detail::scan_range<Kind>(first, lo, hi, out, thread_op, carry, parts);
      work.busy_ns += reduced - start + clock_ns() - rescan;
    }
    return work;
  });
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
  detail::chained_scan<detail::scan_kind::inclusive>(team, first, last - first, out, op,
                                                     detail::partial<T>{});
}

template <class InIt, class OutIt, class Op, class T>
void inclusive_scan(const policy& p, InIt first, InIt last, OutIt out, Op op, T init) {
  const int team = detail::scan_team(p, last - first);
  if (team < 2) return sequential_backend::inclusive_scan(seq, first, last, out, op, init);
  detail::chained_scan<detail::scan_kind::inclusive>(team, first, last - first, out, op,
                                                     detail::partial<T>{true, init});
}

template <class InIt, class OutIt, class T, class Op>
void exclusive_scan(const policy& p, InIt first, InIt last, OutIt out, T init, Op op) {
  const int team = detail::scan_team(p, last - first);
  if (team < 2) return sequential_backend::exclusive_scan(seq, first, last, out, init, op);
  detail::chained_scan<detail::scan_kind::exclusive>(team, first, last - first, out, op,
                                                     detail::partial<T>{true, init});
}

}  // namespace pscan::openmp_backend
