#pragma once
// Every implementation the harness knows, built into this binary or not: one row each, from which
// --impl, --help, --list, the plan's notes and the reports take names, targets and roles.

#include <cstdint>
#include <string>
#include <vector>

#include "implementation.hpp"

namespace compare {

enum class sides { cpu, gpu, both };  // both: a separate implementation on each target (copy)

struct registration {
  const char* name;
  sides where;
  role part;
  const char* summary;  // one line for --help and --list
  const char* needs;    // why a binary may lack it
  std::int64_t quick_max_n = 0;  // the largest n the quick preset times it at (0: every n)
};

const std::vector<registration>& registrations();                // in report order
const registration* find_registration(const std::string& name);  // nullptr if unknown
role role_of(const std::string& name);  // its registration's; contender if unknown
bool runs_on(const registration& r, target t);

// The implementation the other rows of a cell are compared with (role::baseline) on target t.
std::string baseline_of(target t);

// The exact sums' reference on the CPU (seq_exact): the parallel exact rows are marked when slower.
inline constexpr const char* exact_reference = "seq_exact";

}  // namespace compare
