#pragma once
// The command line: presets, filters and output files.

#include "matrix.hpp"
#include "timing.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace compare {

// Part of the matrix: a target with its algorithms, types, sizes and (empty: all) implementations.
struct group {
  target where;
  std::vector<algorithm> algos;
  std::vector<element> types;
  std::vector<std::int64_t> sizes;
  std::vector<std::string> impls;
};

struct options {
  std::vector<group> groups;  // the preset, with the filters applied
  std::vector<segment_lengths> segments;  // the segmented algorithms': the preset's or --segments
  bool sizes_given = false;  // --sizes: a size that does not fit is an error, not a note
  bool cpu_only = false;
  bool gpu_only = false;
  bool gpu_asked = false;  // a GPU-only filter (--gpu-only, or --impl naming only GPU ones)
  timing_plan plan;
  host_cost_plan host_cost;  // GPU rows: host time per call
  std::int64_t seq_max = std::int64_t{1} << 20;  // largest size at which seq and seq/omp_exact run
  std::string csv, json, md, out_dir;
  std::string preset = "default";
  bool plant_bug = false;
  bool progress = true;
  bool rows = false;  // every row on the terminal as its cell finishes (the files have them all)
  bool list = false;
  std::vector<std::string> command_line;
};

// A bad command line; main prints the message and exits with status 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Nothing when --help or --version was answered.
std::optional<options> parse_options(int argc, char** argv);
std::string version_text();  // "0.1.0 (git <commit>, uncommitted changes)"
std::string git_commit();    // at configure time: the binary is rebuilt after every configure
bool git_dirty();            // git status --porcelain was not empty at configure time

}  // namespace compare
