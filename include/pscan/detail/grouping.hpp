#pragma once
// Operators whose combinations give the same bits however they are grouped: integer +, *, min,
// max and the bitwise operators (wrapping arithmetic is exactly associative), and the lifted
// operators of the segmented scans and reduce_by_key over them. A backend may then combine in
// whatever grouping is cheapest at the moment (a CUDA look-back as it is, an omp chunk scanned in
// one pass once its carry is known) and still give the same bits. The plain integer operators
// also commute (order-free); the lifted ones do not: (a, head) must stay left of (b, head).

#include <pscan/detail/runs.hpp>
#include <pscan/detail/segmented_generic.hpp>
#include <pscan/functional.hpp>

#include <functional>
#include <type_traits>

namespace pscan::detail {

template <class Op, class... Ops>
inline constexpr bool is_one_of_v = (std::is_same_v<Op, Ops> || ...);

// Each operation's function objects over T: pscan's and the standard library's, typed and
// transparent.
template <class Op, class T>
inline constexpr bool is_plus_v =
    is_one_of_v<Op, pscan::plus<>, pscan::plus<T>, std::plus<>, std::plus<T>, pscan::exact_plus<>,
                pscan::exact_plus<T>>;
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
inline constexpr bool grouping_free_v<flagged<T>, lifted_op<Op>> =
    grouping_free_v<T, Op>;
template <class T, class Op>
inline constexpr bool grouping_free_v<counted<T>, counted_op<Op>> =
    grouping_free_v<T, Op>;

}  // namespace pscan::detail
