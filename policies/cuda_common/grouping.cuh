#pragma once
// Operators whose combinations give the same bits however they are grouped: integer +, *, min,
// max and the bitwise operators (wrapping arithmetic is exactly associative), and the lifted
// operators of the segmented scans and reduce_by_key over them. For these the decoupled look-back
// is deterministic as it is. The plain integer operators also commute (order-free): a reduction
// may combine each lane's strided items first and the lanes in any order (one warp reduction a
// segment, not one a row). The lifted operators do not commute: (a, head) must stay left of
// (b, head), so their reductions keep the order.

#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_scan.cuh>

#include <pscan/detail/runs.hpp>
#include <pscan/detail/segmented_generic.hpp>
#include <pscan/functional.hpp>

#include <functional>
#include <type_traits>

namespace pscan::cuda_common {

template <class Op, class... Ops>
inline constexpr bool is_one_of_v = (std::is_same_v<Op, Ops> || ...);

// Each operation's function objects over T: pscan's and the standard library's, typed and
// transparent.
template <class Op, class T>
inline constexpr bool is_plus_v =
    is_one_of_v<Op, pscan::plus<>, pscan::plus<T>, std::plus<>, std::plus<T>>;
template <class Op, class T>
inline constexpr bool is_min_v = is_one_of_v<Op, pscan::minimum<>, pscan::minimum<T>>;
template <class Op, class T>
inline constexpr bool is_max_v = is_one_of_v<Op, pscan::maximum<>, pscan::maximum<T>>;
template <class Op, class T>
inline constexpr bool is_multiplies_v = is_one_of_v<Op, std::multiplies<>, std::multiplies<T>>;
template <class Op, class T>
inline constexpr bool is_bit_and_v = is_one_of_v<Op, std::bit_and<>, std::bit_and<T>>;
template <class Op, class T>
inline constexpr bool is_bit_or_v = is_one_of_v<Op, std::bit_or<>, std::bit_or<T>>;
template <class Op, class T>
inline constexpr bool is_bit_xor_v = is_one_of_v<Op, std::bit_xor<>, std::bit_xor<T>>;

// Same bits in any grouping and any order: the commutative integer operators.
template <class A, class Op>
inline constexpr bool order_free_v =
    std::is_integral_v<A> &&
    (is_plus_v<Op, A> || is_multiplies_v<Op, A> || is_min_v<Op, A> || is_max_v<Op, A> ||
     is_bit_and_v<Op, A> || is_bit_or_v<Op, A> || is_bit_xor_v<Op, A>);

// Same bits in any grouping (the order kept).
template <class A, class Op>
inline constexpr bool grouping_free_v = order_free_v<A, Op>;

// The lifted operator of a segmented scan, and reduce_by_key's, group as freely as the operator
// they lift (run counts add exactly), but are not order-free.
template <class T, class Op>
inline constexpr bool grouping_free_v<pscan::detail::flagged<T>, pscan::detail::lifted_op<Op>> =
    grouping_free_v<T, Op>;
template <class T, class Op>
inline constexpr bool grouping_free_v<pscan::detail::counted<T>, pscan::detail::counted_op<Op>> =
    grouping_free_v<T, Op>;

// The operation of a 32-bit integer redux.sync (sm_80 on) that an order-free operator is, if any.
enum class redux_kind { none, add, min, max, bit_and, bit_or, bit_xor };

template <class T, class Op>
inline constexpr redux_kind redux_kind_v =
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    redux_kind::none;
#else
    !order_free_v<T, Op> || sizeof(T) != 4 ? redux_kind::none
    : is_plus_v<Op, T>                     ? redux_kind::add
    : is_min_v<Op, T>                      ? redux_kind::min
    : is_max_v<Op, T>                      ? redux_kind::max
    : is_bit_and_v<Op, T>                  ? redux_kind::bit_and
    : is_bit_or_v<Op, T>                   ? redux_kind::bit_or
    : is_bit_xor_v<Op, T>                  ? redux_kind::bit_xor
                                           : redux_kind::none;
#endif

namespace detail {

template <redux_kind Kind, class T>
__device__ __forceinline__ T warp_redux(T x) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  using word = std::conditional_t<std::is_signed_v<T>, int, unsigned>;  // min and max compare
  if constexpr (Kind == redux_kind::add) {
    return static_cast<T>(__reduce_add_sync(full_warp_mask, static_cast<unsigned>(x)));
  } else if constexpr (Kind == redux_kind::min) {
    return static_cast<T>(__reduce_min_sync(full_warp_mask, static_cast<word>(x)));
  } else if constexpr (Kind == redux_kind::max) {
    return static_cast<T>(__reduce_max_sync(full_warp_mask, static_cast<word>(x)));
  } else if constexpr (Kind == redux_kind::bit_and) {
    return static_cast<T>(__reduce_and_sync(full_warp_mask, static_cast<unsigned>(x)));
  } else if constexpr (Kind == redux_kind::bit_or) {
    return static_cast<T>(__reduce_or_sync(full_warp_mask, static_cast<unsigned>(x)));
  } else {
    return static_cast<T>(__reduce_xor_sync(full_warp_mask, static_cast<unsigned>(x)));
  }
#else
  return x;  // never called: redux_kind_v is none before sm_80
#endif
}

}  // namespace detail

// Total of the 32 lanes for an order-free operator, in the cheapest order: one redux.sync where
// there is one, else a butterfly without warp_reduce's order-keeping select.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce_any_order(T x, Op op) {
  static_assert(order_free_v<T, Op>, "pscan: only for operators that neither group nor order");
  if constexpr (redux_kind_v<T, Op> != redux_kind::none) {
    return detail::warp_redux<redux_kind_v<T, Op>>(x);
  } else {
#pragma unroll
    for (int d = warp_threads / 2; d >= 1; d /= 2) {
      x = static_cast<T>(op(x, warp_shuffle_xor(x, d)));
    }
    return x;
  }
}

}  // namespace pscan::cuda_common
