#pragma once
// exact_bins<T>: the exact sum of a run of float or double terms in floating point, a few vector
// additions a term, in front of exact_window's integer path. Each term is split at fixed bit
// positions by Rump, Ogita and Oishi's extraction ("Accurate floating-point summation part I",
// SIAM J. Sci. Comput. 2008): with sigma = 1.5 * 2^e, q = (sigma + x) - sigma is x rounded to a
// multiple of 2^(e - 52) and x - q is exact; the q of up to 2^term_bits terms add exactly in
// a double, so each bin's sum is exact whatever the order, and the remainder goes to the next bin
// (Demmel and Nguyen's binning, "Parallel reproducible summation", IEEE TC 2015). The bins' sums
// and any remainder left below the last bin then go to the window exactly. Where a run has a NaN
// or an infinity, or a term near double's largest, or the FPU flushes subnormals, it does not
// apply and the window takes the terms one by one.

#include <pscan/detail/exact_window.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace pscan::detail {

template <class T>
class exact_bins {
  static constexpr int term_bits = 8;
  // Two bins hold every bit of a double within 2^35 of the largest term (of a float within
  // 2^64); the rare bits below go to the window one term at a time.
  static constexpr int bins = 2;
  // Terms a step, in GCC's vector extension (as __int128, a GNU extension pscan needs anyway):
  // lanes of independent sums, one vector instruction an operation.
#if defined(__AVX__)
  static constexpr int width = 4;
#else
  static constexpr int width = 2;  // SSE2's: wider vectors would go through memory
#endif
  using pack = double __attribute__((vector_size(8 * width)));
  using mask = std::int64_t __attribute__((vector_size(8 * width)));
  // The first pass looks at the terms as they are: as many floats as doubles fit twice.
  using float_pack = float __attribute__((vector_size(8 * width)));
  using float_mask = std::int32_t __attribute__((vector_size(8 * width)));
  using term_pack = std::conditional_t<sizeof(T) == 4, float_pack, pack>;
  using term_mask = std::conditional_t<sizeof(T) == 4, float_mask, mask>;
  static constexpr int term_width = 8 * width / static_cast<int>(sizeof(T));
  // Each bin 52 - term_bits bits below the one above: its terms' sum stays below 2^53 units.
  static constexpr int bin_bits = 52 - term_bits;
  // The lowest bin exponent: sigma stays normal and, for float, its unit 2^-149 or more, where
  // every term is whole in it (so that a bin's sum is whole in T's exact units).
  static constexpr int lowest_exponent = sizeof(T) == 4 ? -149 + 52 : -1022;

