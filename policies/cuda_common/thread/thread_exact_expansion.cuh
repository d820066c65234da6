#pragma once
// Thread level: the exact sum of float or double terms (pscan::exact_plus) in registers, at the
// cost of a few double additions a term, in front of exact_window's integer path (ExBLAS:
// Collange, Defour, Graillat and Iakymchuk, "Numerical reproducibility for the parallel reduction
// on multi- and many-core architectures", Parallel Computing 2015). The thread keeps a short
// floating-point expansion, a few doubles whose exact sum is the sum of the terms so far; a term
// goes in through Knuth's error-free TwoSum, level by level, until the error left is 0, which for
// terms of similar magnitude is at the first level or the second (the GPU's double additions
// round to nearest, and never flush subnormals). What would need a further level goes to the
// chunks, as the terms that could overflow a level (near T's largest, infinities, NaN) and float
// subnormals (fast math may flush them in a conversion) go to the window. A float term is whole
// in double, and every sum and error of multiples of 2^-149 is one too, so the levels stay whole
// in T's unit.

#include <pscan/detail/config.hpp>
#include <pscan/detail/exact_window.hpp>

#include <cstdint>
#include <cstring>
#include <limits>

namespace pscan::cuda_common {

template <class T>
class thread_exact_expansion {
  using window_type = pscan::detail::exact_window<T>;
  static constexpr int levels = 3;
  // The largest magnitude a level takes (2^(max_exponent - 1 - term_bits)): max_terms of them
  // stay below T's largest, so no level overflows and each converts back to T's range.
  static constexpr int term_bits = 20;

 public:
  // The most terms add() may take between two flush()es.
  static constexpr std::int64_t max_terms = std::int64_t{1} << term_bits;

  PSCAN_HOST_DEVICE thread_exact_expansion() {
    for (int l = 0; l < levels; ++l) level_[l] = -0.0;
  }

  // Adds x; what the levels do not take goes to window (its spill, as exact_window::add's).
  template <class Spill>
  PSCAN_HOST_DEVICE PSCAN_FORCEINLINE void add(T x, window_type& window, Spill& spill) {
#if defined(__FAST_MATH__) && !defined(__CUDA_ARCH__)
    window.add(x, spill);  // host fast math may fold TwoSum's error to 0
#else
    const T magnitude = x < T(0) ? -x : x;
    // Float: normal or zero (zeros are common, and a warp waits for its slowest lane). NaN fails
    // every compare.
    constexpr T largest = scaled_power(std::numeric_limits<T>::max_exponent - 1 - term_bits);
    constexpr T smallest_normal = scaled_power(std::numeric_limits<T>::min_exponent - 1);
    const bool fast = magnitude < largest &&
                      (sizeof(T) == 8 || magnitude >= smallest_normal || magnitude == T(0));
    if (!fast) {
      window.add(x, spill);
      return;
    }
    double e = static_cast<double>(x);
    for (int l = 0; l < levels; ++l) {
      const double s = add_rn(level_[l], e);
      const double b = subtract_rn(s, level_[l]);
      e = add_rn(subtract_rn(level_[l], subtract_rn(s, b)), subtract_rn(e, b));
      level_[l] = s;
      if (e == 0) return;
    }
    window_type::add_exact_double(e, spill);
#endif
  }

  // Moves the levels into the window's chunks, with level 0's sign of zero: it is -0 only while
  // every term it took was -0 (a sum of zero is +0 otherwise, and stays so).
  template <class Spill>
  PSCAN_HOST_DEVICE void flush(window_type& window, Spill& spill) {
    std::uint64_t bits;
    std::memcpy(&bits, &level_[0], sizeof bits);
    const bool negative_zero = bits == std::uint64_t{1} << 63;
    window.count_not_negative_zero(negative_zero ? 0 : 1);
    for (int l = 0; l < levels; ++l) {
      window_type::add_exact_double(level_[l], spill);
      level_[l] = -0.0;
    }
  }

 private:
  // 2^e for e in T's normal range, at compile time.
  PSCAN_HOST_DEVICE static constexpr T scaled_power(int e) {
    T x = 1;
    for (; e > 0; --e) x *= 2;
    for (; e < 0; ++e) x /= 2;
    return x;
  }

  // Rounded to nearest, never contracted or reassociated.
  PSCAN_HOST_DEVICE static double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
  }
  PSCAN_HOST_DEVICE static double subtract_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dsub_rn(a, b);
#else
    return a - b;
#endif
  }

  double level_[levels];
};

}  // namespace pscan::cuda_common
