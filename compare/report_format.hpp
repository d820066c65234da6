#pragma once
// Helpers shared by the terminal table and the file writers.

#include "report.hpp"

#include <string>
#include <vector>

namespace compare {

std::vector<const result*> sorted_rows(const report& r);  // target, algorithm, type, segments, n
std::string number(double v, int decimals);  // "" when v < 0 (not available)
std::string cell_name(const cell& c);        // "gpu segmented_reduce i32 seg 2^20"

}  // namespace compare