 public:
  // The most terms add() takes at a time.
  static constexpr int max_terms = 1 << term_bits;

#if defined(__FAST_MATH__)
  // Fast math may fold (sigma + x) - sigma to x: the window alone is exact there.
  template <class InIt, class Spill>
  static bool add(InIt, int, exact_window<T>&, Spill&) {
    return false;
  }
#else
  // Adds first[0 .. count) (count <= max_terms) to the window; false, having added nothing,
  // where the bins do not apply.
  template <class InIt, class Spill>
  static bool add(InIt first, int count, exact_window<T>& window, Spill& spill) {
    if (flushes_subnormals()) return false;
    using term_bits_type = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    constexpr term_bits_type sign = std::numeric_limits<term_bits_type>::min();
    // Floating-point compares and bit operations only: SSE2 has no 64-bit integer compare.
    term_pack largest = {};
    term_mask negative_zero = {};
    for_packs<term_pack, term_width>(first, count, [&](const term_pack& x) {
      const term_mask bits = (term_mask)x;  // vector casts keep the bits
      const term_pack magnitude = (term_pack)(bits & ~sign);
      largest = magnitude > largest ? magnitude : largest;
      negative_zero |= (x == 0) & bits;  // a -0's bits: the sign bit alone
    });
    double m = 0;
    bool negative_zeros = false;
    for (int j = 0; j < term_width; ++j) {
      m = largest[j] > m ? largest[j] : m;
      negative_zeros = negative_zeros || negative_zero[j] != 0;
    }
    std::int64_t kept = count;
    if (negative_zeros) {  // rare: counted one by one
      for (int k = 0; k < count; ++k) {
        const T t = static_cast<T>(first[k]);
        term_bits_type bits;
        std::memcpy(&bits, &t, sizeof bits);
        kept -= bits == sign ? 1 : 0;
      }
    }
    // The top bin: its sum of max_terms terms below 2^(top + 1), and finite as a T. An infinity
    // among the terms is the largest.
    const exact_term<double> largest_term = exact_term<double>::of(m);
    if (largest_term.specials.plus_infinity != 0) return false;
    const int top = largest_term.m == 0
                        ? lowest_exponent
                        : largest_term.position + 63 - leading_zeros(largest_term.m) +
                              exact_format<double>::min_exponent + term_bits + 1;
    if (top > (sizeof(T) == 4 ? 126 : 1023)) return false;
    pack sigma[bins], sum[bins] = {};
    for (int b = 0; b < bins; ++b) {
      const int e = top - b * bin_bits;
      const double s = 1.5 * power_of_two(e < lowest_exponent ? lowest_exponent : e);
      for (int j = 0; j < width; ++j) sigma[b][j] = s;
    }
    mask left = {};  // lanes with bits below the last bin
    for_packs<pack, width>(first, count, [&](const pack& term) {
      pack x = term;
      for (int b = 0; b < bins; ++b) {
        const pack q = (sigma[b] + x) - sigma[b];
        sum[b] += q;
        x -= q;
      }
      left |= x != 0;
    });
    double total[bins] = {};
    for (int b = 0; b < bins; ++b) {
      for (int j = 0; j < width; ++j) total[b] += sum[b][j];  // whole in the bin's unit: exact
      if (total[b] != total[b]) return false;  // a NaN among the terms (its max ignored it)
    }
    for (int b = 0; b < bins; ++b) exact_window<T>::add_exact_double(total[b], spill);
    bool remainder = false;
    for (int j = 0; j < width; ++j) remainder = remainder || left[j] != 0;
    if (remainder) {  // terms with bits below the last bin: what is left of each, one by one
      for (int k = 0; k < count; ++k) {
        double x = static_cast<double>(static_cast<T>(first[k]));
        for (int b = 0; b < bins; ++b) x -= (sigma[b][0] + x) - sigma[b][0];
        exact_window<T>::add_exact_double(x, spill);
      }
    }
    window.count_not_negative_zero(kept);
    return true;
  }
#endif

 private:
  // f(x) for the terms of first[0 .. count) in packs P of W lanes (doubles, or the terms as they
  // are), zeros past count: they add nothing. Whole packs apart from the last, so that the
  // compiler sees plain loads.
  template <class P, int W, class InIt, class F>
  static void for_packs(InIt first, int count, F&& f) {
    P x;
    int i = 0;
    for (; i + W <= count; i += W) {
      T terms[W];
      for (int j = 0; j < W; ++j) terms[j] = static_cast<T>(first[i + j]);
      load(terms, x);
      f(x);
    }
    if (i < count) {
      T terms[W] = {};
      for (int j = 0; i + j < count; ++j) terms[j] = static_cast<T>(first[i + j]);
      load(terms, x);
      f(x);
    }
  }

  // By reference: a 32-byte vector passed or returned by value changes the ABI without AVX.
  template <class P, int W>
  static void load(const T (&terms)[W], P& x) {
    if constexpr (sizeof(T) == 4 && std::is_same_v<P, pack>) {  // widened in one instruction
      float __attribute__((vector_size(4 * width))) narrow;
      std::memcpy(&narrow, terms, sizeof narrow);
      x = __builtin_convertvector(narrow, pack);
    } else {
      std::memcpy(&x, terms, sizeof x);
    }
  }

  // Whether the floating-point unit treats subnormals as zero (flush-to-zero or
  // denormals-are-zero, set by fast-math start-up code or by hand): the bins' low bits would be
  // lost, where the window's integers keep them.
  static bool flushes_subnormals() {
#if defined(__SSE2__)
    return (_mm_getcsr() & 0x8040u) != 0;  // MXCSR's FTZ (bit 15) and DAZ (bit 6)
#elif defined(__aarch64__)
    return (__builtin_aarch64_get_fpcr() & (1u << 24)) != 0;  // FPCR.FZ
#else
    return true;  // unknown: the window alone
#endif
  }

  // 2^e for -1022 <= e <= 1023.
  static double power_of_two(int e) {
    const std::uint64_t bits = static_cast<std::uint64_t>(e + 1023) << 52;
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  }
};

}  // namespace pscan::detail
