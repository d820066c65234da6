#pragma once
// pscan::omp's policy type and how many threads a call starts.

#include <pscan/error.hpp>
#include <pscan/policy.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace pscan {
namespace openmp_backend {

struct policy : execution_policy_base {
  // A copy that runs on `count` threads; 0 means OpenMP's default (OMP_NUM_THREADS).
  policy threads(int count) const {
    if (count < 0) {
      throw invalid_argument("pscan::omp.threads: `count` must be >= 0 (got " +
                             std::to_string(count) + ")");
    }
    policy copy = *this;
    copy.threads_ = count;
    return copy;
  }
  constexpr int threads() const noexcept { return threads_; }

 private:
  int threads_ = 0;
};

namespace detail {

// The team for `work` items: at most the policy's thread count, and no thread with fewer than
// `min_per_thread` items (a parallel region costs microseconds: a thread must save more than
// that). A result below 2 means: run serially on the calling thread.
inline int team_size(const policy& p, std::int64_t work, std::int64_t min_per_thread) {
  const std::int64_t wanted = p.threads() > 0 ? p.threads() : omp_get_max_threads();
  return static_cast<int>(std::min(wanted, work / min_per_thread));
}

}  // namespace detail
}  // namespace openmp_backend

inline constexpr openmp_backend::policy omp{};

}  // namespace pscan
