#pragma once
// pscan::cuda_chained: the policy object of the single-pass chained backend. Besides .on(stream)
// and .with(resource) (cuda::policy_base), .deterministic() asks for bitwise identical results
// run to run for any type and operator (the tree look-back instead of the decoupled one, where
// the grouping changes the bits: not for integer sums, products, min, max, bitwise operators).

#include <cuda_common/policy.cuh>

#include <cstdint>

namespace pscan::chained {

struct policy : cuda::policy_base<policy> {
  bool is_deterministic = false;

  policy deterministic() const {
    policy p = *this;
    p.is_deterministic = true;
    return p;
  }
};

// The check_iterator hook of the dispatch layer (null and host pointers are rejected).
template <class It>
void check_iterator(const policy&, const char* algorithm, const char* argument, It it,
                    std::int64_t n) {
  cuda::check_iterator(algorithm, argument, it, n);
}

}  // namespace pscan::chained

namespace pscan {
inline constexpr chained::policy cuda_chained{};
}  // namespace pscan
