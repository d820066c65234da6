#pragma once
// transform_inclusive_scan, transform_exclusive_scan and transform_reduce, with <numeric>'s
// signatures: the plain algorithms over the input seen through the unary operator f, so every
// policy runs them with no code of its own, and the GPU kernels apply f as they load each
// element (no pass, no temporary; detail/transformed.hpp). f is pure (a backend may call it more
// than once on an element); on the CUDA policies it runs on the device.

#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/profiling.hpp>
#include <pscan/detail/transformed.hpp>
#include <pscan/functional.hpp>
#include <pscan/reduce.hpp>
#include <pscan/scan.hpp>

#include <cstddef>
#include <iterator>
#include <type_traits>

namespace pscan {
namespace detail {

// Whether the host can name f's result type (<numeric>'s accumulator of a transform scan without
// init): not for an extended __device__ lambda.
template <class F>
constexpr bool result_visible() {
#if defined(__CUDACC_EXTENDED_LAMBDA__)
  if constexpr (__nv_is_extended_device_lambda_closure_type(F)) return false;
#endif
  return true;
}

template <class InIt, class F, bool = result_visible<F>()>
struct transform_result {
  using type = std::decay_t<
      std::invoke_result_t<const F&, typename std::iterator_traits<InIt>::reference>>;
};
template <class InIt, class F>
struct transform_result<InIt, F, false> {
  static_assert(result_visible<F>(),
                "pscan::transform_inclusive_scan: the host cannot see the result type of a "
                "__device__ lambda; give an init, or make f __host__ __device__");
  using type = typename std::iterator_traits<InIt>::value_type;
};

// A transform_ scan with an init: f's results are held as init's type.
template <std::size_t N, class P, class InIt, class OutIt, class T, class Op, class F, class Scan>
OutIt scan_with_init(const char (&name)[N], const P& policy, InIt first, InIt last, OutIt out,
                     const T& init, const Op&, F f, Scan&& scan) {
  const profile_range range(name);
  if constexpr (!accepts_init<P, Op, T>()) {
    return out;  // a static_assert has said why
  } else {
    return scan_entry(policy, name, first, last, out, init,
                      transform_input<init_value_t<T>>(first, f), scan);
  }
}

struct transform_inclusive_scan_fn {
  template <class P, class InIt, class OutIt, class Op, class F>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, Op op, F f) const {
    const profile_range range("pscan::transform_inclusive_scan");
    using A = typename transform_result<InIt, F>::type;
    if constexpr (exact_call_v<Op, A>) {  // the exact scan of the values f gives
      const auto in = transform_input<A>(first, f);
      return inclusive_scan_fn{}(policy, in, in + (last - first), out, op);
    } else if constexpr (!accepts<P, Op, A>()) {
      return out;  // a static_assert has said why
    } else {
      return scan_entry(policy, "pscan::transform_inclusive_scan", first, last, out,
                        no_init_argument, transform_input<A>(first, f),
                        [&](auto in, auto in_last) {
                          return adl_inclusive_scan::call(policy, in, in_last, out, op);
                        });
    }
  }

  template <class P, class InIt, class OutIt, class Op, class F, class T>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, Op op, F f, T init) const {
    if constexpr (exact_call_v<Op, init_value_t<T>>) {
      const auto in = transform_input<init_value_t<T>>(first, f);
      return inclusive_scan_fn{}(policy, in, in + (last - first), out, op, init);
    } else {
      return scan_with_init("pscan::transform_inclusive_scan", policy, first, last, out, init, op,
                            f, [&](auto in, auto in_last) {
                              return adl_inclusive_scan::call(policy, in, in_last, out, op, init);
                            });
    }
  }
};

struct transform_exclusive_scan_fn {
  template <class P, class InIt, class OutIt, class T, class Op, class F>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, T init, Op op, F f) const {
    if constexpr (exact_call_v<Op, init_value_t<T>>) {
      const auto in = transform_input<init_value_t<T>>(first, f);
      return exclusive_scan_fn{}(policy, in, in + (last - first), out, init, op);
    } else {
      return scan_with_init("pscan::transform_exclusive_scan", policy, first, last, out, init, op,
                            f, [&](auto in, auto in_last) {
                              return adl_exclusive_scan::call(policy, in, in_last, out, init, op);
                            });
    }
  }
};

struct transform_reduce_fn {
  template <class P, class InIt, class T, class Op, class F>
  init_value_t<T> operator()(P&& policy, InIt first, InIt last, T init, Op op, F f) const {
    const profile_range range("pscan::transform_reduce");
    if constexpr (exact_call_v<Op, init_value_t<T>>) {
      const auto in = transform_input<init_value_t<T>>(first, f);
      return reduce_fn{}(policy, in, in + (last - first), init, op);
    } else if constexpr (!accepts_init<P, Op, T>()) {
      return refused_reduce(init);
    } else {
      return reduce_entry(policy, "pscan::transform_reduce", first, last, init,
                          transform_input<init_value_t<T>>(first, f),
                          [&](auto in, auto in_last) {
                            return adl_reduce::call(policy, in, in_last, init, op);
                          });
    }
  }
};

}  // namespace detail

// out[i] = f(in[0]) op ... op f(in[i])  (with init: init op f(in[0]) op ... op f(in[i])).
inline constexpr detail::transform_inclusive_scan_fn transform_inclusive_scan{};
// out[i] = init op f(in[0]) op ... op f(in[i-1]); out[0] = init.
inline constexpr detail::transform_exclusive_scan_fn transform_exclusive_scan{};
// init op f(in[0]) op ... op f(in[n-1]), in that order, returned to the host.
inline constexpr detail::transform_reduce_fn transform_reduce{};

}  // namespace pscan
