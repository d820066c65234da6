#pragma once
// The axes of the comparison matrix (target, algorithm, element type, size, segment lengths) and
// one cell of it. Plain C++: shared by the host code and the CUDA translation units.

#include "algorithms.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace compare {

enum class target { cpu, gpu };
enum class element { i32, i64, f32, f64, affine };

inline constexpr element all_elements[] = {element::i32, element::i64, element::f32, element::f64,
                                           element::affine};

const char* name_of(target t);
const char* name_of(element e);
std::size_t size_of(element e);

// Parses an axis value by name; returns false for an unknown name.
bool parse(const std::string& text, algorithm& out);
bool parse(const std::string& text, element& out);

// "2^20" for powers of two from 1024 on, the decimal number otherwise.
std::string format_count(std::int64_t n);

// Segment data types used by every implementation.
using flag_type = std::uint8_t;    // head flags: nonzero starts a segment
using key_type = std::int32_t;     // by-key: segment index (mod 2^31), so neighbours differ
using offset_type = std::int64_t;  // segmented_reduce: segments + 1 offsets

// How a segmented cell's segment lengths are drawn (--segments): uniform in [1, 2 mean - 1];
// one segment of all n elements; log-uniform in [1, 2^24); gaps: every other segment empty.
enum class segment_shape { none, uniform, one, log, gaps };  // none: an unsegmented algorithm

struct segment_lengths {
  segment_shape shape = segment_shape::none;
  std::int64_t mean = 0;  // uniform only
};
inline bool operator==(const segment_lengths& x, const segment_lengths& y) {
  return x.shape == y.shape && x.mean == y.mean;
}
inline bool operator<(const segment_lengths& x, const segment_lengths& y) {
  return x.shape != y.shape ? x.shape < y.shape : x.mean < y.mean;
}

// "1000", "2^20" (uniform, by its mean), "one", "log", "gaps"; "" for none.
std::string name_of(const segment_lengths& s);
// A named distribution ("one", "log", "gaps"); false for anything else (means are sizes).
bool parse(const std::string& text, segment_lengths& out);
bool has_empty_segments(const segment_lengths& s);

struct cell {
  target where;
  algorithm algo;
  element type;
  std::int64_t n;
  segment_lengths lengths;  // shape none for unsegmented algorithms
};

// Values algorithm a writes for n elements in `segments` segments (describe(a).writes).
std::int64_t output_count(algorithm a, std::int64_t n, std::int64_t segments);

// Bytes of the segment description a reads (describe(a).segments): n flags or keys, or offsets.
std::int64_t segment_bytes(algorithm a, std::int64_t n, std::int64_t segments);

// Bytes an ideal implementation must move: it reads the n values and its segment description,
// and writes its outputs (a single value is not counted).
std::int64_t traffic_bytes(const cell& c, std::int64_t segments);

}  // namespace compare
