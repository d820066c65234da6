#pragma once
// exact_sum<T>: the exact real sum of float or double values, and its rounding to T, once, to
// nearest-even. The sum is a fixed-point integer in units of T's smallest subnormal, wide enough
// for every finite T and 2^63 terms (a superaccumulator: Collange, Defour, Graillat and
// Iakymchuk, "Numerical reproducibility for the parallel reduction on multi- and many-core
// architectures", Parallel Computing 2015). Adding is exact, so associative and commutative: any
// split and grouping of the terms gives the same sum, and the same rounded bits.

#include <pscan/detail/config.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace pscan::detail {

// T's layout, from std::numeric_limits: the fixed point's unit is the smallest subnormal
// (2^-149, 2^-1074), and its width the finite range (277, 2098 bits), 63 bits of headroom for
// the terms' count and a sign.
template <class T>
struct exact_format {
  using bits_type = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  static constexpr int fraction_bits = std::numeric_limits<T>::digits - 1;
  static constexpr int min_exponent =
      std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits;
  static constexpr int limbs = (std::numeric_limits<T>::max_exponent - min_exponent + 64 + 63) / 64;
};

PSCAN_HOST_DEVICE inline int leading_zeros(std::uint64_t w) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(w));
#else
  return __builtin_clzll(w);
#endif
}

