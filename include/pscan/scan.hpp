#pragma once
// inclusive_scan, exclusive_scan and scan. The algorithms are function objects: argument-dependent
// lookup never finds them, so a backend's overloads can share their names without ambiguity.
// An `init` is a value or, on the CUDA policies, a pscan::future_value.

#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/exact.hpp>
#include <pscan/detail/profiling.hpp>
#include <pscan/functional.hpp>

#include <cstdint>
#include <iterator>

namespace pscan {
namespace detail {

// The scans' tags: an exact scan runs over blocks, given their prefixes (exact.hpp).
PSCAN_DETAIL_ALGORITHM(inclusive_scan, exact_scan_lifting<true>)
PSCAN_DETAIL_ALGORITHM(exclusive_scan, exact_scan_lifting<false>)

// The backend calls of the scans (backend_call's `call`), with an init or without.
template <class P>
struct inclusive_scan_call {
  const P& policy;
  template <class Op, class In, class Out, class... Init>
  decltype(auto) operator()(Op op, In in, In in_last, Out out, const Init&... init) const {
    return algorithm::inclusive_scan::call(policy, in, in_last, out, op, init...);
  }
};
template <class P>
struct exclusive_scan_call {
  const P& policy;
  template <class Op, class In, class Out, class Init>
  decltype(auto) operator()(Op op, In in, In in_last, Out out, const Init& init) const {
    return algorithm::exclusive_scan::call(policy, in, in_last, out, init, op);
  }
};

// What every scan entry does around its backend call (backend_call over the accumulator type A,
// under `tag`): the checks of first, last, out and a future_value init under `name`, and no call
// for n == 0 on a single-process policy. `in` is first itself, or first seen through a transform
// (transform.hpp). Returns out + n.
template <class A, class Tag, class P, class InIt, class OutIt, class In, class Op, class Call,
          class... Init>
OutIt scan_entry(const P& policy, const char* name, InIt first, InIt last, OutIt out, In in,
                 Op op, const Call& call, const Init&... init) {
  const std::int64_t n =
      checked_range(policy, name, arg("first", first), arg("last", last), arg("out", out));
  (check_init(policy, name, init, n > 0), ...);
  if (nothing_to_do(policy, n)) return out;
  return ends_at(policy, out + n, [&] {
    return backend_call<A>(policy, Tag{}, op, call, in, in + n, out, init...);
  });
}

struct inclusive_scan_fn {
  template <class P, class InIt, class OutIt, class Op = plus<>>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, Op op = {}) const {
    const profile_range range("pscan::inclusive_scan");
    using A = value_type_t<InIt>;
    if constexpr (!accepts<P, Op, A>()) {
      return out;  // a static_assert has said why
    } else {
      return scan_entry<A, algorithm::inclusive_scan>(policy, "pscan::inclusive_scan", first, last,
                                                      out, first, op,
                                                      inclusive_scan_call<P>{policy});
    }
  }

  template <class P, class InIt, class OutIt, class Op, class T>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, Op op, T init) const {
    const profile_range range("pscan::inclusive_scan");
    if constexpr (!accepts_init<P, Op, T>()) {
      return out;  // a static_assert has said why
    } else {
      return scan_entry<init_value_t<T>, algorithm::inclusive_scan>(
          policy, "pscan::inclusive_scan", first, last, out, first, op,
          inclusive_scan_call<P>{policy}, init);
    }
  }
};

struct exclusive_scan_fn {
  template <class P, class InIt, class OutIt, class T, class Op = plus<>>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, T init, Op op = {}) const {
    const profile_range range("pscan::exclusive_scan");
    if constexpr (!accepts_init<P, Op, T>()) {
      return out;  // a static_assert has said why
    } else {
      return scan_entry<init_value_t<T>, algorithm::exclusive_scan>(
          policy, "pscan::exclusive_scan", first, last, out, first, op,
          exclusive_scan_call<P>{policy}, init);
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
