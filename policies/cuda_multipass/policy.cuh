#pragma once
// pscan::cuda_multipass: the policy object of the recursive multi-pass backend.

#include <pscan/policies/cuda_common/policy.cuh>

#include <cstdint>

namespace pscan::cuda_multipass_backend {

struct policy : cuda_common::policy_base<policy> {
};

}  // namespace pscan::cuda_multipass_backend

namespace pscan {
inline constexpr cuda_multipass_backend::policy cuda_multipass{};
}  // namespace pscan
