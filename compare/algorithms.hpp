#pragma once
// The algorithms the harness measures, one descriptor each. Everything the harness does per
// algorithm (names, inputs, bytes counted, outputs validated, the matrix and presets) reads the
// descriptor; only the implementations' calls switch on the algorithm. Plain C++: the CUDA
// translation units include it too.

#include <cstddef>
#include <vector>

namespace compare {

enum class algorithm {
  inclusive_scan,
  exclusive_scan,
  reduce,
  reduce_into,
  segmented_inclusive_scan,
  inclusive_scan_by_key,
  exclusive_scan_by_key,
  segmented_reduce,
  inclusive_scan_by_offsets,
  reduce_by_key,
  transform_inclusive_scan,
  transform_exclusive_scan,
  transform_reduce,
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

// In the enum's order; the matrix, --algo and the reports follow it.
// clang-format off
inline constexpr algorithm_descriptor algorithm_table[] = {
    {algorithm::inclusive_scan, "inclusive_scan",
     "inclusive scan",
     segments_by::none, /*keys_as_well=*/false, output_shape::per_element,
     /*returns_value=*/false, /*on_cpu=*/true},
    {algorithm::exclusive_scan, "exclusive_scan",
     "exclusive scan, init the identity",
     segments_by::none, /*keys_as_well=*/false, output_shape::per_element,
     /*returns_value=*/false, /*on_cpu=*/true},
    {algorithm::reduce, "reduce",
     "reduce, its value returned to the host",
     segments_by::none, /*keys_as_well=*/false, output_shape::one,
     /*returns_value=*/true, /*on_cpu=*/true},
    {algorithm::reduce_into, "reduce_into",
     "reduce into device memory (GPU; on the host it is reduce)",
     segments_by::none, /*keys_as_well=*/false, output_shape::one,
     /*returns_value=*/false, /*on_cpu=*/false},
    {algorithm::segmented_inclusive_scan, "segmented_inclusive_scan",
     "inclusive scan restarted at head flags",
     segments_by::flags, /*keys_as_well=*/false, output_shape::per_element,
     /*returns_value=*/false, /*on_cpu=*/true},
    {algorithm::inclusive_scan_by_key, "inclusive_scan_by_key",
     "inclusive scan over runs of equal keys",
     segments_by::keys, /*keys_as_well=*/false, output_shape::per_element,
     /*returns_value=*/false, /*on_cpu=*/true},
    {algorithm::exclusive_scan_by_key, "exclusive_scan_by_key",
     "exclusive scan over runs of equal keys",
     segments_by::keys, /*keys_as_well=*/false, output_shape::per_element,
     /*returns_value=*/false, /*on_cpu=*/true},
    {algorithm::segmented_reduce, "segmented_reduce",
     "one reduce per segment, by offsets",
     segments_by::offsets, /*keys_as_well=*/true, output_shape::per_segment,
     /*returns_value=*/false, /*on_cpu=*/true},
    {algorithm::inclusive_scan_by_offsets, "inclusive_scan_by_offsets",
     "inclusive scan restarted at offsets (CSR), in the values' positions",
     segments_by::offsets, /*keys_as_well=*/true, output_shape::per_element,
     /*returns_value=*/false, /*on_cpu=*/true},
    {algorithm::reduce_by_key, "reduce_by_key",
     "one reduce per run of equal keys, the runs' first keys written too",
     segments_by::keys, /*keys_as_well=*/false, output_shape::per_segment,
     /*returns_value=*/false, /*on_cpu=*/true},
    {algorithm::transform_inclusive_scan, "transform_inclusive_scan",
     "inclusive scan of x op x over the input",
     segments_by::none, /*keys_as_well=*/false, output_shape::per_element,
     /*returns_value=*/false, /*on_cpu=*/true},
    {algorithm::transform_exclusive_scan, "transform_exclusive_scan",
     "exclusive scan of x op x over the input, init the identity",
     segments_by::none, /*keys_as_well=*/false, output_shape::per_element,
     /*returns_value=*/false, /*on_cpu=*/true},
    {algorithm::transform_reduce, "transform_reduce",
     "reduce of x op x over the input, its value returned to the host",
     segments_by::none, /*keys_as_well=*/false, output_shape::one,
     /*returns_value=*/true, /*on_cpu=*/true},
};
// clang-format on

constexpr const algorithm_descriptor& describe(algorithm a) {
  return algorithm_table[static_cast<std::size_t>(a)];
}

constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < sizeof algorithm_table / sizeof algorithm_table[0]; ++i) {
    if (static_cast<std::size_t>(algorithm_table[i].id) != i) return false;
  }
  return true;
}
static_assert(table_in_enum_order(), "algorithm_table must list the algorithms in enum order");

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
