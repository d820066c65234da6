#pragma once
// What a run produces (one row per implementation and cell, notes, provenance) and its writers.

#include "implementation.hpp"
#include "timing.hpp"

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace compare {

enum class status { ok, failed, error };
const char* name_of(status s);

struct result {
  cell c{};
  std::int64_t segment_count = 0;  // segments actually drawn; 0 for unsegmented algorithms
  std::string impl;
  std::string library;
  status outcome = status::ok;
  std::string message;     // why it FAILED or errored
  stats timing;            // empty (runs = 0) unless ok: runs taken, median, min, max, spread
  std::int64_t bytes = 0;  // traffic counted for GB/s: cell traffic, or 2 n sizeof(T) for copy
  // Host time per call on the GPU (gpu::host_us_per_call); negative unless measured: CPU rows,
  // rows not ok, --no-host-cost, and calls that wait for the device (a value read back).
  double host_us = -1;
  // Derived by finalize_cell(); negative when not available.
  double gelem_per_s = -1;
  double gb_per_s = -1;
  double percent_of_copy = -1;
  double speedup = -1;  // t(baseline) / t(this), medians
  bool busy = false;    // looks_busy(timing): the machine was not idle
  // A parallel CPU row slower than pscan::seq (a parallel exact row: than seq_exact) in the same
  // cell: lost to one thread, whether to a loaded machine or to its own overheads, so not a
  // result to quote.
  bool slower_than_seq = false;
  // The cell's copy is no ceiling (busy, or another row moved its bytes over 1.25x as fast, which
  // a copy of them bounds): no row of the cell has a % of copy.
  bool copy_disturbed = false;
  bool limit = false;   // copy or reduce_floor: a bound to compare with (no speedup)
};

// An implementation as results.json lists it, so that readers (the plot script) need no names.
struct implementation_summary {
  std::string name;
  std::string library;
  target where;
  role part;
};

struct report {
  std::vector<std::pair<std::string, std::string>> provenance;
  std::vector<std::string> notes;
  std::vector<implementation_summary> implementations;  // built in and run, in report order
  std::vector<result> results;
};

// Throughput, % of the copy of the cell's (type, size), speedup over the baseline, and the marks:
// busy, slower than seq, copy disturbed.
void finalize_cell(std::vector<result>& rows, result& copy);

// The row's marks as the tables print them: ! busy, < slower than seq, ~ (the copy) disturbed.
std::string marks_of(const result& x);

void print_header(std::ostream& out);
// One cell's block of rows; with failures_only, its rows that FAILED or errored alone.
void print_rows(const std::vector<result>& rows, std::ostream& out, bool failures_only = false);
// A screen or two: pscan's rows at the largest size of each algorithm and type, where pscan
// trails another library, and what the marks mean.
void print_summary(const report& r, std::ostream& out);

// The result files: CSV appended row by row, JSON and Markdown rewritten after every cell.
class result_files {
 public:
  result_files(std::string csv, std::string json, std::string md);  // "" writes nothing
  void start(const report& r);
  void add(const report& r, const std::vector<result>& rows);
  void finish(const report& r);  // JSON and Markdown with the final provenance
  std::string describe() const;   // "every row in FILE, ..."

 private:
  std::string csv_, json_, md_;
  std::ofstream csv_out_;
  std::chrono::steady_clock::time_point last_write_{};
};

}  // namespace compare
