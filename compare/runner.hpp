#pragma once
// Runs a plan: for every cell, the host reference (pscan::seq), then per implementation one
// validated run, and only if it is valid the warm-up and the timed runs.

#include "options.hpp"
#include "plan.hpp"
#include "report.hpp"

#include <functional>
#include <vector>

namespace compare {

// Called with each cell's finished rows, while no progress bar is on the terminal.
using cell_done = std::function<void(const std::vector<result>& rows)>;

// Appends rows and notes to r. Returns false if part of the matrix could not run (a sticky CUDA
// error stops the GPU part; a failed transfer skips a size). Cell failures are rows, not errors.
bool run_plan(const plan& p, const options& o, report& r, const cell_done& done);

}  // namespace compare
