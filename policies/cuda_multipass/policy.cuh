#pragma once
// The policy type of pscan::cuda_multipass and its argument check.

#include <cuda_common/policy.cuh>

#include <cstdint>

namespace pscan::multipass {

struct policy : cuda::policy_base<policy> {};

template <class It>
void check_iterator(const policy&, const char* algorithm, const char* argument, It it,
                    std::int64_t n) {
  cuda::check_iterator(algorithm, argument, it, n);
}

}  // namespace pscan::multipass
