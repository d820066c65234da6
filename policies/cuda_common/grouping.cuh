#pragma once
// The operators that group or order freely (pscan/detail/grouping.hpp) on the GPU: for these the
// decoupled look-back is deterministic as it is, and an order-free reduction may combine each
// lane's strided items first and the lanes in any order (one warp reduction a segment, not one a
// row), with one redux.sync where the operation has one.

#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_scan.cuh>

#include <pscan/detail/grouping.hpp>

#include <type_traits>

namespace pscan::cuda_common {

using pscan::detail::grouping_free_v;
using pscan::detail::is_bit_and_v;
using pscan::detail::is_bit_or_v;
using pscan::detail::is_bit_xor_v;
using pscan::detail::is_max_v;
using pscan::detail::is_min_v;
using pscan::detail::is_plus_v;
using pscan::detail::order_free_v;

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