template <class T>
struct exact_sum {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "pscan::exact_plus sums float or double values");
  using format = exact_format<T>;
  static constexpr int limb_count = format::limbs;
  enum : std::uint32_t { nan = 1, plus_infinity = 2, minus_infinity = 4, negative_zero = 8 };

  // limb[lo..hi], little-endian, are the two's-complement sum; limbs below lo are 0 and limbs
  // above hi repeat limb[hi]'s sign bit. The others are not read.
  std::uint64_t limb[limb_count];
  std::int32_t lo;
  std::int32_t hi;
  // NaN or infinities among the terms, and whether every term was -0 (an exact zero is then -0).
  std::uint32_t special;

  PSCAN_HOST_DEVICE static exact_sum of(T x) {
    using bits_type = typename format::bits_type;
    constexpr int fraction_bits = format::fraction_bits;
    constexpr int sign_shift = 8 * sizeof(T) - 1;
    constexpr bits_type exponent_mask = (bits_type{1} << (sign_shift - fraction_bits)) - 1;
    bits_type bits;
    std::memcpy(&bits, &x, sizeof bits);
    const bool negative = (bits >> sign_shift) != 0;
    const bits_type exponent = (bits >> fraction_bits) & exponent_mask;
    const bits_type fraction = bits & ((bits_type{1} << fraction_bits) - 1);
    exact_sum s;
    s.lo = s.hi = 0;
    s.limb[0] = 0;
    s.special = 0;
    if (exponent == exponent_mask) {
      s.special = fraction != 0 ? nan : negative ? minus_infinity : plus_infinity;
      return s;
    }
    if (exponent == 0 && fraction == 0) {
      s.special = negative ? negative_zero : 0;
      return s;
    }
    // x = m * 2^(position + min_exponent): a subnormal has position 0.
    const std::uint64_t m =
        static_cast<std::uint64_t>(fraction) |
        (exponent != 0 ? std::uint64_t{1} << fraction_bits : std::uint64_t{0});
    const int position = exponent != 0 ? static_cast<int>(exponent) - 1 : 0;
    const int i = position / 64, shift = position % 64;
    std::uint64_t low = m << shift, high = shift != 0 ? m >> (64 - shift) : 0;
    if (negative) {  // the 128-bit two's complement; limbs above i + 1 are then all ones
      high = ~high + (low == 0 ? 1 : 0);
      low = ~low + 1;
    }
    s.limb[i] = low;
    s.limb[i + 1] = high;
    s.lo = i;
    s.hi = i + 1;
    s.normalize();
    return s;
  }

  PSCAN_HOST_DEVICE friend exact_sum operator+(const exact_sum& a, const exact_sum& b) {
    exact_sum r;
    r.special = ((a.special | b.special) & ~std::uint32_t{negative_zero}) |
                (a.special & b.special & negative_zero);
    r.lo = a.lo < b.lo ? a.lo : b.lo;
    const int top = (a.hi > b.hi ? a.hi : b.hi) + 1;
    r.hi = top < limb_count ? top : limb_count - 1;  // the headroom keeps the sum below it
    std::uint64_t carry = 0;
    for (int i = r.lo; i <= r.hi; ++i) {
      const std::uint64_t x = a.word(i), y = b.word(i);
      const std::uint64_t s = x + y, t = s + carry;
      carry = static_cast<std::uint64_t>(s < x) | static_cast<std::uint64_t>(t < s);
      r.limb[i] = t;
    }
    r.normalize();
    return r;
  }

  // The sum rounded once to nearest-even; IEEE's rules for NaN and infinities, overflow to
  // infinity.
  PSCAN_HOST_DEVICE T rounded() const {
    if ((special & nan) != 0 ||
        (special & (plus_infinity | minus_infinity)) == (plus_infinity | minus_infinity)) {
      return std::numeric_limits<T>::quiet_NaN();
    }
    if ((special & plus_infinity) != 0) return std::numeric_limits<T>::infinity();
    if ((special & minus_infinity) != 0) return -std::numeric_limits<T>::infinity();
    const bool negative = (limb[hi] >> 63) != 0;
    std::uint64_t magnitude[limb_count];
    std::uint64_t carry = 1;
    for (int i = lo; i <= hi; ++i) {
      magnitude[i] = negative ? ~limb[i] + carry : limb[i];
      carry = negative && magnitude[i] == 0 ? carry : 0;
    }
    int top = hi;
    while (top > lo && magnitude[top] == 0) --top;
    if (magnitude[top] == 0) return (special & negative_zero) != 0 ? T(-0.0) : T(0.0);
    // Limb i of the magnitude, 0 below lo; and the 64 bits from bit p on.
    const auto limb_at = [&](int i) {
      return i < lo || i > top ? std::uint64_t{0} : magnitude[i];
    };
    const auto bits_from = [&](int p) {
      const int i = p / 64, offset = p % 64;
      return offset == 0 ? limb_at(i)
                         : (limb_at(i) >> offset) | (limb_at(i + 1) << (64 - offset));
    };
    constexpr int precision = format::fraction_bits + 1;
    const int msb = 64 * top + 63 - leading_zeros(magnitude[top]);
    T result;
    if (msb < precision) {  // exact: a subnormal, or a normal on the subnormals' grid
      result = scaled(magnitude[0], format::min_exponent);
    } else {
      int shift = msb - (precision - 1);  // the bits below the kept ones
      std::uint64_t mantissa = bits_from(shift) & ((std::uint64_t{1} << precision) - 1);
      const int half = shift - 1;  // the rounding bit; the bits below it decide ties
      const bool round = ((limb_at(half / 64) >> (half % 64)) & 1) != 0;
      bool sticky = (limb_at(half / 64) & ((std::uint64_t{1} << (half % 64)) - 1)) != 0;
      for (int i = lo; i < half / 64 && !sticky; ++i) sticky = magnitude[i] != 0;
      if (round && (sticky || (mantissa & 1) != 0)) {
        ++mantissa;
        if ((mantissa >> precision) != 0) {
          mantissa >>= 1;
          ++shift;
        }
      }
      result = scaled(mantissa, shift + format::min_exponent);
    }
    return negative ? -result : result;
  }

 private:
  PSCAN_HOST_DEVICE std::uint64_t word(int i) const {
    if (i < lo) return 0;
    if (i > hi) return (limb[hi] >> 63) != 0 ? ~std::uint64_t{0} : 0;
    return limb[i];
  }

  // Drops the limbs above hi that only repeat the sign, and the zero limbs below lo.
  PSCAN_HOST_DEVICE void normalize() {
    while (hi > lo && limb[hi] == ((limb[hi - 1] >> 63) != 0 ? ~std::uint64_t{0} : 0)) --hi;
    while (lo < hi && limb[lo] == 0) ++lo;
  }

  // m * 2^e for m < 2^precision: exact, or infinity where it overflows.
  PSCAN_HOST_DEVICE static T scaled(std::uint64_t m, int e) {
    if constexpr (std::is_same_v<T, float>) {
      return ::ldexpf(static_cast<float>(m), e);
    } else {
      return ::ldexp(static_cast<double>(m), e);
    }
  }
};

template <class T>
inline constexpr bool is_exact_sum_v = false;
template <class T>
inline constexpr bool is_exact_sum_v<exact_sum<T>> = true;

}  // namespace pscan::detail
