#pragma once
// pscan::cuda_chained: the policy objects of the single-pass chained backend. Besides .on(stream)
// and .with(resource) (cuda_common::policy_base), .deterministic() asks for bitwise identical
// results run to run for any type and operator (the tree look-back instead of the decoupled one,
// where the grouping changes the bits: not for integer sums, products, min, max, bitwise
// operators). It is part of the policy's type, so that a call that does not ask for it compiles
// no tree look-back.

#include <pscan/policies/cuda_common/policy.cuh>

namespace pscan::cuda_chained_backend {

// The tag of this backend's kernels (cuda_common::kernels).
struct chained {};

template <bool Deterministic>
struct basic_policy : cuda_common::policy_base<basic_policy<Deterministic>> {
  using backend = chained;
  static constexpr bool sizes_offsets_on_device = true;  // offsets_scan.cuh
  static constexpr bool is_deterministic = Deterministic;

  basic_policy<true> deterministic() const {
    basic_policy<true> p;
    static_cast<cuda_common::policy_state&>(p) = *this;
    return p;
  }
};

using policy = basic_policy<false>;
using deterministic_policy = basic_policy<true>;

}  // namespace pscan::cuda_chained_backend

namespace pscan {
inline constexpr cuda_chained_backend::policy cuda_chained{};
}  // namespace pscan
