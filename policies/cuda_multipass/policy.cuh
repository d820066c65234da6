#pragma once
// pscan::cuda_multipass: the policy object of the recursive multi-pass backend.

#include <pscan/policies/cuda_common/policy.cuh>

namespace pscan::cuda_multipass_backend {

// The tag of this backend's kernels (cuda_common::kernels).
struct multipass {};

struct policy : cuda_common::policy_base<policy> {
  using backend = multipass;
};

}  // namespace pscan::cuda_multipass_backend

namespace pscan {
inline constexpr cuda_multipass_backend::policy cuda_multipass{};
}  // namespace pscan
