#pragma once
// pscan::exact_plus over float and double values: the generic path (exact_lifting), which a
// backend without an exact_algorithm hook of its own takes (dispatch.hpp's backend_call). The
// algorithm runs as it is over exact sums (exact_sum.hpp) in place of the values, added exactly
// and each output rounded once as it is written. Since the sums are exact, no grouping a policy
// chooses (thread count, tiles, look-back, ranks) can change a bit of the result:
// - reductions and scans over blocks of exact_block_items values: element b is block b's exact
//   sum (summed in an exact_window: a few instructions a value), and a scan's output b writes
//   block b's outputs from the prefix it is given (exact_block_prefixes);
// - the other algorithms over each value lifted to its exact sum (exact_in, exact_out).
// The CUDA policies' hooks run kernels of their own over the values (exact_reduce.cuh,
// exact_scan.cuh).

#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/exact_bins.hpp>
#include <pscan/detail/exact_sum.hpp>
#include <pscan/detail/exact_window.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/detail/transformed.hpp>
#include <pscan/functional.hpp>
#include <pscan/future_value.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

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
  return exact_sum<T>::of(static_cast<T>(init));
}

// The user's output iterator at the position an algorithm returned over exact_out(out).
template <class OutIt, class F>
OutIt exact_back(OutIt out, const index_iterator<F>& end) {
  return out + end.position();
}

// The generic path of exact_plus (dispatch.hpp's backend_call): each algorithm's call over exact
// sums, with exact_add. Reductions and scans take blocks of values (exact_blocks,
// exact_block_out); the others each value lifted to its exact sum (exact_in, exact_out).
template <class P>
constexpr bool holds_exact_sums() {
  return accepts<P, exact_add, exact_sum<float>>();
}

// Each algorithm's tag names its lifting (PSCAN_DETAIL_ALGORITHM, beside its entry).
struct exact_reduce_lifting {
  template <class A, class P, class Call, class InIt, class T>
  static A run(const P&, Call& call, InIt first, InIt last, const T& init) {
    const exact_blocks<A, InIt> blocks(first, last);
    return call(exact_add{}, blocks.first, blocks.last, exact_init<A>(init)).rounded();
  }
};

struct exact_reduce_into_lifting {
  template <class A, class P, class Call, class InIt, class OutIt, class T>
  static void run(const P&, Call& call, InIt first, InIt last, OutIt result, const T& init) {
    const exact_blocks<A, InIt> blocks(first, last);
    call(exact_add{}, blocks.first, blocks.last, exact_out<A>(result), exact_init<A>(init));
  }
};

// A scan over blocks given their inclusive or exclusive prefixes, as its outputs are.
template <bool Inclusive>
struct exact_scan_lifting {
  template <class A, class P, class Call, class InIt, class OutIt, class... Init>
  static OutIt run(const P&, Call& call, InIt first, InIt last, OutIt out, const Init&... init) {
    const exact_blocks<A, InIt> blocks(first, last);
    call(exact_add{}, blocks.first, blocks.last,
         exact_block_out<A>(first, out, last - first, Inclusive), exact_init<A>(init)...);
    return out + (last - first);
  }
};

// The other algorithms over each value lifted to its exact sum: their arguments are the `Pass`
// that are not values (keys, flags, offsets, eq), then the values, the output, an optional init.
template <std::size_t Pass>
struct exact_element_lifting {
  template <class A, class P, class Call, class... Args>
  static decltype(auto) run(const P&, Call& call, const Args&... args) {
    if constexpr (holds_exact_sums<P>()) {
      return lifted<A>(call, std::forward_as_tuple(args...),
                       std::make_index_sequence<sizeof...(Args)>{});
    } else {
      return call(exact_plus<A>{}, args...);  // a static_assert has said why
    }
  }

 private:
  template <class A, class Call, class Args, std::size_t... I>
  static decltype(auto) lifted(Call& call, const Args& args, std::index_sequence<I...>) {
    using result = decltype(call(exact_add{}, lifted_argument<A, I>(std::get<I>(args))...));
    if constexpr (std::is_void_v<result>) {
      call(exact_add{}, lifted_argument<A, I>(std::get<I>(args))...);
    } else {
      return exact_result(std::get<Pass + 1>(args),
                          call(exact_add{}, lifted_argument<A, I>(std::get<I>(args))...));
    }
  }

  template <class A, std::size_t I, class X>
  static auto lifted_argument(const X& x) {
    if constexpr (I < Pass) {
      return x;
    } else if constexpr (I == Pass) {
      return exact_in<A>(x);
    } else if constexpr (I == Pass + 1) {
      return exact_out<A>(x);
    } else {
      return exact_init<A>(x);
    }
  }

  // What the call returned over exact_out(out), as the user's iterator.
  template <class OutIt, class F>
  static OutIt exact_result(OutIt out, const index_iterator<F>& end) {
    return exact_back(out, end);
  }
  template <class OutIt, class K, class F>
  static std::pair<K, OutIt> exact_result(OutIt out, const std::pair<K, index_iterator<F>>& ends) {
    return {ends.first, exact_back(out, ends.second)};
  }
};

}  // namespace pscan::detail
