#pragma once
// exact_window<T>: the exact sum of many float or double terms at the cost of a few integer
// instructions a term. The terms land in a 128-bit fixed-point window (registers), placed by the
// first term it takes; a term above the window, or a flush (at least every 256 terms), moves the
// window's contents out into 32-bit chunks of the whole range (a spill, the caller's: an array on the host, shared
// memory on the GPU), and a term below it goes to the chunks directly. The chunks are 64-bit
// words, so they take 2^31 pieces before a carry is due: Neal's "small superaccumulator" ("Fast
// exact summation using small and large superaccumulators", 2015). Values of similar magnitude,
// the common case, never leave the window.

#include <pscan/detail/config.hpp>
#include <pscan/detail/exact_sum.hpp>

#include <cstdint>
#include <cstring>

namespace pscan::detail {

template <class T>
class exact_window {
  using term = exact_term<T>;
  using bits_type = typename exact_format<T>::bits_type;
  static constexpr int fraction_bits = exact_format<T>::fraction_bits;
  static constexpr int sign_shift = 8 * sizeof(T) - 1;
  static constexpr int exponent_max = (1 << (sign_shift - fraction_bits)) - 1;
  static constexpr int chunk_bits = 32;
  // Flushed at least every 2^term_bits terms, the window cannot overflow: a term's lowest bit
  // goes at most highest_shift bits up.
  static constexpr int term_bits = 8;
  static constexpr int highest_shift = 127 - (fraction_bits + 1) - term_bits;
  // A window placed by a term puts that term's lowest bit placement to placement + 31 bits up:
  // about as much room above it as below.
  static constexpr int placement = highest_shift / 2 - 16;

 public:
  // The chunks of the whole range: as many as exact_sum<T> has halves of limbs.
  static constexpr int chunk_count = 2 * exact_format<T>::limbs;
  // The most terms add() may take between two flush()es.
  static constexpr int max_terms = 1 << term_bits;

  PSCAN_HOST_DEVICE static exact_window empty() { return exact_window{}; }

  // Adds x; spill(k, piece) must add piece * 2^(32 k) units (exact_sum's) to chunk k. A finite
  // term in the window (or a zero) costs a decode, a 128-bit shift and an add; the others go to
  // add_outside().
  template <class Spill>
  PSCAN_HOST_DEVICE PSCAN_FORCEINLINE void add(T x, Spill& spill) {
    add_term<true>(x, spill);
  }

  // add() for a term whose sign of zero is counted apart (count_not_negative_zero()).
  template <class Spill>
  PSCAN_HOST_DEVICE PSCAN_FORCEINLINE void add_uncounted(T x, Spill& spill) {
    add_term<false>(x, spill);
  }

  // Adds a double whose bits are whole in T's exact unit and below T's largest finite value,
  // its sign of zero uncounted (as add_uncounted()), straight into the chunks: a float sum held
  // in a double goes in whole. Integer operations only, so that no flush of subnormals to zero
  // (fast math) can touch it.
  template <class Spill>
  PSCAN_HOST_DEVICE static void add_exact_double(double x, Spill& spill) {
    const exact_term<double> t = exact_term<double>::of(x);
    if (t.m == 0) return;  // a zero: its position is no bit's
    constexpr int offset = exact_format<double>::min_exponent - exact_format<T>::min_exponent;
    int position = t.position + offset;
    std::uint64_t m = t.m;
    if (position < 0) {  // bits below T's unit: zeros, as x is whole in it
      m >>= -position;
      position = 0;
    }
    spill_term(m, position, t.negative, spill);
  }

  // Counts terms that are not -0, added by add_uncounted().
  PSCAN_HOST_DEVICE void count_not_negative_zero(std::int64_t terms) {
    specials_.not_negative_zero += terms;
  }

