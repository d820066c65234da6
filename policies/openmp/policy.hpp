#pragma once
// pscan::omp's policy type: a thread count, 0 for OpenMP's default.

#include <pscan/error.hpp>
#include <pscan/policy.hpp>

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

}  // namespace openmp_backend

inline constexpr openmp_backend::policy omp{};

}  // namespace pscan
