#pragma once
// Element types, operators, input values and the validation predicate, usable on host and device.

#include "matrix.hpp"

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define COMPARE_HD __host__ __device__
#else
#define COMPARE_HD
#endif

namespace compare {

// The 16-byte user type: the affine map x -> a*x + b over the integers mod 2^64. Composition is
// associative but not commutative, so any implementation that reorders operands fails validation.
struct affine {
  std::uint64_t a;
  std::uint64_t b;
};
COMPARE_HD inline bool operator==(const affine& x, const affine& y) {
  return x.a == y.a && x.b == y.b;
}
COMPARE_HD inline bool operator!=(const affine& x, const affine& y) { return !(x == y); }

// compose(f, g) = "apply f, then g": the left operand is the earlier element.
struct compose {
  COMPARE_HD affine operator()(const affine& f, const affine& g) const {
    return affine{g.a * f.a, g.a * f.b + g.b};
  }
};

struct plus {
  template <class T>
  COMPARE_HD T operator()(const T& x, const T& y) const {
    return x + y;
  }
};

template <class T>
struct op_for {
  using type = plus;
};
template <>
struct op_for<affine> {
  using type = compose;
};
template <class T>
using op_t = typename op_for<T>::type;

// The unary transform of the transform_ algorithms: x op x (2x for sums, a map composed with
// itself), about as cheap as op, so that their cells measure the fused load, not the transform.
template <class T>
struct self_combined {
  COMPARE_HD T operator()(const T& x) const { return op_t<T>{}(x, x); }
};

// The init of exclusive_scan, reduce and segmented_reduce: the identity (0, or x -> x).
template <class T>
COMPARE_HD T identity_value() {
  if constexpr (std::is_same_v<T, affine>) {
    return affine{1, 0};
  } else {
    return T{};
  }
}

template <class T>
struct type_tag {
  using type = T;
};

// Calls f(type_tag<T>{}) with the C++ type of an element axis value.
template <class F>
decltype(auto) with_element(element e, F&& f) {
  switch (e) {
    case element::i32:
      return f(type_tag<std::int32_t>{});
    case element::i64:
      return f(type_tag<std::int64_t>{});
    case element::f32:
      return f(type_tag<float>{});
    case element::f64:
      return f(type_tag<double>{});
    case element::affine:
      break;
  }
  return f(type_tag<affine>{});
}

COMPARE_HD inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Every input value and segment length derives from it (recorded in the provenance).
inline constexpr std::uint64_t data_seed = 0;

// Input i. Arithmetic inputs telescope: x_i = w_i - w_{i-1} with w in [0, 16), so the sum of any
// contiguous range is an integer in [-15, 15]: exact in float and double whatever the association
// order, and no integer overflow. Affine inputs are random maps (wrap-around is well defined).
template <class T>
T value_at(std::int64_t i) {
  if constexpr (std::is_same_v<T, affine>) {
    const auto k = static_cast<std::uint64_t>(i) ^ data_seed;
    return affine{mix64(2 * k) | 1, mix64(2 * k + 1)};
  } else {
    auto w = [](std::int64_t j) {
      return j < 0 ? 0 : static_cast<int>(mix64(static_cast<std::uint64_t>(j) ^ data_seed) & 15);
    };
    return static_cast<T>(w(i) - w(i - 1));
  }
}

// Validation. Integers and affine maps: exact. Floating point: the inputs make every
// order-preserving result exact; a relative tolerance (below) only absorbs reassociation.
inline constexpr double f32_tolerance = 1e-6;
inline constexpr double f64_tolerance = 1e-12;

template <class T>
COMPARE_HD bool matches(const T& got, const T& want) {
  if constexpr (std::is_floating_point_v<T>) {
    const double tolerance = sizeof(T) == 4 ? f32_tolerance : f64_tolerance;
    auto magnitude = [](double x) { return x < 0 ? -x : x; };
    const double w = static_cast<double>(want);
    const double scale = magnitude(w) > 1.0 ? magnitude(w) : 1.0;
    return magnitude(static_cast<double>(got) - w) <= tolerance * scale;  // false for NaN
  } else {
    return got == want;
  }
}

// The head-flag segmented scan for libraries without one (CUB, Thrust): a plain scan over
// (value, head) pairs with the lifted operator of Sengupta, Harris, Zhang & Owens (2007).
template <class T>
struct flagged_value {
  T value;
  int head;
};

template <class Op>
struct lifted {
  Op op;
  template <class T>
  COMPARE_HD flagged_value<T> operator()(const flagged_value<T>& x,
                                         const flagged_value<T>& y) const {
    if (y.head) return y;
    return flagged_value<T>{op(x.value, y.value), x.head};
  }
};

}  // namespace compare
