#pragma once
// pscan::cuda_multipass: the policy object of the recursive multi-pass backend, and what the
// backend implements.

#include <cuda_common/policy.cuh>

#include <cstdint>

namespace pscan::cuda_multipass_backend {

struct policy;

// The launchers every algorithm of cuda_common/algorithms/ runs with, for build Build
// (cuda_common/target.cuh).
struct kernels {
  // out[0 .. n) = the scan of first[0 .. n) (n > 0; a plain or a segmented input): scan.cuh.
  template <class Build, bool Exclusive, bool HasInit, class InIt, class OutIt, class Init,
            class Op>
  static void scan(const policy& p, InIt first, std::int64_t n, OutIt out, const Init& init,
                   Op op);
  // init op first[0] op ... op first[n - 1] (n > 0) into the sink make_sink() returns, which it
  // returns: reduce.cuh.
  template <class Build, class InIt, class Init, class Op, class MakeSink>
  static auto reduce(const policy& p, InIt first, std::int64_t n, const Init& init, Op op,
                     MakeSink make_sink);
};

struct policy : cuda_common::policy_base<policy> {
  using kernels = cuda_multipass_backend::kernels;
};

}  // namespace pscan::cuda_multipass_backend

namespace pscan {
inline constexpr cuda_multipass_backend::policy cuda_multipass{};
}  // namespace pscan
