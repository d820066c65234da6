#pragma once
// Helpers shared by the terminal table and the file writers.

#include "report.hpp"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace compare {

// Orders rows by target, algorithm, type, segment mean, then size.
using cell_key = std::tuple<int, int, int, std::int64_t, std::int64_t>;
cell_key key_of(const cell& c);
std::vector<const result*> sorted_rows(const report& r);

std::string number(double v, int decimals);  // "" when v < 0 (not available)
std::string cell_name(const cell& c);        // "gpu segmented_reduce i32 seg~2^20"
std::string summary_of(const result& x);     // "812.3 GB/s (91% of copy, 1.04x)" or the status

}  // namespace compare
