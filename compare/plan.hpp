#pragma once
// Which parts of the requested matrix can run here: the GPU's presence, memory, and which
// implementations are built in and support each cell.

#include "implementation.hpp"
#include "options.hpp"

#include <string>
#include <utility>
#include <vector>

namespace compare {

struct planned_group {
  group g;
  std::vector<const implementation*> impls;  // built in, selected, on g.where; not the limits
  const implementation* copy = nullptr;      // always measured (for % of copy)
  bool show_copy = false;                    // copy rows reported (it was not filtered out)
  const implementation* floor = nullptr;     // if selected and a per-segment algorithm is
  bool measures_floor(element type) const;   // for the per-segment cells of this type
  std::vector<std::pair<std::int64_t, element>> too_big;  // (size, type) that memory cannot hold
  bool fits(std::int64_t n, element type) const;
};

struct plan {
  std::vector<planned_group> groups;
  std::int64_t work = 0;            // work_of() summed over the runs, for the progress bar
  std::vector<std::string> notes;   // skipped parts and why
  std::vector<std::string> errors;  // parts the user asked for that cannot run: exit status 2
  std::string gpu_unavailable;      // empty when a GPU is usable
};

plan make_plan(const options& o, const std::vector<implementation>& impls);

// Whether the implementation runs this cell (support, segment lengths, --seq-max, --plant-bug).
bool runs_cell(const implementation& impl, const cell& c, const options& o);

// A run's weight in the progress: the bytes it moves (segments estimated, not drawn).
std::int64_t work_of(const cell& c);

// The segment lengths a cell of algorithm a takes: the --segments list, or {none} if unsegmented.
std::vector<segment_lengths> segment_lengths_of(algorithm a, const options& o);

}  // namespace compare
