#pragma once
// The algorithms the harness measures (algorithms.def), as an enum and one descriptor each.
// Everything the harness does per algorithm (names, inputs, bytes counted, outputs validated, the
// matrix and presets) reads the descriptor; only the implementations' calls switch on the
// algorithm. Plain C++: the CUDA translation units include it too.

#include <cstddef>
#include <vector>

namespace compare {

// The rows of algorithms.def, in its order.
enum class algorithm {
#define COMPARE_ALGORITHM(name, ...) name,
#include "algorithms.def"
#undef COMPARE_ALGORITHM
};

// How an algorithm finds its segments: no segments, head flags, runs of equal keys, or offsets.
enum class segments_by { none, flags, keys, offsets };

// What it writes: one value per element, one per segment, or one in all.
enum class output_shape { per_element, per_segment, one };

struct algorithm_descriptor {
  algorithm id;
  const char* name;
  const char* summary;   // one line for --help and --list
  segments_by segments;  // the description its cells get; read, so counted in its bytes
  bool keys_as_well;     // keys given too (not counted): libraries without offsets reduce by key
  output_shape writes;   // counted in its bytes (a single value is not); checked against seq;
                         // per segment by keys: a key written per segment as well
  bool returns_value;    // its single value comes back by value, on the host (pscan::reduce)
  bool on_cpu;           // false where the host version is another algorithm's
};

// In the enum's order.
inline constexpr algorithm_descriptor algorithm_table[] = {
#define COMPARE_ALGORITHM(name, summary, segments, keys_as_well, writes, returns_value, on_cpu, \
                          call)                                                               \
  {algorithm::name,     #name,         summary, segments_by::segments, keys_as_well,          \
   output_shape::writes, returns_value, on_cpu},
#include "algorithms.def"
#undef COMPARE_ALGORITHM
};

constexpr const algorithm_descriptor& describe(algorithm a) {
  return algorithm_table[static_cast<std::size_t>(a)];
}

constexpr bool is_segmented(algorithm a) { return describe(a).segments != segments_by::none; }
constexpr bool is_reduction(algorithm a) { return describe(a).writes == output_shape::one; }
// reduce_by_key: a key and a value per segment, the number of segments to device memory.
constexpr bool writes_keys(algorithm a) {
  return describe(a).segments == segments_by::keys &&
         describe(a).writes == output_shape::per_segment;
}
inline const char* name_of(algorithm a) { return describe(a).name; }

inline std::vector<algorithm> every_algorithm() {
  std::vector<algorithm> all;
  for (const algorithm_descriptor& d : algorithm_table) all.push_back(d.id);
  return all;
}

}  // namespace compare
