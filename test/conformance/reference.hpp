#pragma once
// The expected results: plain left-to-right loops, independent of every pscan policy.

#include <cstdint>
#include <utility>
#include <vector>

namespace conformance {

template <class T, class Op>
std::vector<T> expected_inclusive_scan(const std::vector<T>& in, Op op) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = i == 0 ? in[0] : T(op(out[i - 1], in[i]));
  return out;
}

template <class T, class V, class Op>
std::vector<T> expected_inclusive_scan(const std::vector<V>& in, Op op, T init) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = init = op(init, in[i]);
  return out;
}

template <class T, class V, class Op>
std::vector<T> expected_exclusive_scan(const std::vector<V>& in, T init, Op op) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = init;
    init = op(init, in[i]);
  }
  return out;
}

template <class T, class V, class Op>
T expected_reduce(const std::vector<V>& in, T init, Op op) {
  for (const V& v : in) init = op(init, v);
  return init;
}

// heads[i] != 0: a segment starts at i (position 0 always starts one).
template <class T, class Op>
std::vector<T> expected_segmented_inclusive_scan(const std::vector<T>& in,
                                                 const std::vector<char>& heads, Op op) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = i == 0 || heads[i] ? in[i] : T(op(out[i - 1], in[i]));
  }
  return out;
}

template <class T, class Op>
std::vector<T> expected_segmented_exclusive_scan(const std::vector<T>& in,
                                                 const std::vector<char>& heads, T init, Op op) {
  std::vector<T> out(in.size());
  T acc = init;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (i == 0 || heads[i]) acc = init;
    out[i] = acc;
    acc = op(acc, in[i]);
  }
  return out;
}

template <class T, class V, class Off, class Op>
std::vector<T> expected_segmented_reduce(const std::vector<V>& values,
                                         const std::vector<Off>& offsets, T init, Op op) {
  std::vector<T> out;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    T acc = init;
    for (Off i = offsets[s]; i < offsets[s + 1]; ++i) acc = op(acc, values[std::size_t(i)]);
    out.push_back(acc);
  }
  return out;
}

// out as a scan by offsets leaves it, by a plain loop over the segments (init only if Exclusive).
template <bool Exclusive, class T, class Off, class Op>
std::vector<T> expected_scan_by_offsets(const std::vector<T>& values,
                                        const std::vector<Off>& offsets, std::vector<T> out,
                                        T init, Op op) {
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    const auto first = static_cast<std::size_t>(offsets[s]);
    const auto last = static_cast<std::size_t>(offsets[s + 1]);
    T acc = init;
    for (std::size_t i = first; i < last; ++i) {
      if constexpr (Exclusive) {
        out[i] = acc;
        acc = op(acc, values[i]);
      } else {
        acc = i == first ? values[i] : T(op(acc, values[i]));
        out[i] = acc;
      }
    }
  }
  return out;
}

// The runs of keys under eq, by a plain loop: each run's first key and the reduction of its
// values, left to right.
template <class K, class V, class Op, class KeyEq>
std::pair<std::vector<K>, std::vector<V>> expected_runs(const std::vector<K>& keys,
                                                        const std::vector<V>& values, Op op,
                                                        KeyEq eq) {
  std::vector<K> run_keys;
  std::vector<V> run_values;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i == 0 || !eq(keys[i - 1], keys[i])) {
      run_keys.push_back(keys[i]);
      run_values.push_back(values[i]);
    } else {
      run_values.back() = op(run_values.back(), values[i]);
    }
  }
  return {run_keys, run_values};
}

}  // namespace conformance
