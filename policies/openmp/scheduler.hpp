#pragma once
// How pscan::omp's calls share out their work (docs/openmp.md, "Contended regions").
//
// A call cuts its input into chunks that depend only on n and the team size, never on which
// thread runs which, so the bits are the same however the chunks fall. Its team is sized by
// team_size: no thread with fewer items than the algorithm's cut-off (a parallel region costs
// microseconds), and below two threads the caller runs pscan::seq's code. Inside one parallel
// region (run_chunks) the threads take chunks from a shared counter, so a thread that starts late
// takes fewer and a call never waits for a thread that has not started to do its share.
//
// One wait remains that no counter removes: a parallel region returns once every thread of its
// team has run. On a machine with more runnable threads than cores (a second parallel program, a
// build) a member the system has not scheduled costs the region a scheduler tick, milliseconds,
// whatever the work. So run_chunks watches the calling thread's waits and, when one was far longer
// than its chunks, runs the next calls' chunks on the calling thread alone, for a while (below).

#include <pscan/policies/openmp/policy.hpp>

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>

namespace pscan {
namespace openmp_backend {
namespace detail {

// The team for `work` items: at most the policy's thread count, and no thread with fewer than
// `min_per_thread` items (a parallel region costs microseconds: a thread must save more than
// that). A result below 2 means: run serially on the calling thread.
inline int team_size(const policy& p, std::int64_t work, std::int64_t min_per_thread) {
  const std::int64_t wanted = p.threads() > 0 ? p.threads() : omp_get_max_threads();
  return static_cast<int>(std::min(wanted, work / min_per_thread));
}

// The contention window. A region in which the calling thread spent far longer waiting (for its team to start, for a chunk before
// its own, for its team to finish) than a few of its own chunks took marks the process's regions
// as contended for 32 times that wait (a wasted tick costs 3 % of the time it is then avoided
// for); meanwhile calls take their chunks on the calling thread alone, in the same grouping, so
// with the same bits. A call that takes longer alone than the wait that began the window costs
// more than a team would lose to the scheduler: it ends the window (an idle 16-core host once
// ran 2^27-element calls alone, 5-7x slower, after one long wait).
inline std::atomic<std::int64_t> contended_until_ns{0};
inline std::atomic<std::int64_t> contended_wait_ns{0};  // the wait that began the window
// The largest team a region has had: a larger one starts threads (milliseconds), which says
// nothing of the machine's load.
inline std::atomic<int> largest_team{1};

inline std::int64_t clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// What a thread did in a region: the chunks it took and the time it spent on them, waits left out.
struct chunk_work {
  std::int64_t chunks = 0;
  std::int64_t busy_ns = 0;
};

// take_chunks(alone) takes chunks from a counter the calls share until none is left, and returns
// its chunk_work: on `team` threads, or on the calling thread alone (alone = true: it takes every
// chunk, in order) while regions are contended.
template <class TakeChunks>
void run_chunks(int team, TakeChunks&& take_chunks) {
  if (team < 2) {
    take_chunks(true);
    return;
  }
  const std::int64_t start = clock_ns();
  if (start < contended_until_ns.load(std::memory_order_relaxed)) {
    take_chunks(true);
    if (clock_ns() - start > contended_wait_ns.load(std::memory_order_relaxed)) {
      contended_until_ns.store(0, std::memory_order_relaxed);
    }
    return;
  }
  chunk_work caller;
#pragma omp parallel num_threads(team)
  {
    const chunk_work work = take_chunks(false);
    if (omp_get_thread_num() == 0) caller = work;
  }
  const std::int64_t end = clock_ns();
  if (largest_team.load(std::memory_order_relaxed) < team) {
    largest_team.store(team, std::memory_order_relaxed);
    return;
  }
  // Idle, the caller waits up to about a chunk for its first predecessor and its last successor,
  // and a little on each chunk's prefix: a quarter of its busy time over many chunks.
  const std::int64_t chunk_ns = caller.busy_ns / std::max<std::int64_t>(caller.chunks, 1);
  const std::int64_t waited_ns = end - start - caller.busy_ns;
  constexpr std::int64_t slack_ns = 20'000;  // waking sleeping threads
  if (waited_ns > std::max(4 * chunk_ns, caller.busy_ns / 4) + slack_ns) {
    contended_wait_ns.store(waited_ns, std::memory_order_relaxed);
    contended_until_ns.store(end + 32 * waited_ns, std::memory_order_relaxed);
  }
}

// f(c, thread_op) for every part c of [0, parts), each taken by whichever thread of `team` is
// free (run_chunks), with that thread's own copy of op.
template <class Op, class F>
void for_each_part(int team, int parts, const Op& op, F&& f) {
  std::atomic<int> next_part{0};
  run_chunks(team, [&](bool) {
    Op thread_op = op;
    chunk_work work;
    for (int c = next_part.fetch_add(1, std::memory_order_relaxed); c < parts;
         c = next_part.fetch_add(1, std::memory_order_relaxed), ++work.chunks) {
      const std::int64_t start = clock_ns();
      f(c, thread_op);
      work.busy_ns += clock_ns() - start;
    }
    return work;
  });
}

}  // namespace detail
}  // namespace openmp_backend
}  // namespace pscan
