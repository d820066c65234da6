#pragma once
// reduce_by_key (Thrust's and CUB's): the runs of consecutive equal keys, each reduced to one
// value. reduce_by_key returns the ends of both outputs to the host; reduce_by_key_into leaves the
// number of runs in *runs_out, where the policy runs (on the device, stream-ordered and without
// waiting, for the CUDA policies: capturable into a CUDA graph). A backend without its own gets
// the generic path of detail/runs.hpp; a device backend implements both forms, the returning one
// bringing the count home.

#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/exact.hpp>
#include <pscan/detail/profiling.hpp>
#include <pscan/detail/runs.hpp>
#include <pscan/functional.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace pscan {
namespace detail {

// The checks of both forms; returns n.
template <class P, class KeyIt, class InIt, class KeyOut, class ValOut>
std::int64_t checked_runs(const P& policy, const char* name, KeyIt keys_first, KeyIt keys_last,
                          InIt values, KeyOut keys_out, ValOut values_out) {
  const std::int64_t n = checked_range(policy, name, arg("keys_first", keys_first),
                                       arg("keys_last", keys_last), arg("values", values));
  // The outputs hold one element a run: at least one for n > 0 and at most n (how many the keys
  // say), checked as n.
  check_argument(policy, name, "keys_out", keys_out, n);
  check_argument(policy, name, "values_out", values_out, n);
  return n;
}

template <class P, class KeyEq, class Key, class Op, class Value>
constexpr bool accepts_runs() {
  return accepts<P, Op, Value>() && accepts_keys<KeyEq, Key>();
}

struct reduce_by_key_fn {
  template <class P, class KeyIt, class InIt, class KeyOut, class ValOut,
            class KeyEq = equal_to<>, class Op = plus<>>
  std::pair<KeyOut, ValOut> operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, InIt values,
                                       KeyOut keys_out, ValOut values_out, KeyEq eq = {},
                                       Op op = {}) const {
    const profile_range range("pscan::reduce_by_key");
    using A = value_type_t<InIt>;
    if constexpr (exact_call_v<Op, A>) {
      const auto ends = (*this)(policy, keys_first, keys_last, exact_in<A>(values), keys_out,
                                exact_out<A>(values_out), eq, exact_add{});
      return {ends.first, exact_back(values_out, ends.second)};
    } else if constexpr (!accepts_runs<P, KeyEq, value_type_t<KeyIt>, Op, A>()) {
      return {keys_out, values_out};  // a static_assert has said why
    } else if constexpr (is_collective_policy_v<P>) {
      return adl_reduce_by_key::call(policy, keys_first, keys_last, values, keys_out, values_out,
                                     eq, op);
    } else {
      const std::int64_t n = checked_runs(policy, "pscan::reduce_by_key", keys_first, keys_last,
                                          values, keys_out, values_out);
      using Pd = std::decay_t<P>;
      if constexpr (adl_reduce_by_key::available<Pd, KeyIt, KeyIt, InIt, KeyOut, ValOut, KeyEq,
                                                 Op>) {
        return adl_reduce_by_key::call(policy, keys_first, keys_last, values, keys_out,
                                       values_out, eq, op);
      } else {
        if (n == 0) return {keys_out, values_out};
        std::int64_t runs = 0;  // a host policy writes the count here
        reduce_runs(policy, keys_first, n, values, keys_out, values_out, &runs, eq, op);
        return {keys_out + runs, values_out + runs};
      }
    }
  }
};

// *runs_out is written even for n == 0 (with 0), so it is checked whatever n is.
struct reduce_by_key_into_fn {
  template <class P, class KeyIt, class InIt, class KeyOut, class ValOut, class RunsOut,
            class KeyEq = equal_to<>, class Op = plus<>>
  void operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, InIt values, KeyOut keys_out,
                  ValOut values_out, RunsOut runs_out, KeyEq eq = {}, Op op = {}) const {
    const profile_range range("pscan::reduce_by_key_into");
    constexpr const char* name = "pscan::reduce_by_key_into";
    using A = value_type_t<InIt>;
    if constexpr (exact_call_v<Op, A>) {
      (*this)(policy, keys_first, keys_last, exact_in<A>(values), keys_out,
              exact_out<A>(values_out), runs_out, eq, exact_add{});
    } else if constexpr (!accepts_runs<P, KeyEq, value_type_t<KeyIt>, Op, A>()) {
      return;  // a static_assert has said why
    } else if constexpr (is_collective_policy_v<P>) {
      adl_reduce_by_key_into::call(policy, keys_first, keys_last, values, keys_out, values_out,
                                   runs_out, eq, op);
    } else {
      const std::int64_t n =
          checked_runs(policy, name, keys_first, keys_last, values, keys_out, values_out);
      check_argument(policy, name, "runs_out", runs_out, 1);
      using Pd = std::decay_t<P>;
      if constexpr (adl_reduce_by_key_into::available<Pd, KeyIt, KeyIt, InIt, KeyOut, ValOut,
                                                      RunsOut, KeyEq, Op>) {
        adl_reduce_by_key_into::call(policy, keys_first, keys_last, values, keys_out, values_out,
                                     runs_out, eq, op);
      } else if (n == 0) {
        // No runs: 0 written where the policy writes (reduce_into of nothing gives its init).
        adl_reduce_into::call(policy, keys_first, keys_first, runs_out, std::int64_t{0},
                              plus<>{});
      } else {
        reduce_runs(policy, keys_first, n, values, keys_out, values_out, runs_out, eq, op);
      }
    }
  }
};

}  // namespace detail

// For each run of consecutive keys equal by eq: its first key to keys_out, the reduction of its
// values (in order, op need only be associative) to values_out. Returns the ends of both outputs.
inline constexpr detail::reduce_by_key_fn reduce_by_key{};
// The same, the number of runs written to *runs_out instead of returned.
inline constexpr detail::reduce_by_key_into_fn reduce_by_key_into{};

}  // namespace pscan
