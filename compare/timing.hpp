#pragma once
// How many runs a cell gets and what is reported of them. After min_runs timed runs a cell stops
// as soon as its spread (median absolute deviation / median) is at most max_spread, else it goes
// on up to max_runs; a cell whose runs have taken budget_s stops early, after at least 3.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace compare {

struct timing_plan {
  int warmup = 2;            // untimed runs after the validation run
  int min_runs = 5;          // timed runs before the spread is looked at
  int max_runs = 50;         // timed runs at most, whatever the spread
  double max_spread = 0.02;  // stop once MAD / median is at most this
  double budget_s = 1.0;     // per implementation and cell; only slow (CPU, huge) cells hit it
  int budget_min_runs = 3;   // the budget never cuts below this many (or min_runs if fewer)
};

// The host cost of a GPU call: batches of `calls` calls enqueued behind a kernel that holds the
// stream, so that neither the GPU's work nor a full launch queue is counted; the median per call
// over the batches. The hold lets go by itself after hold_ms, so a call that waits for the device
// returns (and is reported as not measurable) instead of waiting forever.
struct host_cost_plan {
  bool enabled = true;
  int calls = 32;        // few: the stream's launch queue never fills
  int batches = 5;
  double hold_ms = 100;  // a batch slower than this measured a wait: at most ~3 ms a call
  // Larger inputs are left out: a call's GPU time hides its host time thousands of times over,
  // and the batches' queued calls would add seconds to the cell.
  std::int64_t max_n = std::int64_t{1} << 24;
};

struct stats {
  int runs = 0;
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double spread = 0;  // median absolute deviation / median
};

// Busy machine: the median over 1.5x the fastest run (and 50 us above it), so at least half the
// runs were slowed; one preempted run, which the median ignores, does not flag a cell.
inline bool looks_busy(const stats& s) {
  return s.runs > 1 && s.median_ms > 1.5 * s.min_ms && s.median_ms - s.min_ms > 0.05;
}

inline double median_of(std::vector<double>& v) {  // reorders v
  const std::size_t k = v.size();
  std::nth_element(v.begin(), v.begin() + k / 2, v.end());
  const double upper = v[k / 2];
  if (k % 2) return upper;
  return 0.5 * (*std::max_element(v.begin(), v.begin() + k / 2) + upper);
}

// Median absolute deviation over the median: robust to the odd preempted run, unlike the
// standard deviation, and comparable across sizes.
inline double relative_spread(std::vector<double> ms) {
  if (ms.empty()) return 0;
  const double median = median_of(ms);
  if (median <= 0) return 0;
  for (double& x : ms) x = std::abs(x - median);
  return median_of(ms) / median;
}

inline stats summarize(std::vector<double> ms) {
  stats s;
  if (ms.empty()) return s;
  s.runs = static_cast<int>(ms.size());
  s.spread = relative_spread(ms);
  const auto [lo, hi] = std::minmax_element(ms.begin(), ms.end());
  s.min_ms = *lo;
  s.max_ms = *hi;
  s.median_ms = median_of(ms);
  return s;
}

// Warms up with `time_once` (which runs once and returns milliseconds), then times runs until
// the plan's noise criterion, run count or budget stops them.
template <class TimeOnce>
stats time_runs(TimeOnce time_once, const timing_plan& plan) {
  for (int w = 0; w < plan.warmup; ++w) time_once();
  const int budget_floor = std::min(plan.budget_min_runs, plan.min_runs);
  std::vector<double> ms;
  double spent_ms = 0;
  while (true) {
    ms.push_back(time_once());
    spent_ms += ms.back();
    const int runs = static_cast<int>(ms.size());
    if (runs >= plan.max_runs) break;
    if (runs >= budget_floor && spent_ms >= plan.budget_s * 1e3) break;
    if (runs >= plan.min_runs && relative_spread(ms) <= plan.max_spread) break;
  }
  return summarize(std::move(ms));
}

}  // namespace compare
