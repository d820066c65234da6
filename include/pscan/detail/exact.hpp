#pragma once
// pscan::exact_plus over float and double values. Every algorithm runs as it is, on every policy,
// over exact sums (exact_sum.hpp) in place of the values, added exactly and each output rounded
// once as it is written. Since the sums are exact, no grouping a policy chooses (thread count,
// tiles, look-back, ranks) can change a bit of the result. Each public algorithm forwards such a
// call to itself over exact sums:
// - reductions and scans over blocks of exact_block_items values: element b is block b's exact
//   sum (summed in an exact_window: a few instructions a value), and a scan's output b writes
//   block b's outputs from the prefix it is given (exact_block_prefixes). The CUDA policies
//   recognise the blocks and run kernels of their own over the values (exact_reduce.cuh,
//   exact_scan.cuh);
// - the segmented algorithms over each value lifted to its exact sum (exact_in, exact_out).

#include <pscan/detail/exact_bins.hpp>
#include <pscan/detail/exact_sum.hpp>
#include <pscan/detail/exact_window.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/detail/transformed.hpp>
#include <pscan/functional.hpp>
#include <pscan/future_value.hpp>

#include <cstdint>
#include <type_traits>

namespace pscan::detail {

// Values per block of the block forms: a block's exact sum (288 bytes for double) then costs
// less than a tenth of a nanosecond a value, and 2^20 values still make 256 blocks for threads
// to share.
inline constexpr std::int64_t exact_block_items = 4096;

// Element b: the exact sum of first[b * exact_block_items ..) (n values in all), as T.
template <class T, class InIt>
struct exact_block_sums {
  InIt first;
  std::int64_t n;
  exact_sum<T> operator()(std::int64_t b) const {
    const std::int64_t from = b * exact_block_items;
    const std::int64_t to = n - from < exact_block_items ? n : from + exact_block_items;
    exact_chunks<T> chunks;
    auto window = exact_window<T>::empty();
    static_assert(exact_bins<T>::max_terms <= exact_window<T>::max_terms);
    for (std::int64_t start = from; start < to; start += exact_bins<T>::max_terms) {
      const std::int64_t end = to - start < exact_bins<T>::max_terms
                                   ? to
                                   : start + exact_bins<T>::max_terms;
      if (!exact_bins<T>::add(first + start, static_cast<int>(end - start), window, chunks)) {
        for (std::int64_t i = start; i < end; ++i) window.add(static_cast<T>(first[i]), chunks);
      }
      window.flush(chunks);
    }
    return chunks.sum(window.specials());
  }
};

template <class T, class InIt>
using exact_block_iterator = index_iterator<exact_block_sums<T, InIt>>;

template <class It>
inline constexpr bool is_exact_block_iterator_v = false;
template <class T, class InIt>
inline constexpr bool is_exact_block_iterator_v<exact_block_iterator<T, InIt>> = true;

template <class T, class InIt>
inline constexpr std::int64_t element_values_v<exact_block_iterator<T, InIt>> = exact_block_items;

// The blocks of [first, last) as a range of exact sums. A reversed range stays reversed, for the
// algorithm's checks to name it.
template <class T, class InIt>
struct exact_blocks {
  exact_block_iterator<T, InIt> first, last;
  exact_blocks(InIt in_first, InIt in_last)
      : first(exact_block_sums<T, InIt>{in_first, in_last - in_first < 0 ? 0 : in_last - in_first}),
        last(first + (in_last - in_first < 0 ? in_last - in_first
                                              : (in_last - in_first + exact_block_items - 1) /
                                                    exact_block_items)) {}
};

// Output b of a scan over blocks: assigned block b's prefix, it writes the block's outputs, each
// rounded once: an inclusive scan's backward from the block's inclusive prefix (the sum through
// its last value), taking each value out after its output; an exclusive scan's forward from its
// exclusive prefix. Each value is read before its output is written: the scan may work in place.
template <class T, class InIt, class OutIt>
struct exact_block_prefixes {
  struct slot {
    InIt first;
    OutIt out;
    std::int64_t from, to;
    bool inclusive;

    const slot& operator=(const exact_sum<T>& prefix) const {
      if (!in_window(prefix)) in_place(prefix);
      return *this;
    }

    // Each output from an exact sum updated in place: any values, ~25 ns a value.
    void in_place(const exact_sum<T>& prefix) const {
      exact_sum<T> sum = prefix;
      for (std::int64_t k = 0; k < to - from; ++k) {
        const std::int64_t i = inclusive ? to - 1 - k : from + k;
        const T x = static_cast<T>(first[i]);
        out[i] = sum.rounded();
        if (inclusive) {
          sum.subtract(x);
        } else {
          sum.add(x);
        }
      }
    }

    // The common case (exact_prefix_window): false, writing nothing, where it does not apply.
    bool in_window(const exact_sum<T>& prefix) const {
      using term = exact_term<T>;
      exact_extent<T> terms;
      for (std::int64_t i = from; i < to; ++i) terms.take(term::of(static_cast<T>(first[i])));
      if (!exact_prefix_window<T>::applies(prefix, terms)) return false;
      const exact_prefix_window<T> window(prefix, terms);
      __int128 l = 0;
      std::int64_t not_negative_zero = prefix.specials.not_negative_zero;
      const int sign = inclusive ? -1 : 1;
      for (std::int64_t k = 0; k < to - from; ++k) {
        const std::int64_t i = inclusive ? to - 1 - k : from + k;
        const term t = term::of(static_cast<T>(first[i]));
        out[i] = window.rounded(l, not_negative_zero);
        l += sign * window.scaled(t);
        not_negative_zero += sign * t.specials.not_negative_zero;
      }
      return true;
    }
  };
  InIt first;
  OutIt out;
  std::int64_t n;
  bool inclusive;
  slot operator()(std::int64_t b) const {
    const std::int64_t from = b * exact_block_items;
    const std::int64_t to = n - from < exact_block_items ? n : from + exact_block_items;
    return {first, out, from, to, inclusive};
  }
};

// The outputs of a scan of [first, first + n) into out, over blocks given their inclusive
// (inclusive scan) or exclusive (exclusive scan) prefixes.
template <class T, class InIt, class OutIt>
index_iterator<exact_block_prefixes<T, InIt, OutIt>> exact_block_out(InIt first, OutIt out,
                                                                     std::int64_t n,
                                                                     bool inclusive) {
  return {{first, out, n < 0 ? 0 : n, inclusive}};
}

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
