#pragma once
// pscan::exact_plus over float and double values. Every algorithm runs as it is, on every policy,
// over exact sums (exact_sum.hpp) in place of the values: each value lifted to its exact sum as
// it is read, exact sums added exactly, and each output rounded once as it is written. Since the
// sums are exact, no grouping a policy chooses (thread count, tiles, look-back, ranks) can change
// a bit of the result. Each public algorithm forwards such a call to itself over the lifted
// iterators (exact_in, exact_out) and the exact operator.

#include <pscan/detail/exact_sum.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/detail/transformed.hpp>
#include <pscan/functional.hpp>
#include <pscan/future_value.hpp>

#include <cstdint>
#include <type_traits>

namespace pscan::detail {

// Whether a call with operator Op over accumulator type A sums exactly.
template <class Op, class A>
inline constexpr bool exact_call_v =
    (std::is_same_v<Op, exact_plus<>> || std::is_same_v<Op, exact_plus<A>>) &&
    (std::is_same_v<A, float> || std::is_same_v<A, double>);

template <class T>
struct exact_lift {
  PSCAN_HOST_DEVICE exact_sum<T> operator()(const T& x) const { return exact_sum<T>::of(x); }
};

// The operator over exact sums: exact, so order-free as integer addition is.
struct exact_add {
  template <class T>
  PSCAN_HOST_DEVICE exact_sum<T> operator()(const exact_sum<T>& a, const exact_sum<T>& b) const {
    return a + b;
  }
};

// Element i of an output seen as exact sums: assigning one writes it rounded to out[i].
template <class T, class OutIt>
struct rounded_output {
  struct slot {
    OutIt out;
    PSCAN_CALLS_WHAT_IT_IS_GIVEN
    PSCAN_HOST_DEVICE const slot& operator=(const exact_sum<T>& s) const {
      *out = s.rounded();
      return *this;
    }
  };
  OutIt out;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE slot operator()(std::int64_t i) const { return {out + i}; }
};

// The input as exact sums of T (its values converted to T first, as an accumulator of T would).
template <class T, class InIt>
auto exact_in(InIt first) {
  return transform_input<exact_sum<T>>(first, exact_lift<T>{});
}

template <class T, class OutIt>
index_iterator<rounded_output<T, OutIt>> exact_out(OutIt out) {
  return {rounded_output<T, OutIt>{out}};
}

template <class T, class Init>
exact_sum<T> exact_init(const Init& init) {
  static_assert(!is_future_value_v<Init>,
                "pscan::exact_plus: give the init as a value (a future_value is read on the "
                "device)");
  return exact_sum<T>::of(static_cast<T>(init));
}

// The user's output iterator at the position an algorithm returned over exact_out(out).
template <class OutIt, class F>
OutIt exact_back(OutIt out, const index_iterator<F>& end) {
  return out + end.position();
}

}  // namespace pscan::detail
