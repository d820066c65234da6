#pragma once
// inclusive_scan, exclusive_scan and scan. The algorithms are function objects: argument-dependent
// lookup never finds them, so a backend's overloads can share their names without ambiguity.
// An `init` is a value or, on the CUDA policies, a pscan::future_value.

#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/exact.hpp>
#include <pscan/detail/profiling.hpp>
#include <pscan/functional.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace pscan {
namespace detail {

// What every scan entry does around its backend call `scan(in_first, in_last)`: over a
// single-process policy, the checks of first, last, out and a future_value init under `name`, and
// no call for n == 0 (a collective policy checks its arguments on every rank itself). `in` is
// first itself, or first seen through a transform (transform.hpp). Returns out + n.
template <class P, class InIt, class OutIt, class Init, class In, class Scan>
OutIt scan_entry(const P& policy, const char* name, InIt first, InIt last, OutIt out,
                 const Init& init, In in, Scan&& scan) {
  if constexpr (is_collective_policy_v<P>) {
    return scan(in, in + (last - first));
  } else {
    const std::int64_t n = checked_range(policy, name, arg("first", first), arg("last", last),
                                         arg("out", out));
    check_init(policy, name, init, n > 0);
    if (n > 0) scan(in, in + n);
    return out + n;
  }
}

// An exact_plus scan (exact.hpp): `scan(blocks_first, blocks_last, outputs)` is the backend's
// scan over blocks, given their inclusive or exclusive prefixes as the outputs are. Its own
// iterators are checked first (the blocks cannot be inspected); a collective policy checks on
// every rank itself. Returns out + n.
template <class A, class P, class InIt, class OutIt, class Init, class Scan>
OutIt exact_scan_entry(const P& policy, const char* name, InIt first, InIt last, OutIt out,
                       const Init& init, bool inclusive, Scan&& scan) {
  require_policy<P>();
  if constexpr (!is_collective_policy_v<P>) {
    checked_range(policy, name, arg("first", first), arg("last", last), arg("out", out));
  }
  const exact_blocks<A, InIt> blocks(first, last);
  const auto outputs = exact_block_out<A>(first, out, last - first, inclusive);
  scan_entry(policy, name, blocks.first, blocks.last, outputs, init, blocks.first,
             [&](auto in, auto in_last) { return scan(in, in_last, outputs); });
  return out + (last - first);
}

// The init argument of scan_entry for a scan without one.
inline constexpr std::nullptr_t no_init_argument = nullptr;

struct inclusive_scan_fn {
  template <class P, class InIt, class OutIt, class Op = plus<>>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, Op op = {}) const {
    const profile_range range("pscan::inclusive_scan");
    using A = value_type_t<InIt>;
    if constexpr (exact_call_v<Op, A>) {  // over blocks, given their inclusive sums
      return exact_scan_entry<A>(policy, "pscan::inclusive_scan", first, last, out,
                                 no_init_argument, true, [&](auto in, auto in_last, auto outputs) {
                                   return adl_inclusive_scan::call(policy, in, in_last, outputs,
                                                                   exact_add{});
                                 });
    } else if constexpr (!accepts<P, Op, A>()) {
      return out;  // a static_assert has said why
    } else {
      return scan_entry(policy, "pscan::inclusive_scan", first, last, out, no_init_argument, first,
                        [&](InIt in, InIt in_last) {
                          return adl_inclusive_scan::call(policy, in, in_last, out, op);
                        });
    }
  }

  template <class P, class InIt, class OutIt, class Op, class T>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, Op op, T init) const {
    const profile_range range("pscan::inclusive_scan");
    using A = init_value_t<T>;
    if constexpr (exact_call_v<Op, A>) {
      const exact_sum<A> sum = exact_init<A>(init);
      return exact_scan_entry<A>(policy, "pscan::inclusive_scan", first, last, out, sum, true,
                                 [&](auto in, auto in_last, auto outputs) {
                                   return adl_inclusive_scan::call(policy, in, in_last, outputs,
                                                                   exact_add{}, sum);
                                 });
    } else if constexpr (!accepts_init<P, Op, T>()) {
      return out;  // a static_assert has said why
    } else {
      return scan_entry(policy, "pscan::inclusive_scan", first, last, out, init, first,
                        [&](InIt in, InIt in_last) {
                          return adl_inclusive_scan::call(policy, in, in_last, out, op, init);
                        });
    }
  }
};

struct exclusive_scan_fn {
  template <class P, class InIt, class OutIt, class T, class Op = plus<>>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, T init, Op op = {}) const {
    const profile_range range("pscan::exclusive_scan");
    using A = init_value_t<T>;
    if constexpr (exact_call_v<Op, A>) {  // over blocks, given their exclusive sums
      const exact_sum<A> sum = exact_init<A>(init);
      return exact_scan_entry<A>(policy, "pscan::exclusive_scan", first, last, out, sum, false,
                                 [&](auto in, auto in_last, auto outputs) {
                                   return adl_exclusive_scan::call(policy, in, in_last, outputs,
                                                                   sum, exact_add{});
                                 });
    } else if constexpr (!accepts_init<P, Op, T>()) {
      return out;  // a static_assert has said why
    } else {
      return scan_entry(policy, "pscan::exclusive_scan", first, last, out, init, first,
                        [&](InIt in, InIt in_last) {
                          return adl_exclusive_scan::call(policy, in, in_last, out, init, op);
                        });
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
