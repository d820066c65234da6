#include "provenance.hpp"

#include "gpu.hpp"
#include "implementation.hpp"
#include "types.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <fstream>
#include <thread>

#if defined(_OPENMP)
#include <omp.h>
#endif

#ifndef PSCAN_COMPARE_BUILD_TYPE
#define PSCAN_COMPARE_BUILD_TYPE "unknown"
#endif

namespace compare {
namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line
                                        : line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

std::string omp_threads() {  // what the OpenMP runtime uses, and why
  const char* env = std::getenv("OMP_NUM_THREADS");
  const std::string from = std::string(" (OMP_NUM_THREADS ") + (env ? env : "unset") + ")";
#if defined(_OPENMP)
  return std::to_string(omp_get_max_threads()) + from;
#else
  return "no OpenMP" + from;
#endif
}

std::string host_compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", s);
  return text;
}

std::string runs_rule(const timing_plan& plan) {
  const std::string warmups = " after " + std::to_string(plan.warmup) + " warm-ups";
  const std::string budget = "; a cell stops once its runs took " + seconds(plan.budget_s) +
                             ", after at least " +
                             std::to_string(std::min(plan.budget_min_runs, plan.min_runs));
  if (plan.min_runs == plan.max_runs) {
    return std::to_string(plan.max_runs) + " timed runs (median, min, max, spread)" + warmups +
           budget;
  }
  char spread[32];
  std::snprintf(spread, sizeof spread, "%g", plan.max_spread);
  return std::to_string(plan.min_runs) + " to " + std::to_string(plan.max_runs) +
         " timed runs (median, min, max)" + warmups +
         ": more after the minimum until the spread (median absolute deviation / median) is at "
         "most " + spread + budget;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string host_cost_rule(const host_cost_plan& plan) {
  if (!plan.enabled) return "not measured (--no-host-cost)";
  char hold[32];
  std::snprintf(hold, sizeof hold, "%g ms", plan.hold_ms);
  return "GPU rows up to n = " + format_count(plan.max_n) +
         ": host time per call, the median of " + std::to_string(plan.batches) +
         " batches of " + std::to_string(plan.calls) +
         " calls queued behind a kernel that holds the stream (so neither GPU time nor a full "
         "launch queue is counted); the hold lets go after " + hold +
         ", and a batch it did not hold to the end (a call that waits for the device, such as "
         "one returning a value to the host) leaves the row empty";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> collect_provenance(
    const options& o, const std::string& gpu_unavailable) {
  std::string command;
  for (const auto& word : o.command_line) command += (command.empty() ? "" : " ") + word;
  std::vector<std::pair<std::string, std::string>> p = {
      {"tool", "pscan-compare"},
      {"date", utc_now()},
      {"version", version_text()},
      {"git_commit", git_commit()},
      {"git_dirty", std::string(git_dirty() ? "yes" : "no") + " (git status at configure time)"},
      {"command", command},
      {"build_type", PSCAN_COMPARE_BUILD_TYPE},
      {"host_compiler", host_compiler()},
      {"cpu", cpu_model()},
      {"omp_max_threads", omp_threads()},
      {"hardware_threads", std::to_string(std::thread::hardware_concurrency())},
      {"data_seed", std::to_string(data_seed) + " (splitmix64 of index ^ seed; compare/types.hpp)"},
      {"cccl_version", cccl_version().empty() ? "none" : cccl_version()},
  };
  if (gpu_unavailable.empty()) {
    const gpu::device_facts f = gpu::facts();
    p.insert(p.end(), {{"gpu", f.name},
                       {"gpu_driver", f.driver_version},
                       {"cuda_runtime", f.runtime_version},
                       {"gpu_sms", std::to_string(f.sm_count)},
                       {"gpu_l2_bytes", std::to_string(f.l2_bytes)},
                       {"gpu_memory_bytes", std::to_string(f.total_bytes)}});
  } else {
    p.emplace_back("gpu", "none: " + gpu_unavailable);
  }
  p.insert(p.end(),
           {{"runs", runs_rule(o.plan)},
            {"timing",
             "GPU: CUDA events on a non-default stream, L2 flushed (2x L2 write) before "
             "each run; CPU: steady_clock, warm caches"},
            {"validation",
             "every cell against pscan::seq on the host before timing; integers and "
             "affine exact, f32/f64 relative tolerance 1e-6/1e-12 (inputs make "
             "order-preserving results exact)"},
            {"bytes",
             "n values read, the segment description read (flags 1 B or keys 4 B per element, "
             "offsets 8 B per segment + 8), the outputs written (one per element or per "
             "segment; a single value is not counted); copy moves n elements (2n*sizeof(T))"},
            {"host_cost", host_cost_rule(o.host_cost)}});
  return p;
}

}  // namespace compare
