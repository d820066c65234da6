#pragma once
// The chained scan's chunks of a segmented input. The segmented scans and reduce_by_key reach it
// as (value, head) elements under the lifted operator (pscan/detail/segmented_generic.hpp,
// runs.hpp), which drops everything left of a head. So a chunk's total for its successors is its
// tail from its last head h on (and, for reduce_by_key's run counts, the heads before it), found
// by walking back from the chunk's end: the last segment's length of work, not a reduction of the
// whole chunk. The chunk is then [lo, h], scanned as pairs in one chain from the carry, and past h
// a plain range of values (no head there) scanned from the chain's value at h by the plain
// chunks' passes (scan_passes.hpp), the outputs and the total taking the chain's marks (head, run
// count). A chunk without a head (inside a long segment) is all plain range, from the carry.

#include <pscan/detail/grouping.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/detail/runs.hpp>
#include <pscan/detail/segmented_generic.hpp>
#include <pscan/detail/transformed.hpp>
#include <pscan/policies/openmp/partials.hpp>
#include <pscan/policies/openmp/scan_passes.hpp>

#include <cstdint>

namespace pscan::openmp_backend::detail {

// An output taking a plain scan's values: element i gets (value, the marks of `marks`).
template <class OutIt, class A>
struct marked_output {
  struct writer {
    const OutIt* out;
    const A* marks;
    std::int64_t i;
    template <class V>
    const writer& operator=(const V& v) const {
      (*out)[i] = pscan::detail::segment_marks<A>::with_value(*marks, v);
      return *this;
    }
  };
  const OutIt* out;
  const A* marks;
  writer operator()(std::int64_t i) const { return {out, marks, i}; }
};

// The three steps of a segmented chunk [lo, hi): reduce (in a team, before the carry is known),
// rescan (after), and from_carry (alone: the carry known first, one pass). Op is the lifted
// operator, T its accumulator (flagged or counted values of V). The chunk is [lo, h], up to its
// last head h, scanned as (value, head) elements, and past h a plain range of values.
template <scan_kind Kind, class T, class InIt, class OutIt, class Op>
struct segmented_chunks {
  using source = pscan::detail::segmented_parts<InIt>;
  using marks = pscan::detail::segment_marks<T>;
  using V = typename marks::value_type;

  struct reduction {
    partial<T> total;
    std::int64_t head;       // the last head, lo - 1 for none
    stretch_parts<V> parts;  // the stretches of the values past it
  };

  static reduction reduce(const InIt& first, std::int64_t lo, std::int64_t hi, Op& op,
                          bool has_carry) {
    reduction r;
    r.head = last_head(first, lo, hi, has_carry);
    auto& values_op = marks::values_op(op);
    const partial<V> past = reduce_range<V>(values(first), r.head + 1, hi, values_op, &r.parts);
    if (r.head < lo) {
      r.total = {true, T{past.value, {}}};  // unmarked: joined to the carry, it takes its marks
      return r;
    }
    T total = first[r.head];
    if constexpr (marks::counts_runs) marks::set_runs(total, heads_in(first, lo, r.head + 1));
    if (past.has) {
      total = marks::with_value(total, static_cast<V>(values_op(marks::value(total), past.value)));
    }
    r.total = {true, total};
    return r;
  }

  static void rescan(const InIt& first, std::int64_t lo, std::int64_t hi, const OutIt& out,
                     Op& op, const partial<T>& carry, const reduction& r) {
    const partial<T> at_head =
        r.head < lo ? carry : scan_chain<Kind>(first, lo, r.head + 1, out, op, carry);
    scan_range<Kind>(values(first), r.head + 1, hi, marked(out, at_head), marks::values_op(op),
                     partial<V>{true, marks::value(at_head.value)}, r.parts);
  }

  // Returns the chunk's inclusive prefix, with reduce's bits: where the operator groups freely,
  // those of one chain over the pairs (no walk back for the last head); else the pairs' chain to
  // the last head and the values past it in the plain passes' grouping.
  static partial<T> from_carry(const InIt& first, std::int64_t lo, std::int64_t hi,
                               const OutIt& out, Op& op, const partial<T>& carry) {
    if constexpr (pscan::detail::grouping_free_v<T, Op>) {
      return scan_chain<Kind>(first, lo, hi, out, op, carry);
    } else {
      const std::int64_t head = last_head(first, lo, hi, carry.has);
      const partial<T> at_head =
          head < lo ? carry : scan_chain<Kind>(first, lo, head + 1, out, op, carry);
      const partial<V> prefix =
          scan_range_from_carry<Kind>(values(first), head + 1, hi, marked(out, at_head),
                                      marks::values_op(op),
                                      partial<V>{true, marks::value(at_head.value)});
      return {true, marks::with_value(at_head.value, prefix.value)};
    }
  }

 private:
  // The last head of [lo, hi), lo - 1 for none; lo where the chunk has neither a head nor a carry
  // (it starts the input, which position 0 heads in every segmented algorithm).
  static std::int64_t last_head(const InIt& first, std::int64_t lo, std::int64_t hi,
                                bool has_carry) {
    const auto& heads = source::heads(first);
    const std::int64_t base = first.position();
    std::int64_t i = hi - 1;
    while (i >= lo && !heads(base + i)) --i;
    return i < lo && !has_carry ? lo : i;
  }

  static std::int64_t heads_in(const InIt& first, std::int64_t lo, std::int64_t hi) {
    const auto& heads = source::heads(first);
    const std::int64_t base = first.position();
    std::int64_t count = 0;
    for (std::int64_t i = lo; i < hi; ++i) count += heads(base + i) ? 1 : 0;
    return count;
  }

  // values[i] as the accumulator's value type, as the (value, head) elements hold it.
  static auto values(const InIt& first) {
    return pscan::detail::transform_input<V>(source::values(first),
                                             [](const auto& x) -> const auto& { return x; }) +
           first.position();
  }

  // The outputs past the head: the plain scan's values with the marks the chain had at the head.
  static auto marked(const OutIt& out, const partial<T>& at_head) {
    return pscan::detail::make_index_iterator(marked_output<OutIt, T>{&out, &at_head.value});
  }
};

}  // namespace pscan::openmp_backend::detail
