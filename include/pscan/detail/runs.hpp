#pragma once
// The generic reduce_by_key: one inclusive scan whose accumulator carries, beside the lifted
// (value, head) of segmented_generic.hpp, the number of runs begun so far. The scan's value at i
// is then i's run number and its run's reduction up to i: a run's first element writes its key to
// keys_out[run], its last writes the reduction to values_out[run]. A backend without its own
// reduce_by_key_into gets it from its inclusive_scan (the CUDA policies fuse it into the segmented
// tile agent); op sees only input values and results of op.

#include <pscan/detail/config.hpp>
#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/detail/segmented_generic.hpp>
#include <pscan/functional.hpp>
#include <pscan/scan.hpp>

#include <cstdint>
#include <iterator>

namespace pscan::detail {

// A stretch's reduction from its last run start on, and the runs that start in it: a 64-bit
// count over a whole input; a stretch that cannot hold more runs (a GPU tile's) may count in int.
template <class T, class Count = std::int64_t>
struct counted {
  T value;
  Count runs;
};

// (s, r) (+) (s', r') = (r' > 0 ? s' : s op s', r + r'): the lifted operator with a count.
template <class Op>
struct counted_op {
  Op op;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  template <class T, class Count>
  PSCAN_HOST_DEVICE counted<T, Count> operator()(const counted<T, Count>& a,
                                                 const counted<T, Count>& b) const {
    if (b.runs > 0) return {b.value, a.runs + b.runs};
    return {static_cast<T>(op(a.value, b.value)), a.runs};
  }
};

template <class V, class Count>
struct segment_marks<counted<V, Count>> {
  using value_type = V;
  static constexpr bool counts_runs = true;
  static const V& value(const counted<V, Count>& t) { return t.value; }
  static counted<V, Count> with_value(const counted<V, Count>& marks, const V& v) {
    return {v, marks.runs};
  }
  static void set_runs(counted<V, Count>& t, std::int64_t runs) {
    t.runs = static_cast<Count>(runs);
  }
  template <class Op>
  static Op& values_op(counted_op<Op>& op) {
    return op.op;
  }
};

// Assigning the scan's value at i: the key where a run starts, the value where it ends, and
// the number of runs at the last element (to *runs_out).
template <class KeyIt, class Heads, class KeyOut, class ValOut, class RunsOut>
struct run_output {
  struct writer {
    const run_output* self;
    std::int64_t i;
    PSCAN_CALLS_WHAT_IT_IS_GIVEN
    template <class T>
    PSCAN_HOST_DEVICE const writer& operator=(const counted<T>& p) const {
      const run_output& o = *self;
      const std::int64_t run = p.runs - 1;
      const bool last = i + 1 == o.n;
      if (o.heads(i)) o.keys_out[run] = o.keys[i];
      if (last || o.heads(i + 1)) o.values_out[run] = p.value;
      if (last) *o.runs_out = p.runs;
      return *this;
    }
  };
  KeyIt keys;
  Heads heads;
  std::int64_t n;
  KeyOut keys_out;
  ValOut values_out;
  RunsOut runs_out;
};

template <class Output>
struct run_writers {
  Output output;
  PSCAN_HOST_DEVICE typename Output::writer operator()(std::int64_t i) const {
    return {&output, i};
  }
};

// Writes the runs of keys[0, n) (n > 0) and their number.
template <class P, class KeyIt, class InIt, class KeyOut, class ValOut, class RunsOut, class KeyEq,
          class Op>
void reduce_runs(const P& policy, KeyIt keys, std::int64_t n, InIt values, KeyOut keys_out,
                 ValOut values_out, RunsOut runs_out, KeyEq eq, Op op) {
  using T = typename std::iterator_traits<InIt>::value_type;
  using Heads = key_heads<KeyIt, KeyEq>;
  const Heads heads{keys, eq};
  const auto in = make_index_iterator(flagged_input<counted<T>, InIt, Heads>{values, heads});
  using Output = run_output<KeyIt, Heads, KeyOut, ValOut, RunsOut>;
  const Output output{keys, heads, n, keys_out, values_out, runs_out};
  adl_inclusive_scan::call(policy, in, in + n, make_index_iterator(run_writers<Output>{output}),
                           counted_op<Op>{op});
}

}  // namespace pscan::detail
