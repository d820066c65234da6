#pragma once
// pscan::cuda_chained: the policy object of the single-pass chained backend, and what the backend
// implements. Besides .on(stream) and .with(resource) (cuda_common::policy_base), .deterministic()
// asks for bitwise identical results run to run for any type and operator (the tree look-back
// instead of the decoupled one, where the grouping changes the bits: not for integer sums,
// products, min, max, bitwise operators).

#include <cuda_common/policy.cuh>

#include <cstdint>

namespace pscan::cuda_chained_backend {

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
  using kernels = cuda_chained_backend::kernels;
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
