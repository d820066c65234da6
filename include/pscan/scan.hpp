#pragma once
// inclusive_scan, exclusive_scan and scan. The algorithms are function objects: argument-dependent
// lookup never finds them, so a backend's overloads can share their names without ambiguity.
// An `init` is a value or, on the CUDA policies, a pscan::future_value.

#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/profiling.hpp>
#include <pscan/functional.hpp>

#include <cstdint>
#include <iterator>

namespace pscan {
namespace detail {

struct inclusive_scan_fn {
  template <class P, class InIt, class OutIt, class Op = plus<>>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, Op op = {}) const {
    const profile_range range("pscan::inclusive_scan");
    if constexpr (!accepts<P, Op, value_type_t<InIt>>()) {
      return out;  // a static_assert has said why
    } else if constexpr (is_collective_policy_v<P>) {
      return adl_inclusive_scan::call(policy, first, last, out, op);
    } else {
      const std::int64_t n = checked_range(policy, "pscan::inclusive_scan", arg("first", first),
                                           arg("last", last), arg("out", out));
      if (n > 0) adl_inclusive_scan::call(policy, first, last, out, op);
      return out + n;
    }
  }

  template <class P, class InIt, class OutIt, class Op, class T>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, Op op, T init) const {
    const profile_range range("pscan::inclusive_scan");
    constexpr const char* name = "pscan::inclusive_scan";
    if constexpr (!accepts_init<P, Op, T>()) {
      return out;  // a static_assert has said why
    } else if constexpr (is_collective_policy_v<P>) {
      return adl_inclusive_scan::call(policy, first, last, out, op, init);
    } else {
      const std::int64_t n = checked_range(policy, name, arg("first", first), arg("last", last),
                                           arg("out", out));
      check_init(policy, name, init, n > 0);
      if (n > 0) adl_inclusive_scan::call(policy, first, last, out, op, init);
      return out + n;
    }
  }
};

struct exclusive_scan_fn {
  template <class P, class InIt, class OutIt, class T, class Op = plus<>>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, T init, Op op = {}) const {
    const profile_range range("pscan::exclusive_scan");
    constexpr const char* name = "pscan::exclusive_scan";
    if constexpr (!accepts_init<P, Op, T>()) {
      return out;  // a static_assert has said why
    } else if constexpr (is_collective_policy_v<P>) {
      return adl_exclusive_scan::call(policy, first, last, out, init, op);
    } else {
      const std::int64_t n = checked_range(policy, name, arg("first", first), arg("last", last),
                                           arg("out", out));
      check_init(policy, name, init, n > 0);
      if (n > 0) adl_exclusive_scan::call(policy, first, last, out, init, op);
      return out + n;
    }
  }
};

}  // namespace detail

// out[i] = in[0] op ... op in[i]  (with init: init op in[0] op ... op in[i]).
inline constexpr detail::inclusive_scan_fn inclusive_scan{};
// The same as inclusive_scan.
inline constexpr detail::inclusive_scan_fn scan{};
// out[i] = init op in[0] op ... op in[i-1]; out[0] = init.
inline constexpr detail::exclusive_scan_fn exclusive_scan{};

}  // namespace pscan
