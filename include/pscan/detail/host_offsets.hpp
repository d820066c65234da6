#pragma once
// Checks of segmented_reduce offsets that live in host memory, shared by the CPU backends.

#include <pscan/error.hpp>

#include <cstdint>
#include <string>

namespace pscan::detail {

// offsets[0] >= 0 and offsets non-decreasing; throws pscan::invalid_argument naming the first
// offending position.
template <class OffIt>
void check_host_offsets(const char* algorithm, OffIt first, OffIt last) {
  const std::int64_t m = last - first;
  if (m > 0 && static_cast<std::int64_t>(first[0]) < 0) {
    throw invalid_argument(std::string(algorithm) +
                           ": `offsets` must be non-negative (offsets[0] = " +
                           std::to_string(static_cast<std::int64_t>(first[0])) + ")");
  }
  for (std::int64_t i = 1; i < m; ++i) {
    if (first[i] < first[i - 1]) {
      throw invalid_argument(std::string(algorithm) +
                             ": `offsets` must be non-decreasing (offsets[" + std::to_string(i) +
                             "] < offsets[" + std::to_string(i - 1) + "])");
    }
  }
}

}  // namespace pscan::detail
