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

PSCAN_DETAIL_ALGORITHM(reduce, exact_reduce_lifting)
PSCAN_DETAIL_ALGORITHM(reduce_into, exact_reduce_into_lifting)

// The backend calls of reduce and reduce_into (backend_call's `call`).
template <class P>
struct reduce_call {
  const P& policy;
  template <class Op, class In, class Init>
  decltype(auto) operator()(Op op, In in, In in_last, const Init& init) const {
    return algorithm::reduce::call(policy, in, in_last, init, op);
  }
};
template <class P>
struct reduce_into_call {
  const P& policy;
  template <class Op, class In, class Out, class Init>
  void operator()(Op op, In in, In in_last, Out result, const Init& init) const {
    algorithm::reduce_into::call(policy, in, in_last, result, init, op);
  }
};

// What reduce does around its backend call: the checks of first, last and a future_value init
// under `name`, and init itself for n == 0 on a single-process policy. `in` is first itself, or
// first seen through a transform (transform.hpp).
template <class P, class InIt, class T, class In, class Op>
init_value_t<T> reduce_entry(const P& policy, const char* name, InIt first, InIt last,
                             const T& init, In in, Op op) {
  const std::int64_t n = checked_range(policy, name, arg("first", first), arg("last", last));
  check_init(policy, name, init, true);
  // A future_value is read on the device: the backend returns it for n == 0 too.
  if constexpr (!is_deferred_init_v<T>) {
    if (nothing_to_do(policy, n)) return init;
  }
  return backend_call<init_value_t<T>>(policy, algorithm::reduce{}, op, reduce_call<P>{policy}, in,
                                       in + n, init);
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
    if constexpr (!accepts_init<P, Op, T>()) {
      return refused_reduce(init);
    } else {
      return reduce_entry(policy, "pscan::reduce", first, last, init, first, op);
    }
  }
};

// *result is written even for n == 0 (with init), so `result` is checked whatever n is.
struct reduce_into_fn {
  template <class P, class InIt, class OutIt, class T, class Op = plus<>>
  void operator()(P&& policy, InIt first, InIt last, OutIt result, T init, Op op = {}) const {
    const profile_range range("pscan::reduce_into");
    constexpr const char* name = "pscan::reduce_into";
    if constexpr (accepts_init<P, Op, T>()) {
      checked_range(policy, name, arg("first", first), arg("last", last));
      check_argument(policy, name, "result", result, 1);
      check_init(policy, name, init, true);
      backend_call<init_value_t<T>>(policy, algorithm::reduce_into{}, op,
                                    reduce_into_call<P>{policy}, first, last, result, init);
    }
  }
};

}  // namespace detail

inline constexpr detail::reduce_fn reduce{};
inline constexpr detail::reduce_into_fn reduce_into{};

}  // namespace pscan
