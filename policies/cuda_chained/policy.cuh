#pragma once
// pscan::cuda_chained: the policy object of the single-pass chained backend. Besides .on(stream)
// and .with(resource) (cuda_common::policy_base), .deterministic() asks for bitwise identical
// results run to run for any type and operator (the tree look-back instead of the decoupled one,
// where the grouping changes the bits: not for integer sums, products, min, max, bitwise
// operators).

#include <pscan/policies/cuda_common/policy.cuh>

#include <cstdint>

namespace pscan::cuda_chained_backend {

struct policy : cuda_common::policy_base<policy> {
  static constexpr bool sizes_offsets_on_device = true;  // offsets_scan.cuh
  bool is_deterministic = false;

  policy deterministic() const {
    policy p = *this;
    p.is_deterministic = true;
    return p;
  }
};

}  // namespace pscan::cuda_chained_backend

namespace pscan {
inline constexpr cuda_chained_backend::policy cuda_chained{};
}  // namespace pscan