  // Moves the window's contents into the chunks (the window stays where it is, empty).
  template <class Spill>
  PSCAN_HOST_DEVICE void flush(Spill& spill) {
    const auto bits = static_cast<unsigned __int128>(sum_);
    for (int k = 0; k < 3; ++k) {
      const auto piece = static_cast<std::int64_t>(static_cast<std::uint32_t>(bits >> (32 * k)));
      if (piece != 0) spill(base_ + k, piece);
    }
    const auto top = static_cast<std::int64_t>(sum_ >> 96);  // signed: the window's sign
    if (top != 0) spill(base_ + 3, top);
    sum_ = 0;
    specials_.not_negative_zero += not_negative_zero_;
    not_negative_zero_ = 0;
  }

  // The special terms among those added, counted (after a flush()).
  PSCAN_HOST_DEVICE const exact_specials& specials() const { return specials_; }

 private:
  template <bool CountSign, class Spill>
  PSCAN_HOST_DEVICE PSCAN_FORCEINLINE void add_term(T x, Spill& spill) {
    bits_type bits;
    std::memcpy(&bits, &x, sizeof bits);
    const bits_type magnitude = bits & ~(bits_type{1} << sign_shift);
    const int exponent = static_cast<int>(magnitude >> fraction_bits);
    const int shift = magnitude == 0 ? 0 : exponent - (exponent != 0) - chunk_bits * base_;
    if constexpr (CountSign) not_negative_zero_ += bits != bits_type{1} << sign_shift ? 1 : 0;
    if (static_cast<unsigned>(shift) > static_cast<unsigned>(highest_shift) ||
        exponent == exponent_max) {
      add_outside(x, spill);
      return;
    }
    const std::uint64_t m = (static_cast<std::uint64_t>(magnitude) &
                             ((std::uint64_t{1} << fraction_bits) - 1)) |
                            static_cast<std::uint64_t>(exponent != 0) << fraction_bits;
    const unsigned __int128 v = static_cast<unsigned __int128>(m) << shift;
    sum_ += (bits >> sign_shift) != 0 ? -static_cast<__int128>(v) : static_cast<__int128>(v);
  }

  // NaN, infinities, and terms above or below the window: above, the window moves up to it.
  template <class Spill>
  PSCAN_HOST_DEVICE void add_outside(T x, Spill& spill) {
    const term t = term::of(x);
    specials_.nan += t.specials.nan;
    specials_.plus_infinity += t.specials.plus_infinity;
    specials_.minus_infinity += t.specials.minus_infinity;
    if (t.m == 0) return;
    if (t.position < chunk_bits * base_) {  // below: straight into the chunks
      spill_term(t.m, t.position, t.negative, spill);
      return;
    }
    flush(spill);
    base_ = t.position > placement ? (t.position - placement) / chunk_bits : 0;
    const unsigned __int128 v = static_cast<unsigned __int128>(t.m)
                                << (t.position - chunk_bits * base_);
    sum_ = t.negative ? -static_cast<__int128>(v) : static_cast<__int128>(v);
  }

  // (-1)^negative * m * 2^position units (m < 2^54) into the chunks: at most 3 pieces.
  template <class Spill>
  PSCAN_HOST_DEVICE static void spill_term(std::uint64_t m, int position, bool negative,
                                           Spill& spill) {
    const unsigned __int128 v = static_cast<unsigned __int128>(m) << (position % chunk_bits);
    for (int k = 0; k < 3; ++k) {
      const auto piece = static_cast<std::int64_t>(static_cast<std::uint32_t>(v >> (32 * k)));
      if (piece != 0) spill(position / chunk_bits + k, negative ? -piece : piece);
    }
  }

  __int128 sum_ = 0;  // in units of 2^(32 base_) of exact_sum's
  int base_ = 0;
  std::uint32_t not_negative_zero_ = 0;  // since the last flush
  exact_specials specials_ = {0, 0, 0, 0};
};

// Where a run of terms lies: the lowest and highest positions of its non-zero terms, and whether
// any is NaN or infinite.
template <class T>
struct exact_extent {
  int lowest = 1 << 30;
  int highest = 0;
  bool special = false;

