#pragma once
// Where and how the numbers were taken: written into every output file.

#include "options.hpp"

#include <string>
#include <utility>
#include <vector>

namespace compare {

std::vector<std::pair<std::string, std::string>> collect_provenance(
    const options& o, const std::string& gpu_unavailable);

}  // namespace compare
