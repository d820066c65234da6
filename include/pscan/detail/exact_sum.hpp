#pragma once
// exact_sum<T>: the exact real sum of float or double values, and its rounding to T, once, to
// nearest-even. The sum is a fixed-point integer in units of T's smallest subnormal, wide enough
// for every finite T and 2^63 terms (a superaccumulator: Collange, Defour, Graillat and
// Iakymchuk, "Numerical reproducibility for the parallel reduction on multi- and many-core
// architectures", Parallel Computing 2015). Adding is exact, so associative and commutative: any
// split and grouping of the terms gives the same sum, and the same rounded bits.

#include <pscan/detail/config.hpp>

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

// How many terms were NaN, +inf, -inf, and not -0: counts rather than flags, so that a term can
// be taken out of a sum as exactly as it was put in.
struct exact_specials {
  std::int64_t nan;
  std::int64_t plus_infinity;
  std::int64_t minus_infinity;
  std::int64_t not_negative_zero;  // none: every term was -0, and an exact zero is then -0

  PSCAN_HOST_DEVICE friend exact_specials operator+(const exact_specials& a,
                                                    const exact_specials& b) {
    return {a.nan + b.nan, a.plus_infinity + b.plus_infinity,
            a.minus_infinity + b.minus_infinity, a.not_negative_zero + b.not_negative_zero};
  }
};

// One term x = (-1)^negative * m * 2^(position + min_exponent), m < 2^(fraction_bits + 1) (0 for
// zeros, NaN and infinities): the decoding that exact_sum and exact_window share.
template <class T>
struct exact_term {
  using format = exact_format<T>;
  std::uint64_t m;
  int position;
  bool negative;
  exact_specials specials;  // this term's counts: 0 or 1 each

  PSCAN_HOST_DEVICE static exact_term of(T x) {
    using bits_type = typename format::bits_type;
    constexpr int fraction_bits = format::fraction_bits;
    constexpr int sign_shift = 8 * sizeof(T) - 1;
    constexpr bits_type exponent_mask = (bits_type{1} << (sign_shift - fraction_bits)) - 1;
    bits_type bits;
    std::memcpy(&bits, &x, sizeof bits);
    const bits_type exponent = (bits >> fraction_bits) & exponent_mask;
    const bits_type fraction = bits & ((bits_type{1} << fraction_bits) - 1);
    exact_term t;
    t.negative = (bits >> sign_shift) != 0;
    t.specials = {0, 0, 0, bits != (bits_type{1} << sign_shift)};
    // A subnormal has position 0, as the smallest normal has.
    t.position = static_cast<int>(exponent) - (exponent != 0 ? 1 : 0);
    t.m = static_cast<std::uint64_t>(fraction) |
          (static_cast<std::uint64_t>(exponent != 0) << fraction_bits);
    if (exponent == exponent_mask) {
      t.specials.nan = fraction != 0;
      t.specials.plus_infinity = fraction == 0 && !t.negative;
      t.specials.minus_infinity = fraction == 0 && t.negative;
      t.m = 0;
      t.position = 0;
    }
    return t;
  }
};

