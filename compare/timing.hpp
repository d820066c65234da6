#pragma once
// How many runs a cell gets and what is reported of them: median, min and max.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace compare {

struct timing_plan {
  int warmup = 2;         // untimed runs after the validation run
  int runs = 10;          // timed runs
  int min_runs = 3;       // the budget never cuts below this many timed runs
  double budget_s = 1.0;  // per implementation and cell; only slow (CPU, huge) cells hit it
};

struct stats {
  int runs = 0;
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
};

// Busy machine: the median over 1.5x the fastest run (and 50 us above it), so at least half the
// runs were slowed; one preempted run, which the median ignores, does not flag a cell.
inline bool looks_busy(const stats& s) {
  return s.runs > 1 && s.median_ms > 1.5 * s.min_ms && s.median_ms - s.min_ms > 0.05;
}

inline stats summarize(std::vector<double> ms) {
  stats s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const std::size_t k = ms.size();
  s.runs = static_cast<int>(k);
  s.median_ms = k % 2 ? ms[k / 2] : 0.5 * (ms[k / 2 - 1] + ms[k / 2]);
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  return s;
}

// Warms up with `time_once` (which runs once and returns milliseconds), then times plan.runs
// runs, or fewer (not below plan.min_runs) when they would take longer than plan.budget_s.
template <class TimeOnce>
stats time_runs(TimeOnce time_once, const timing_plan& plan) {
  double last = 0;
  for (int w = 0; w < plan.warmup; ++w) last = time_once();
  int runs = plan.runs;
  if (last > 0) {
    const int affordable = static_cast<int>(plan.budget_s * 1e3 / last);
    runs = std::clamp(affordable, std::min(plan.min_runs, plan.runs), plan.runs);
  }
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(runs));
  for (int r = 0; r < runs; ++r) ms.push_back(time_once());
  return summarize(std::move(ms));
}

}  // namespace compare
