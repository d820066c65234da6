#pragma once
// exact_window<T>: the exact sum of many float or double terms at the cost of a few integer
// instructions a term. The terms land in a 128-bit fixed-point window (registers), placed by the
// first term it takes; a term above the window, or a full window, moves the window's contents out
// into 32-bit chunks of the whole range (a spill, the caller's: an array on the host, shared
// memory on the GPU), and a term below it goes to the chunks directly. The chunks are 64-bit
// words, so they take 2^31 pieces before a carry is due: Neal's "small superaccumulator" ("Fast
// exact summation using small and large superaccumulators", 2015). Values of similar magnitude,
// the common case, never leave the window.

#include <pscan/detail/config.hpp>
#include <pscan/detail/exact_sum.hpp>

#include <cstdint>

namespace pscan::detail {

template <class T>
class exact_window {
  using term = exact_term<T>;
  static constexpr int chunk_bits = 32;
  // Spilled after 2^term_bits terms, the window cannot overflow: a term's lowest bit goes at
  // most highest_shift bits up.
  static constexpr int term_bits = 8;
  static constexpr int highest_shift = 127 - (exact_format<T>::fraction_bits + 1) - term_bits;
  // A window placed by a term puts that term's lowest bit placement to placement + 31 bits up:
  // about as much room above it as below.
  static constexpr int placement = highest_shift / 2 - 16;

 public:
  // The chunks of the whole range: as many as exact_sum<T> has halves of limbs.
  static constexpr int chunk_count = 2 * exact_format<T>::limbs;

  PSCAN_HOST_DEVICE static exact_window empty() { return exact_window{}; }

  // Adds x; spill(k, piece) must add piece * 2^(32 k) units (exact_sum's) to chunk k.
  template <class Spill>
  PSCAN_HOST_DEVICE PSCAN_FORCEINLINE void add(T x, Spill& spill) {
    const term t = term::of(x);
    specials_ = specials_ + t.specials;
    int shift = t.position - chunk_bits * base_;
    if (shift < 0) {
      spill_term(t, spill);
      return;
    }
    if (shift > highest_shift || terms_ == (1 << term_bits)) {
      flush(spill);
      base_ = t.position > placement ? (t.position - placement) / chunk_bits : 0;
      shift = t.position - chunk_bits * base_;
    }
    const unsigned __int128 v = static_cast<unsigned __int128>(t.m) << shift;
    sum_ += t.negative ? -static_cast<__int128>(v) : static_cast<__int128>(v);
    ++terms_;
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
    terms_ = 0;
  }

  // The special terms among those added, counted.
  PSCAN_HOST_DEVICE const exact_specials& specials() const { return specials_; }

 private:
  // A term straight into the chunks: its m << (position % 32) is at most 84 bits, 3 chunks.
  template <class Spill>
  PSCAN_HOST_DEVICE static void spill_term(const term& t, Spill& spill) {
    const unsigned __int128 v = static_cast<unsigned __int128>(t.m) << (t.position % chunk_bits);
    for (int k = 0; k < 3; ++k) {
      const auto piece = static_cast<std::int64_t>(static_cast<std::uint32_t>(v >> (32 * k)));
      if (piece != 0) spill(t.position / chunk_bits + k, t.negative ? -piece : piece);
    }
  }

  __int128 sum_ = 0;  // in units of 2^(32 base_) of exact_sum's
  int base_ = 0;
  int terms_ = 0;
  exact_specials specials_ = {0, 0, 0, 0};
};

// The chunks of one host thread's window, and their exact sum.
template <class T>
struct exact_chunks {
  std::int64_t chunk[exact_window<T>::chunk_count] = {};
  void operator()(int k, std::int64_t piece) { chunk[k] += piece; }
  exact_sum<T> sum(const exact_specials& specials) const {
    return exact_sum<T>::of_chunks(chunk, specials);
  }
};

}  // namespace pscan::detail
