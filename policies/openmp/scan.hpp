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
// the team's threads took any. The chunks of a segmented input reduce only their tail
// (segmented_chunks.hpp).

#include <pscan/detail/grouping.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/policies/openmp/partials.hpp>
#include <pscan/policies/openmp/scheduler.hpp>
#include <pscan/policies/openmp/scan_passes.hpp>
#include <pscan/policies/openmp/segmented_chunks.hpp>
#include <pscan/policies/sequential/sequential.hpp>

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <memory>
#include <thread>
#include <type_traits>

namespace pscan::openmp_backend {
namespace detail {

// Input bytes of a chunk: reduced, then rescanned, so it must stay in a core's private L2 (1-2
// MiB on current x86 servers) together with the output it writes.
inline constexpr std::int64_t chunk_bytes = 128 * 1024;

// A thread scans ~8K int32 in a few microseconds, about what starting a team costs: below
// 2 x this many elements the calling thread runs pscan::seq's own loop, so omp never loses to seq
// at small n.
inline constexpr std::int64_t scan_min_per_thread = 8192;

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

// The three steps of a plain chunk [lo, hi): reduce (in a team, before the carry is known:
// the prefix goes out after a pass at full ILP, which the successors wait on), rescan (after, in
// the reduction's stretches), and from_carry (alone, the carry known first: one pass; an operator
// that groups freely needs no reduction beside the output chain).
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
struct plain_chunks {
  struct reduction {
    partial<T> total;
    stretch_parts<T> parts;
  };

  static reduction reduce(const InIt& first, std::int64_t lo, std::int64_t hi, Op& op, bool) {
    reduction r;
    r.total = reduce_range<T>(first, lo, hi, op, &r.parts);
    return r;
  }

  static void rescan(const InIt& first, std::int64_t lo, std::int64_t hi, const OutIt& out,
                     Op& op, const partial<T>& carry, const reduction& r) {
    scan_range<Kind>(first, lo, hi, out, op, carry, r.parts);
  }

  // Returns the chunk's inclusive prefix, with reduce's bits.
  static partial<T> from_carry(const InIt& first, std::int64_t lo, std::int64_t hi,
                               const OutIt& out, Op& op, const partial<T>& carry) {
    if constexpr (pscan::detail::grouping_free_v<T, Op>) {
      return scan_chain<Kind>(first, lo, hi, out, op, carry);
    } else {
      return scan_range_from_carry<Kind>(first, lo, hi, out, op, carry);
    }
  }
};

// The chained scan of [0, n) on up to `team` threads, in one parallel region (run_chunks), its
// chunks plain or segmented (segmented_chunks.hpp).
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
void chained_scan(int team, InIt first, std::int64_t n, OutIt out, Op op,
                  const partial<T>& init) {
  using value_type = typename std::iterator_traits<InIt>::value_type;
  using steps = std::conditional_t<pscan::detail::segmented_parts<InIt>::known,
                                   segmented_chunks<Kind, T, InIt, OutIt, Op>,
                                   plain_chunks<Kind, T, InIt, OutIt, Op>>;
  // chunk_bytes, or an equal share per thread where that is less (at least 1024 values).
  constexpr std::int64_t values = pscan::detail::element_values_v<InIt>;
  const std::int64_t chunk = std::max<std::int64_t>(
      std::min<std::int64_t>(
          chunk_bytes / static_cast<std::int64_t>(sizeof(value_type) * values),
          (n + team - 1) / team),
      (1024 + values - 1) / values);
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
      if (alone) {
        const partial<T> carry = c == 0 ? init : prefixes[c - 1].value;
        prefixes[c].value = steps::from_carry(first, lo, hi, out, thread_op, carry);
        prefixes[c].ready.store(true, std::memory_order_relaxed);
        work.busy_ns += clock_ns() - start;
        continue;
      }
      const auto reduction = steps::reduce(first, lo, hi, thread_op, c > 0 || init.has);
      const std::int64_t reduced = clock_ns();
      const partial<T> carry = c == 0 ? init : wait_for(prefixes[c - 1]);
      prefixes[c].value = detail::join(carry, reduction.total, thread_op);
      prefixes[c].ready.store(true, std::memory_order_release);
      const std::int64_t rescan = clock_ns();
      steps::rescan(first, lo, hi, out, thread_op, carry, reduction);
      work.busy_ns += reduced - start + clock_ns() - rescan;
    }
    return work;
  });
}

// The team for a scan of n elements; below 2, the calling thread runs pscan::seq's loop.
template <class InIt>
int scan_team(const policy& p, std::int64_t n) {
  return detail::team_size(p, n * pscan::detail::element_values_v<InIt>, scan_min_per_thread);
}

}  // namespace detail

template <class InIt, class OutIt, class Op>
void inclusive_scan(const policy& p, InIt first, InIt last, OutIt out, Op op) {
  using T = typename std::iterator_traits<InIt>::value_type;
  const int team = detail::scan_team<InIt>(p, last - first);
  if (team < 2) return sequential_backend::inclusive_scan(seq, first, last, out, op);
  detail::chained_scan<detail::scan_kind::inclusive>(team, first, last - first, out, op,
                                                     detail::partial<T>{});
}

template <class InIt, class OutIt, class Op, class T>
void inclusive_scan(const policy& p, InIt first, InIt last, OutIt out, Op op, T init) {
  const int team = detail::scan_team<InIt>(p, last - first);
  if (team < 2) return sequential_backend::inclusive_scan(seq, first, last, out, op, init);
  detail::chained_scan<detail::scan_kind::inclusive>(team, first, last - first, out, op,
                                                     detail::partial<T>{true, init});
}

template <class InIt, class OutIt, class T, class Op>
void exclusive_scan(const policy& p, InIt first, InIt last, OutIt out, T init, Op op) {
  const int team = detail::scan_team<InIt>(p, last - first);
  if (team < 2) return sequential_backend::exclusive_scan(seq, first, last, out, init, op);
  detail::chained_scan<detail::scan_kind::exclusive>(team, first, last - first, out, op,
                                                     detail::partial<T>{true, init});
}

}  // namespace pscan::openmp_backend