  PSCAN_HOST_DEVICE void take(const exact_term<T>& t) {
    special = special || t.specials.nan != 0 || t.specials.plus_infinity != 0 ||
              t.specials.minus_infinity != 0;
    if (t.m != 0) {
      lowest = t.position < lowest ? t.position : lowest;
      highest = t.position > highest ? t.position : highest;
    }
  }
};

// The outputs of a scan after an exact prefix, in the common case, at a few integer
// instructions a term: the terms finite, up to 2^12 of them, their lowest bits within `span` of
// each other, and the prefix below 2^190 times the lowest. With base the lowest bit, prefix =
// q * 2^base + r (0 <= r < 2^base), the terms so far sum to l * 2^base with l in 128 bits, and
// each output rounds q + l (192 bits) once, r counting only as a sticky bit.
template <class T>
class exact_prefix_window {
 public:
  static constexpr int span = 126 - (exact_format<T>::fraction_bits + 1) - 13;

  PSCAN_HOST_DEVICE static bool applies(const exact_sum<T>& prefix, const exact_extent<T>& terms) {
    const exact_specials& s = prefix.specials;
    const int base = base_of(terms);
    return !terms.special && s.nan == 0 && s.plus_infinity == 0 && s.minus_infinity == 0 &&
           terms.highest - base <= span && 64 * (prefix.hi + 1) <= base + 190;
  }

  // `prefix` must outlive the window (the rare output below 2^base is rounded from it).
  PSCAN_HOST_DEVICE exact_prefix_window(const exact_sum<T>& prefix, const exact_extent<T>& terms)
      : prefix_(&prefix),
        base_(base_of(terms)),
        q_low_(static_cast<unsigned __int128>(prefix.bits_from(base_ + 64)) << 64 |
               prefix.bits_from(base_)),
        q_high_(prefix.bits_from(base_ + 128)),
        below_(prefix.any_below(base_)) {}

  // t in units of 2^base.
  PSCAN_HOST_DEVICE __int128 scaled(const exact_term<T>& t) const {
    const auto v = t.m == 0 ? 0 : static_cast<unsigned __int128>(t.m) << (t.position - base_);
    return t.negative ? -static_cast<__int128>(v) : static_cast<__int128>(v);
  }

  // prefix + l * 2^base rounded; not_negative_zero counts the non-(-0) terms, prefix's included.
  PSCAN_HOST_DEVICE T rounded(__int128 l, std::int64_t not_negative_zero) const {
    const unsigned __int128 low = q_low_ + static_cast<unsigned __int128>(l);
    const std::uint64_t high = q_high_ + (l < 0 ? ~std::uint64_t{0} : 0) + (low < q_low_ ? 1 : 0);
    T r;
    switch (exact_sum<T>::round_wide(low, high, base_, below_, r)) {
      case exact_sum<T>::rounding::done:
        return r;
      case exact_sum<T>::rounding::zero:
        return not_negative_zero == 0 ? T(-0.0) : T(0.0);
      default: {  // an output below 2^base, where r's bits count: from the exact sum
        exact_sum<T> exact = *prefix_;
        exact.add_scaled(l, base_);
        return exact.rounded();
      }
    }
  }

 private:
  PSCAN_HOST_DEVICE static int base_of(const exact_extent<T>& terms) {
    return terms.lowest == 1 << 30 ? 0 : terms.lowest;
  }

  const exact_sum<T>* prefix_;
  int base_;
  unsigned __int128 q_low_;
  std::uint64_t q_high_;
  bool below_;
};

// The chunks of one host thread's window, and their exact sum. Host and device, as the window
// that calls it is (a CUDA translation unit would warn at every host call otherwise).
template <class T>
struct exact_chunks {
  std::int64_t chunk[exact_window<T>::chunk_count] = {};
  PSCAN_HOST_DEVICE void operator()(int k, std::int64_t piece) { chunk[k] += piece; }
  exact_sum<T> sum(const exact_specials& specials) const {
    return exact_sum<T>::of_chunks(chunk, specials);
  }
};

}  // namespace pscan::detail
