#pragma once
// reduce: init op in[0] op ... op in[n-1], in that order (op need not be commutative).

#include <pscan/detail/dispatch.hpp>
#include <pscan/functional.hpp>

#include <cstdint>

namespace pscan {
namespace detail {

struct reduce_fn {
  template <class P, class InIt, class T, class Op = plus<>>
  T operator()(P&& policy, InIt first, InIt last, T init, Op op = {}) const {
    if constexpr (!accepts<P, Op, T>()) {
      return init;  // a static_assert has said why
    } else if constexpr (is_collective_policy_v<P>) {
      return adl_reduce::call(policy, first, last, init, op);
    } else {
      const std::int64_t n =
          checked_range(policy, "pscan::reduce", arg("first", first), arg("last", last));
      if (n == 0) return init;
      return adl_reduce::call(policy, first, last, init, op);
    }
  }
};

}  // namespace detail

inline constexpr detail::reduce_fn reduce{};

}  // namespace pscan
