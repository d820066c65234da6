#pragma once
// Host-side data of the matrix: input values, segment descriptions, and memory estimates.

#include "matrix.hpp"
#include "types.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace compare {

// An uninitialised host array (std::vector would zero gigabytes single-threaded first).
template <class T>
struct host_array {
  std::unique_ptr<T[]> data;
  std::int64_t size = 0;
  host_array() = default;
  explicit host_array(std::int64_t n) : data(new T[static_cast<std::size_t>(n)]), size(n) {}
  T* get() const { return data.get(); }
};

// values[i] = value_at<T>(i), filled in parallel.
template <class T>
host_array<T> make_values(std::int64_t n) {
  host_array<T> values(n);
  T* v = values.get();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) v[i] = value_at<T>(i);
  return values;
}

// The same segmentation in the three forms the algorithms take, its lengths drawn from data_seed
// and the distribution; the last segment is clipped so that the segments cover exactly n. Flags
// and keys can only describe non-empty segments: they mark those, with neighbouring keys distinct.
struct segmentation {
  std::vector<offset_type> offsets;  // segments + 1
  host_array<flag_type> flags;       // n
  host_array<key_type> keys;         // n
  std::int64_t segments() const { return static_cast<std::int64_t>(offsets.size()) - 1; }
};
segmentation make_segmentation(std::int64_t n, const segment_lengths& lengths);

// About how many segments make_segmentation(n, lengths) draws: memory and progress estimates.
std::int64_t expected_segments(std::int64_t n, const segment_lengths& lengths);

// Fills `bytes` bytes with 0xFF in parallel, so that stale results never pass validation.
void poison_host(void* p, std::int64_t bytes);

// Memory a (type, size) group needs, bytes, for the given algorithms and segment distributions.
struct footprint {
  std::int64_t host = 0;
  std::int64_t device = 0;
};
footprint estimate_footprint(target where, element type, std::int64_t n,
                             const std::vector<algorithm>& algos,
                             const std::vector<segment_lengths>& distributions);

std::int64_t host_available_bytes();  // MemAvailable from /proc/meminfo, or -1

}  // namespace compare
