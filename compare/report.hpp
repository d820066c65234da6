#pragma once
// What a run produces (one row per implementation and cell, notes, provenance) and its writers.

#include "matrix.hpp"
#include "timing.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace compare {

enum class status { ok, failed, error };
const char* name_of(status s);

struct result {
  cell c{};
  std::int64_t segments = 0;
  std::string impl;
  std::string library;
  status outcome = status::ok;
  std::string message;     // why it FAILED or errored
  stats timing;            // empty (runs = 0) unless ok
  std::int64_t bytes = 0;  // traffic counted for GB/s: cell traffic, or 2 n sizeof(T) for copy
  // Derived by finalize(); negative when not available.
  double gelem_per_s = -1;
  double gb_per_s = -1;
  double percent_of_copy = -1;
  double speedup = -1;  // t(baseline) / t(this), medians
};

// The implementation other rows of a cell are compared with: CUB on the GPU, std on the CPU.
const char* baseline_of(target t);

struct report {
  std::vector<std::pair<std::string, std::string>> provenance;
  std::vector<std::string> notes;
  std::vector<result> results;
  std::vector<result> copies;  // one copy per (target, type, size), reported or not
};

// Throughput, % of the copy of the same cell's (type, size), and speedup over the baseline.
void finalize(report& r);

void print_table(const report& r, std::ostream& out);
void print_summary(const report& r, std::ostream& out);  // the largest size of each cell
void write_csv(const report& r, const std::string& path);
void write_json(const report& r, const std::string& path);
void write_markdown(const report& r, const std::string& path);

}  // namespace compare
