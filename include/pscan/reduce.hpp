#pragma once
// reduce: init op in[0] op ... op in[n-1], in that order (op need not be commutative), returned
// to the host. reduce_into: the same value written to *result, where the policy runs (on the
// device, stream-ordered and without waiting, for the CUDA policies).

#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/exact.hpp>
#include <pscan/detail/profiling.hpp>
#include <pscan/functional.hpp>

#include <cstdint>

namespace pscan {
namespace detail {

// What reduce does around its backend call `reduce(in_first, in_last)`: over a single-process
// policy, the checks of first, last and a future_value init under `name`, and init itself for
// n == 0 (a collective policy checks on every rank itself). `in` is first itself, or first seen
// through a transform (transform.hpp).
template <class P, class InIt, class T, class In, class Reduce>
init_value_t<T> reduce_entry(const P& policy, const char* name, InIt first, InIt last,
                             const T& init, In in, Reduce&& reduce) {
  if constexpr (is_collective_policy_v<P>) {
    return reduce(in, in + (last - first));
  } else {
    const std::int64_t n = checked_range(policy, name, arg("first", first), arg("last", last));
    check_init(policy, name, init, true);
    // A future_value is read on the device: the backend returns it for n == 0 too.
    if constexpr (!is_deferred_init_v<T>) {
      if (n == 0) return init;
    }
    return reduce(in, in + n);
  }
}

// A static_assert has said why a call is refused; this only gives its entry a return statement.
template <class T>
init_value_t<T> refused_reduce(const T& init) {
  if constexpr (is_deferred_init_v<T>) {
    return init_value_t<T>{};
  } else {
    return init;
  }
}

struct reduce_fn {
  template <class P, class InIt, class T, class Op = plus<>>
  init_value_t<T> operator()(P&& policy, InIt first, InIt last, T init, Op op = {}) const {
    const profile_range range("pscan::reduce");
    using A = init_value_t<T>;
    if constexpr (exact_call_v<Op, A>) {  // every policy, the CUDA ones too: no accepts()
      require_policy<P>();
      if constexpr (!is_collective_policy_v<P>) {  // its own iterators: the blocks' pass
        checked_range(policy, "pscan::reduce", arg("first", first), arg("last", last));
      }
      const exact_blocks<A, InIt> blocks(first, last);
      const exact_sum<A> sum = exact_init<A>(init);
      return reduce_entry(policy, "pscan::reduce", blocks.first, blocks.last, sum, blocks.first,
                          [&](auto in, auto in_last) {
                            return adl_reduce::call(policy, in, in_last, sum, exact_add{});
                          })
          .rounded();
    } else if constexpr (!accepts_init<P, Op, T>()) {
      return refused_reduce(init);
    } else {
      return reduce_entry(policy, "pscan::reduce", first, last, init, first,
                          [&](InIt in, InIt in_last) {
                            return adl_reduce::call(policy, in, in_last, init, op);
                          });
    }
  }
};

// *result is written even for n == 0 (with init), so `result` is checked whatever n is.
struct reduce_into_fn {
  template <class P, class InIt, class OutIt, class T, class Op = plus<>>
  void operator()(P&& policy, InIt first, InIt last, OutIt result, T init, Op op = {}) const {
    const profile_range range("pscan::reduce_into");
    constexpr const char* name = "pscan::reduce_into";
    using A = init_value_t<T>;
    if constexpr (exact_call_v<Op, A>) {  // every policy, the CUDA ones too: no accepts()
      require_policy<P>();
      if constexpr (!is_collective_policy_v<P>) {
        checked_range(policy, name, arg("first", first), arg("last", last));
        check_argument(policy, name, "result", result, 1);
      }
      const exact_blocks<A, InIt> blocks(first, last);
      adl_reduce_into::call(policy, blocks.first, blocks.last, exact_out<A>(result),
                            exact_init<A>(init), exact_add{});
    } else if constexpr (!accepts_init<P, Op, T>()) {
      return;  // a static_assert has said why
    } else if constexpr (is_collective_policy_v<P>) {
      adl_reduce_into::call(policy, first, last, result, init, op);
    } else {
      checked_range(policy, name, arg("first", first), arg("last", last));
      check_argument(policy, name, "result", result, 1);
      check_init(policy, name, init, true);
      adl_reduce_into::call(policy, first, last, result, init, op);
    }
  }
};

}  // namespace detail

inline constexpr detail::reduce_fn reduce{};
inline constexpr detail::reduce_into_fn reduce_into{};

}  // namespace pscan