template <class T>
struct exact_sum {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "pscan::exact_plus sums float or double values");
  using value_type = T;
  using format = exact_format<T>;
  static constexpr int limb_count = format::limbs;

  // limb[lo..hi], little-endian, are the two's-complement sum of the finite terms; limbs below lo
  // are 0 and limbs above hi repeat limb[hi]'s sign bit. The others are not read.
  std::uint64_t limb[limb_count];
  std::int32_t lo;
  std::int32_t hi;
  exact_specials specials;

  // The sum of no terms: the identity of +, which keeps a sum of -0s at -0.
  PSCAN_HOST_DEVICE static exact_sum zero() {
    exact_sum s;
    s.limb[0] = 0;
    s.lo = s.hi = 0;
    s.specials = {0, 0, 0, 0};
    return s;
  }

  PSCAN_HOST_DEVICE static exact_sum of(T x) {
    exact_sum s = zero();
    s.add(x);
    return s;
  }

  // The sum of 32-bit chunks (chunk k weighs 2^(32 k) units, any int64 value; 2 * limb_count of
  // them, their total within the format) and of the special terms counted.
  PSCAN_HOST_DEVICE static exact_sum of_chunks(const std::int64_t* chunk,
                                               const exact_specials& specials) {
    exact_sum s;
    std::int64_t carry = 0;
    for (int i = 0; i < limb_count; ++i) {
      std::uint64_t word = 0;
      for (int half = 0; half < 2; ++half) {
        const std::int64_t v = chunk[2 * i + half] + carry;
        word |= (static_cast<std::uint64_t>(v) & 0xffffffffu) << (32 * half);
        carry = v >> 32;  // arithmetic: a negative chunk borrows from the next
      }
      s.limb[i] = word;
    }
    s.lo = 0;
    s.hi = limb_count - 1;
    s.specials = specials;
    s.normalize();
    return s;
  }

  // Adds one term in place, or takes one out: touches the two limbs it lands on and the carry
  // above them.
  PSCAN_HOST_DEVICE void add(T x) { accumulate(exact_term<T>::of(x), false); }
  PSCAN_HOST_DEVICE void subtract(T x) { accumulate(exact_term<T>::of(x), true); }

  // Adds v * 2^position (position >= 0) in place: as three terms of 52 bits.
  PSCAN_HOST_DEVICE void add_scaled(__int128 v, int position) {
    const bool negative = v < 0;
    const auto magnitude = negative ? -static_cast<unsigned __int128>(v)
                                    : static_cast<unsigned __int128>(v);
    for (int k = 0; k < 3; ++k) {
      exact_term<T> t{};
      t.m = static_cast<std::uint64_t>(magnitude >> (52 * k)) & ((std::uint64_t{1} << 52) - 1);
      t.position = position + 52 * k;
      t.negative = negative;
      accumulate(t, false);
    }
  }

  PSCAN_HOST_DEVICE friend exact_sum operator+(const exact_sum& a, const exact_sum& b) {
    exact_sum r;
    r.specials = a.specials + b.specials;
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
  // infinity. Reads the top two limbs and, for the sticky bit, the limbs below them down to the
  // first that is not 0.
  PSCAN_HOST_DEVICE T rounded() const {
    if (specials.nan != 0 || (specials.plus_infinity != 0 && specials.minus_infinity != 0)) {
      return with_top_bits(3);  // the quiet NaN
    }
    if (specials.plus_infinity != 0) return with_top_bits(2);
    if (specials.minus_infinity != 0) return -with_top_bits(2);
    // The sum is high * 2^(64 base) + below, 0 <= below < 2^(64 base): high is limbs base and
    // base + 1 (as normalize() leaves the sum, its magnitude has its leading bit in them).
    const int base = hi > lo ? hi - 1 : hi;
    const unsigned __int128 high =
        static_cast<unsigned __int128>(word(base + 1)) << 64 | word(base);
    T result{};  // set by round_wide() on every path that returns it
    switch (round_wide(high, word(base + 2), 64 * base, any_below(64 * base), result)) {
      case rounding::zero:
        return specials.not_negative_zero == 0 ? T(-0.0) : T(0.0);
      default:  // never unknown: high holds the magnitude's leading 64 bits at least
        return result;
    }
  }

  // The 64 bits of the sum from bit p on (p >= 0; sign-extended above hi).
  PSCAN_HOST_DEVICE std::uint64_t bits_from(int p) const {
    const int i = p / 64, offset = p % 64;
    return offset == 0 ? word(i) : (word(i) >> offset) | (word(i + 1) << (64 - offset));
  }

  // Whether any bit of the sum below bit p is set.
  PSCAN_HOST_DEVICE bool any_below(int p) const {
    const int i = p / 64, offset = p % 64;
    for (int k = lo; k < i && k <= hi; ++k) {
      if (limb[k] != 0) return true;
    }
    return offset != 0 && i >= lo && (word(i) & ((std::uint64_t{1} << offset) - 1)) != 0;
  }

  enum class rounding { done, zero, unknown };
  // Rounds s * 2^base + r to nearest-even into `result`, for s = high * 2^128 + low a 192-bit
  // two's-complement integer and 0 <= r < 2^base known only as below = (r != 0): done; zero (an
  // exact 0, whose sign the caller knows); or unknown, where the bits of r would count (s's
  // magnitude has too few bits, and r != 0).
  PSCAN_HOST_DEVICE static rounding round_wide(unsigned __int128 low, std::uint64_t high,
                                               int base, bool below, T& result) {
    const bool negative = (high >> 63) != 0;
    if (negative) {  // the magnitude's top: -(s + r) = ~s + (r == 0)
      low = ~low + (below ? 0 : 1);
      high = ~high + (!below && low == 0 ? 1 : 0);
    }
    if (high != 0) {  // its leading 128 bits, the rest sticky
      below = below || static_cast<std::uint64_t>(low) != 0;
      low = static_cast<unsigned __int128>(high) << 64 | static_cast<std::uint64_t>(low >> 64);
      base += 64;
    }
    const rounding r = round_magnitude(low, base, below, result);
    if (negative) result = -result;
    return r;
  }

 private:
  PSCAN_HOST_DEVICE void accumulate(const exact_term<T>& t, bool subtracting) {
    const std::int64_t by = subtracting ? -1 : 1;
    specials.nan += by * t.specials.nan;
    specials.plus_infinity += by * t.specials.plus_infinity;
    specials.minus_infinity += by * t.specials.minus_infinity;
    specials.not_negative_zero += by * t.specials.not_negative_zero;
    if (t.m == 0) return;
    const bool negative = t.negative != subtracting;
    const int i = t.position / 64, shift = t.position % 64;
    std::uint64_t low = t.m << shift, high = shift != 0 ? t.m >> (64 - shift) : 0;
    if (negative) {  // the term's two's complement; its limbs above i + 1 are all ones
      high = ~high + (low == 0 ? 1 : 0);
      low = ~low + 1;
    }
    const std::uint64_t extension = negative ? ~std::uint64_t{0} : 0;
    // Room for the carry: limbs i and i + 1 and one above both the term and the sum.
    if (i < lo) {
      for (int k = i; k < lo; ++k) limb[k] = 0;
      lo = i;
    }
    int top = hi + 1 > i + 2 ? hi + 1 : i + 2;
    if (top > limb_count - 1) top = limb_count - 1;  // the headroom keeps the sum below it
    const std::uint64_t sign = (limb[hi] >> 63) != 0 ? ~std::uint64_t{0} : 0;
    for (int k = hi + 1; k <= top; ++k) limb[k] = sign;
    hi = top;
    std::uint64_t carry = 0;
    for (int k = i; k <= hi; ++k) {
      const std::uint64_t y = k == i ? low : k == i + 1 ? high : extension;
      if (k > i + 1 && (y == 0) == (carry == 0)) break;  // 0, or all ones plus 1: nothing to add
      const std::uint64_t s = limb[k] + y, r = s + carry;
      carry = static_cast<std::uint64_t>(s < y) | static_cast<std::uint64_t>(r < s);
      limb[k] = r;
    }
    normalize();
  }

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

  // The positive T whose exponent bits are all ones, then the fraction's top bit `top`
  // (std::numeric_limits is host code): infinity for 2, the quiet NaN for 3.
  PSCAN_HOST_DEVICE static T with_top_bits(unsigned top) {
    using bits_type = typename format::bits_type;
    constexpr int exponent_bits = 8 * sizeof(T) - 1 - format::fraction_bits;
    const bits_type bits = ((bits_type{1} << exponent_bits) - 1) << format::fraction_bits |
                           static_cast<bits_type>(top & 1u) << (format::fraction_bits - 1);
    T x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  }

  // round_wide() of a magnitude m * 2^base + r, m < 2^128.
  PSCAN_HOST_DEVICE static rounding round_magnitude(unsigned __int128 m, int base, bool below,
                                                    T& result) {
    constexpr int precision = format::fraction_bits + 1;
    if (m == 0) return below ? rounding::unknown : rounding::zero;
    const auto m_high = static_cast<std::uint64_t>(m >> 64);
    const int msb = m_high != 0 ? 127 - leading_zeros(m_high)
                                : 63 - leading_zeros(static_cast<std::uint64_t>(m));
    if (msb < precision) {  // every bit kept: exact unless r counts
      if (below) return rounding::unknown;
      const int room = precision - 1 - msb < base ? precision - 1 - msb : base;
      result = composed(static_cast<std::uint64_t>(m) << room, base - room);
      return rounding::done;
    }
    const int shift = msb - (precision - 1);  // >= 1: the kept bits' lowest
    std::uint64_t mantissa =
        static_cast<std::uint64_t>(m >> shift) & ((std::uint64_t{1} << precision) - 1);
    const unsigned __int128 half = static_cast<unsigned __int128>(1) << (shift - 1);
    const unsigned __int128 rest = m & ((half << 1) - 1);  // the bits below the kept ones
    if (rest > half || (rest == half && (below || (mantissa & 1) != 0))) {
      ++mantissa;  // 2^precision at most: composed() carries it into the exponent
    }
    result = composed(mantissa, base + shift);
    return rounding::done;
  }

  // m * 2^(position + min_exponent) for m <= 2^precision, with m >= 2^(precision - 1) or
  // position 0 (a subnormal): T's bits are position * 2^fraction_bits + m (a normal's exponent
  // field is position + 1; a carry out of m moves it up), infinity past the finite range.
  PSCAN_HOST_DEVICE static T composed(std::uint64_t m, int position) {
    using bits_type = typename format::bits_type;
    constexpr int exponent_bits = 8 * sizeof(T) - 1 - format::fraction_bits;
    const std::uint64_t bits = (static_cast<std::uint64_t>(position) << format::fraction_bits) + m;
    if ((bits >> format::fraction_bits) >= (std::uint64_t{1} << exponent_bits) - 1) {
      return with_top_bits(2);
    }
    const auto narrow = static_cast<bits_type>(bits);
    T x;
    std::memcpy(&x, &narrow, sizeof x);
    return x;
  }
};

}  // namespace pscan::detail
