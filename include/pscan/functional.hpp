#pragma once
// Function objects usable on host and device. Like <functional>'s, `Op<>` is transparent.

#include <pscan/detail/config.hpp>

#include <utility>

namespace pscan {

template <class T = void>
struct plus {
  PSCAN_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a + b; }
};
template <>
struct plus<void> {
  template <class A, class B>
  PSCAN_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const -> decltype(a + b) {
    return a + b;
  }
};

// exact_plus: a + b, one IEEE addition. An algorithm over float or double values given
// exact_plus writes, for every output, the exact real sum of its terms (and init) rounded once to
// nearest-even, whatever the grouping: the same bits on every policy, thread count, GPU and rank
// count (detail/exact.hpp). Over other value types it is plus.
template <class T = void>
struct exact_plus {
  PSCAN_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a + b; }
};
template <>
struct exact_plus<void> {
  template <class A, class B>
  PSCAN_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const -> decltype(a + b) {
    return a + b;
  }
};

// minimum/maximum return the first argument on ties, as std::min/std::max do.
template <class T = void>
struct minimum {
  PSCAN_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <>
struct minimum<void> {
  template <class T>
  PSCAN_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};

template <class T = void>
struct maximum {
  PSCAN_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <>
struct maximum<void> {
  template <class T>
  PSCAN_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

template <class T = void>
struct equal_to {
  PSCAN_HOST_DEVICE constexpr bool operator()(const T& a, const T& b) const { return a == b; }
};
template <>
struct equal_to<void> {
  template <class A, class B>
  PSCAN_HOST_DEVICE constexpr bool operator()(const A& a, const B& b) const { return a == b; }
};

}  // namespace pscan
