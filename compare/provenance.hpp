#pragma once
// Where and how the numbers were taken: written into every output file.

#include "options.hpp"

#include <string>
#include <utility>
#include <vector>

namespace compare {

std::vector<std::pair<std::string, std::string>> collect_provenance(
    const options& o, const std::string& gpu_unavailable);

// A folder name for this machine: the GPU's name, else the CPU model ("nvidia-h100-80gb-hbm3").
std::string machine_slug(const std::string& gpu_unavailable);

// The source tree pscan-compare was built from (for --out auto and the plot script).
std::string source_dir();

}  // namespace compare
