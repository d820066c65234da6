#pragma once
// The generic segmented scans: a plain scan over (value, head) pairs with the lifted operator of
// Sengupta, Harris, Zhang & Owens (2007). Every backend gets segmented scans and scans by key
// from its inclusive_scan and exclusive_scan this way; a backend may specialise them, and this
// path stays the reference.

#include <pscan/detail/config.hpp>
#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/future_value.hpp>
#include <pscan/scan.hpp>

#include <cstdint>
#include <iterator>

namespace pscan::detail {

template <class T>
struct flagged {
  T value;
  bool head;
};

// (s_i, f_i) (+) (s_j, f_j) = (f_j ? s_j : s_i (+) s_j, f_i | f_j): associative whenever op is.
template <class Op>
struct lifted_op {
  Op op;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  template <class T>
  PSCAN_HOST_DEVICE flagged<T> operator()(const flagged<T>& a, const flagged<T>& b) const {
    if (b.head) return b;
    return flagged<T>{static_cast<T>(op(a.value, b.value)), a.head};
  }
};

// The hook for a backend that scans a segmented accumulator's values apart from its marks (the
// OpenMP chunks scan the values past a chunk's last head as plain values): flagged<V> under
// lifted_op here, counted<V> under counted_op (runs.hpp); no other type is one.
template <class T>
struct segment_marks;
template <class V>
struct segment_marks<flagged<V>> {
  using value_type = V;
  static constexpr bool counts_runs = false;
  static const V& value(const flagged<V>& t) { return t.value; }
  // v, marked as `marks` is.
  static flagged<V> with_value(const flagged<V>& marks, const V& v) { return {v, marks.head}; }
  // The operator on the values that the lifted one wraps.
  template <class Op>
  static Op& values_op(lifted_op<Op>& op) {
    return op.op;
  }
};

// Head sources: whether position i starts a segment. Position 0 always does.
template <class FlagIt>
struct flag_heads {
  FlagIt flags;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE bool operator()(std::int64_t i) const { return i == 0 || flags[i] != 0; }
};

template <class KeyIt, class KeyEq>
struct key_heads {
  KeyIt keys;
  KeyEq eq;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE bool operator()(std::int64_t i) const {
    return i == 0 || !eq(keys[i - 1], keys[i]);
  }
};

// Segments by offsets, positions counted from base = offsets[0]: i starts one where an offset of
// a segment (offsets[0 .. count-1), the last one only ends the last segment) equals base + i.
template <class OffIt>
struct offset_heads {
  OffIt offsets;
  std::int64_t count;  // at least 2
  std::int64_t base;
  // The first s < count - 1 with offsets[s] >= base + i, or count - 1: a binary search.
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE std::int64_t first_at_or_after(std::int64_t i) const {
    std::int64_t low = 0, high = count - 1;
    while (low < high) {
      const std::int64_t mid = low + (high - low) / 2;
      if (static_cast<std::int64_t>(offsets[mid]) < base + i) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE bool operator()(std::int64_t i) const {
    const std::int64_t s = first_at_or_after(i);
    return i == 0 || (s < count - 1 && static_cast<std::int64_t>(offsets[s]) == base + i);
  }
};

// Inputs: A{values[i], head(i)}, A an accumulator with a value and a head mark (flagged<T>, or
// runs.hpp's counted<T>, whose run count a head starts at 1).
template <class A, class InIt, class Heads>
struct flagged_input {
  InIt values;
  Heads heads;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE A operator()(std::int64_t i) const {
    return A{static_cast<decltype(A::value)>(values[i]), heads(i)};
  }
};

// For exclusive scans: init folded into the first value of every segment. Init is a value or a
// deferred init (read where the scan runs), of value type T.
template <class Init, class InIt, class Heads, class Op>
struct flagged_input_with_init {
  using T = init_value_t<Init>;
  InIt values;
  Heads heads;
  Init init;
  Op op;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE flagged<T> operator()(std::int64_t i) const {
    if (heads(i)) {
      return flagged<T>{static_cast<T>(op(static_cast<const T&>(init), values[i])), true};
    }
    return flagged<T>{static_cast<T>(values[i]), false};
  }
};

// The hook for a backend that reads a generic segmented input's values and heads apart (the
// OpenMP chunks walk back to a chunk's last head): known for the index iterators over the two
// inputs above, and for no other iterator.
template <class It>
struct segmented_parts {
  static constexpr bool known = false;
};
template <class F>
struct segmented_parts_of {
  static constexpr bool known = true;
  static const auto& heads(const index_iterator<F>& it) { return it.function().heads; }
  static const auto& values(const index_iterator<F>& it) { return it.function().values; }
};
template <class A, class InIt, class Heads>
struct segmented_parts<index_iterator<flagged_input<A, InIt, Heads>>>
    : segmented_parts_of<flagged_input<A, InIt, Heads>> {};
template <class Init, class InIt, class Heads, class Op>
struct segmented_parts<index_iterator<flagged_input_with_init<Init, InIt, Heads, Op>>>
    : segmented_parts_of<flagged_input_with_init<Init, InIt, Heads, Op>> {};

// Outputs: assigning a pair to element i writes its value (inclusive) ...
template <class OutIt>
struct value_output {
  struct writer {
    OutIt out;
    std::int64_t i;
    PSCAN_CALLS_WHAT_IT_IS_GIVEN
    template <class T>
    PSCAN_HOST_DEVICE const writer& operator=(const flagged<T>& p) const {
      out[i] = p.value;
      return *this;
    }
  };
  OutIt out;
  PSCAN_HOST_DEVICE writer operator()(std::int64_t i) const { return writer{out, i}; }
};

// ... or, exclusive, the prefix before i: init where i starts a segment.
template <class OutIt, class Heads, class Init>
struct exclusive_output {
  using T = init_value_t<Init>;
  struct writer {
    OutIt out;
    Heads heads;
    Init init;
    std::int64_t i;
    PSCAN_CALLS_WHAT_IT_IS_GIVEN
    template <class U>
    PSCAN_HOST_DEVICE const writer& operator=(const flagged<U>& p) const {
      out[i] = heads(i) ? static_cast<const T&>(init) : p.value;
      return *this;
    }
  };
  OutIt out;
  Heads heads;
  Init init;
  PSCAN_HOST_DEVICE writer operator()(std::int64_t i) const { return writer{out, heads, init, i}; }
};

// The lifted scan's init, (init, head), when init is deferred: read where the scan runs, through
// static_cast<const flagged<T>&> (an implicit conversion: a reference cannot bind the result of an
// explicit one).
template <class Init>
struct flagged_init {
  using T = init_value_t<Init>;
  Init init;
  PSCAN_HOST_DEVICE operator flagged<T>() const {
    return flagged<T>{static_cast<const T&>(init), true};
  }
};
template <class Init>
struct init_traits<flagged_init<Init>> {
  using value_type = flagged<init_value_t<Init>>;
  static constexpr bool deferred = true;
};

// (init, head) as the lifted scan's init: a value for a value, deferred for a deferred init.
template <class Init>
auto lifted_init(const Init& init) {
  if constexpr (is_deferred_init_v<Init>) {
    return flagged_init<Init>{init};
  } else {
    return flagged<Init>{init, true};
  }
}

template <class P, class InIt, class Heads, class OutIt, class Op>
void inclusive_scan_by_heads(const P& policy, InIt values, Heads heads, std::int64_t n, OutIt out,
                             Op op) {
  using T = typename std::iterator_traits<InIt>::value_type;
  const auto in = make_index_iterator(flagged_input<flagged<T>, InIt, Heads>{values, heads});
  adl_inclusive_scan::call(policy, in, in + n, make_index_iterator(value_output<OutIt>{out}),
                           lifted_op<Op>{op});
}

template <class P, class InIt, class Heads, class OutIt, class Init, class Op>
void exclusive_scan_by_heads(const P& policy, InIt values, Heads heads, std::int64_t n, OutIt out,
                             Init init, Op op) {
  const auto in =
      make_index_iterator(flagged_input_with_init<Init, InIt, Heads, Op>{values, heads, init, op});
  adl_exclusive_scan::call(
      policy, in, in + n,
      make_index_iterator(exclusive_output<OutIt, Heads, Init>{out, heads, init}),
      lifted_init(init), lifted_op<Op>{op});
}

}  // namespace pscan::detail
