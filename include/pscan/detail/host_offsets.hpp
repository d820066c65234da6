#pragma once
// Checks of segmented_reduce offsets that live in host memory, shared by the CPU backends, and the
// error every backend throws for offsets that break the contract.

#include <pscan/error.hpp>

#include <cstdint>
#include <string>
#include <utility>

namespace pscan::detail {

// The error for offsets that first break the contract at `position`: offsets[0] < 0 there when it
// is 0, offsets[position] < offsets[position - 1] otherwise.
inline invalid_argument offsets_error(const char* algorithm, std::int64_t position) {
  if (position == 0) {
    return invalid_argument(std::string(algorithm) +
                            ": `offsets` must be non-negative (offsets[0] < 0)");
  }
  return invalid_argument(std::string(algorithm) + ": `offsets` must be non-decreasing (offsets[" +
                          std::to_string(position) + "] < offsets[" + std::to_string(position - 1) +
                          "])");
}

// The last of m offsets ends past the `values` values (a call that knows their count).
inline invalid_argument offsets_past_values_error(const char* algorithm, std::int64_t m,
                                                  std::int64_t last, std::int64_t values) {
  return invalid_argument(std::string(algorithm) + ": `offsets` end past the values (offsets[" +
                          std::to_string(m - 1) + "] = " + std::to_string(last) + " > " +
                          std::to_string(values) + " values)");
}

// offsets[0] >= 0 and offsets non-decreasing; throws pscan::invalid_argument naming the first
// offending position. Then each of `elementwise` ({name, iterator}: the values and outputs
// indexed by the offsets) that is a null raw pointer while the offsets span elements throws: the
// null check the dispatch layer leaves to the backend until the offsets are read.
template <class OffIt, class... Its>
void check_host_offsets(const char* algorithm, OffIt first, OffIt last,
                        const std::pair<const char*, Its>&... elementwise) {
  const std::int64_t m = last - first;
  if (m > 0 && static_cast<std::int64_t>(first[0]) < 0) throw offsets_error(algorithm, 0);
  for (std::int64_t i = 1; i < m; ++i) {
    if (first[i] < first[i - 1]) throw offsets_error(algorithm, i);
  }
  const std::int64_t n =
      m > 1 ? static_cast<std::int64_t>(first[m - 1]) - static_cast<std::int64_t>(first[0]) : 0;
  const auto check = [&](const char* name, const auto& it) {
    if (n > 0 && is_null_pointer(it)) throw null_pointer_error(algorithm, name, n);
  };
  (check(elementwise.first, elementwise.second), ...);
}

}  // namespace pscan::detail
