#pragma once
// Segment descriptions for the segmented cases: head flags, keys and offsets, with the segment
// shapes that break implementations: one segment, all single elements, empty segments, runs that
// cross tile boundaries.

#include <algorithm>
#include <vector>

#include "support.hpp"

namespace conformance {

// A segment starts with probability 1/k; 0 = only position 0 starts one, 1 = every position.
inline const std::vector<std::uint64_t>& head_rates() {
  static const std::vector<std::uint64_t> rates = {0, 1024, 16, 2, 1};
  return rates;
}

// All rates for inputs up to 2^16+1; above, one rate per size (rotating) to bound the run time.
inline std::vector<std::uint64_t> head_rates_for(std::size_t size_index, std::int64_t n) {
  if (n <= 65537) return head_rates();
  return {head_rates()[size_index % head_rates().size()]};
}

inline bool starts_segment(random_source& random, std::uint64_t rate) {
  return rate != 0 && random.one_in(rate);
}

// Heads are any non-zero byte, not just 1; position 0 gets a random flag (it starts anyway).
inline std::vector<std::uint8_t> make_head_flags(random_source& random, std::int64_t n,
                                                 std::uint64_t rate) {
  static const std::uint8_t head_values[] = {1, 3, 0x80, 0xFF};
  std::vector<std::uint8_t> flags(static_cast<std::size_t>(n), 0);
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (starts_segment(random, rate) || (i == 0 && random.one_in(2))) {
      flags[i] = head_values[random.next() % 4];
    }
  }
  return flags;
}

inline std::vector<char> heads_from_flags(const std::vector<std::uint8_t>& flags) {
  std::vector<char> heads(flags.size());
  for (std::size_t i = 0; i < flags.size(); ++i) heads[i] = i == 0 || flags[i] != 0;
  return heads;
}

// Non-negative, non-decreasing keys: a step of 1..4 at a segment start, so keys differ there and
// some steps stay inside a same_bucket bucket.
inline std::vector<std::int32_t> make_keys(random_source& random, std::int64_t n,
                                           std::uint64_t rate) {
  std::vector<std::int32_t> keys(static_cast<std::size_t>(n));
  std::int32_t key = static_cast<std::int32_t>(random.between(0, 3));
  for (auto& k : keys) {
    if (starts_segment(random, rate)) key += static_cast<std::int32_t>(random.between(1, 4));
    k = key;
  }
  return keys;
}

// A custom KeyEq: keys are equal when they fall in the same bucket of 4.
struct same_bucket {
  CONFORMANCE_HD bool operator()(std::int32_t a, std::int32_t b) const { return a / 4 == b / 4; }
};

template <class KeyEq>
std::vector<char> heads_from_keys(const std::vector<std::int32_t>& keys, KeyEq eq) {
  std::vector<char> heads(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) heads[i] = i == 0 || !eq(keys[i - 1], keys[i]);
  return heads;
}

enum class offsets_layout { one_segment, single_elements, all_empty, mixed };
inline constexpr offsets_layout all_layouts[] = {offsets_layout::one_segment,
                                                 offsets_layout::single_elements,
                                                 offsets_layout::all_empty, offsets_layout::mixed};
inline const char* name_of(offsets_layout layout) {
  switch (layout) {
    case offsets_layout::one_segment:
      return "one segment";
    case offsets_layout::single_elements:
      return "single-element segments";
    case offsets_layout::all_empty:
      return "empty segments only";
    case offsets_layout::mixed:
      return "mixed lengths, empty first and last";
  }
  return "?";
}

// Offsets into n values. `mixed` starts past 0, leaves trailing values out, begins and ends with an
// empty segment, and mixes empty (now and then many in a row), single-element, short and
// tile-crossing segments.
template <class Off>
std::vector<Off> make_offsets(random_source& random, std::int64_t n, offsets_layout layout) {
  std::vector<Off> offsets;
  switch (layout) {
    case offsets_layout::one_segment:
      return {Off(0), Off(n)};
    case offsets_layout::single_elements:
      for (std::int64_t i = 0; i <= n; ++i) offsets.push_back(Off(i));
      return offsets;
    case offsets_layout::all_empty:
      return {Off(n / 2), Off(n / 2), Off(n / 2)};
    case offsets_layout::mixed:
      break;
  }
  const std::int64_t begin = random.between(0, std::min<std::int64_t>(3, n));
  const std::int64_t end = n - random.between(0, std::min<std::int64_t>(3, n - begin));
  const std::int64_t typical = std::int64_t{1} << random.between(1, 13);
  offsets = {Off(begin), Off(begin)};
  for (std::int64_t at = begin; at < end;) {
    const std::uint64_t shape = random.next() % 4;
    if (shape == 0) {  // empty segments; now and then more in a row than a warp reads at once
      const std::int64_t empties = random.between(0, 7) == 0 ? random.between(33, 70) : 1;
      offsets.insert(offsets.end(), static_cast<std::size_t>(empties), Off(at));
      continue;
    }
    const std::int64_t length = shape == 0 ? 0 : shape == 1 ? 1 : random.between(2, 2 * typical);
    at = std::min(end, at + length);
    offsets.push_back(Off(at));
  }
  offsets.push_back(Off(end));
  return offsets;
}

}  // namespace conformance
