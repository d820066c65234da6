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

// The tags; over exact sums each value is lifted, after (keys_first, keys_last, eq, keys_out
// [, runs_out]).
PSCAN_DETAIL_ALGORITHM(reduce_by_key, exact_element_lifting<4>)
PSCAN_DETAIL_ALGORITHM(reduce_by_key_into, exact_element_lifting<5>)

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
    if constexpr (!accepts_runs<P, KeyEq, value_type_t<KeyIt>, Op, A>()) {
      return {keys_out, values_out};  // a static_assert has said why
    } else {
      const std::int64_t n = checked_runs(policy, "pscan::reduce_by_key", keys_first, keys_last,
                                          values, keys_out, values_out);
      const auto call = [&](auto op, KeyIt keys_first, KeyIt keys_last, KeyEq eq, KeyOut keys_out,
                            auto in, auto to) {
        const auto by_scan = [&](KeyIt keys, KeyIt, auto in, KeyOut keys_out, auto to, KeyEq eq,
                                 auto op) {
          std::int64_t runs = 0;  // a host policy writes the count here
          if (n > 0) reduce_runs(policy, keys, n, in, keys_out, to, &runs, eq, op);
          return std::pair<KeyOut, decltype(to)>{keys_out + runs, to + runs};
        };
        return own_or<algorithm::reduce_by_key>(policy, by_scan, keys_first, keys_last, in,
                                                keys_out, to, eq, op);
      };
      return backend_call<A>(policy, algorithm::reduce_by_key{}, op, call, keys_first, keys_last,
                             eq, keys_out, values, values_out);
    }
  }
};

// The generic path of reduce_by_key_into (detail/runs.hpp).
template <class P, class KeyIt, class InIt, class KeyOut, class ValOut, class RunsOut, class KeyEq,
          class Op>
void reduce_runs_into(const P& policy, KeyIt keys_first, std::int64_t n, InIt values,
                      KeyOut keys_out, ValOut values_out, RunsOut runs_out, KeyEq eq, Op op) {
  if (n == 0) {
    // No runs: 0 written where the policy writes (reduce_into of nothing gives its init).
    algorithm::reduce_into::call(policy, keys_first, keys_first, runs_out, std::int64_t{0},
                                 plus<>{});
  } else {
    reduce_runs(policy, keys_first, n, values, keys_out, values_out, runs_out, eq, op);
  }
}

// *runs_out is written even for n == 0 (with 0), so it is checked whatever n is.
struct reduce_by_key_into_fn {
  template <class P, class KeyIt, class InIt, class KeyOut, class ValOut, class RunsOut,
            class KeyEq = equal_to<>, class Op = plus<>>
  void operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, InIt values, KeyOut keys_out,
                  ValOut values_out, RunsOut runs_out, KeyEq eq = {}, Op op = {}) const {
    const profile_range range("pscan::reduce_by_key_into");
    constexpr const char* name = "pscan::reduce_by_key_into";
    using A = value_type_t<InIt>;
    if constexpr (accepts_runs<P, KeyEq, value_type_t<KeyIt>, Op, A>()) {
      const std::int64_t n =
          checked_runs(policy, name, keys_first, keys_last, values, keys_out, values_out);
      check_argument(policy, name, "runs_out", runs_out, 1);
      const auto call = [&](auto op, KeyIt keys_first, KeyIt keys_last, KeyEq eq, KeyOut keys_out,
                            RunsOut runs_out, auto in, auto to) {
        const auto by_scan = [&](KeyIt keys, KeyIt, auto in, KeyOut keys_out, auto to,
                                 RunsOut runs_out, KeyEq eq, auto op) {
          reduce_runs_into(policy, keys, n, in, keys_out, to, runs_out, eq, op);
        };
        own_or<algorithm::reduce_by_key_into>(policy, by_scan, keys_first, keys_last, in, keys_out,
                                              to, runs_out, eq, op);
      };
      backend_call<A>(policy, algorithm::reduce_by_key_into{}, op, call, keys_first, keys_last, eq,
                      keys_out, runs_out, values, values_out);
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
