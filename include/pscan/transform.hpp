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

// A transform_ scan with an init (Tag, the backend `call`): f's results are held as init's type.
template <class Tag, std::size_t N, class P, class InIt, class OutIt, class T, class Op, class F,
          class Call>
OutIt scan_with_init(const char (&name)[N], const P& policy, InIt first, InIt last, OutIt out,
                     const T& init, Op op, F f, const Call& call) {
  const profile_range range(name);
  if constexpr (!accepts_init<P, Op, T>()) {
    return out;  // a static_assert has said why
  } else {
    using A = init_value_t<T>;
    return scan_entry<A, Tag>(policy, name, first, last, out, transform_input<A>(first, f), op,
                              call, init);
  }
}

struct transform_inclusive_scan_fn {
  template <class P, class InIt, class OutIt, class Op, class F>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, Op op, F f) const {
    const profile_range range("pscan::transform_inclusive_scan");
    using A = typename transform_result<InIt, F>::type;
    if constexpr (!accepts<P, Op, A>()) {
      return out;  // a static_assert has said why
    } else {
      return scan_entry<A, algorithm::inclusive_scan>(
          policy, "pscan::transform_inclusive_scan", first, last, out,
          transform_input<A>(first, f), op, inclusive_scan_call<P>{policy});
    }
  }

  template <class P, class InIt, class OutIt, class Op, class F, class T>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, Op op, F f, T init) const {
    return scan_with_init<algorithm::inclusive_scan>("pscan::transform_inclusive_scan", policy,
                                                     first, last, out, init, op, f,
                                                     inclusive_scan_call<P>{policy});
  }
};

struct transform_exclusive_scan_fn {
  template <class P, class InIt, class OutIt, class T, class Op, class F>
  OutIt operator()(P&& policy, InIt first, InIt last, OutIt out, T init, Op op, F f) const {
    return scan_with_init<algorithm::exclusive_scan>("pscan::transform_exclusive_scan", policy,
                                                     first, last, out, init, op, f,
                                                     exclusive_scan_call<P>{policy});
  }
};

struct transform_reduce_fn {
  template <class P, class InIt, class T, class Op, class F>
  init_value_t<T> operator()(P&& policy, InIt first, InIt last, T init, Op op, F f) const {
    const profile_range range("pscan::transform_reduce");
    if constexpr (!accepts_init<P, Op, T>()) {
      return refused_reduce(init);
    } else {
      return reduce_entry(policy, "pscan::transform_reduce", first, last, init,
                          transform_input<init_value_t<T>>(first, f), op);
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
