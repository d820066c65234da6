// Derived metrics and the terminal table/summary. File writers are in report_files.cpp.

#include "report.hpp"
#include "registry.hpp"
#include "report_format.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <tuple>

namespace compare {
namespace {

auto key_of(const cell& c) { return std::make_tuple(c.where, c.algo, c.type, c.lengths, c.n); }

const char* columns =
    "%-44s %7s %9s %-15s %-6s %10s %10s %10s %4s %6s %8s %8s %6s %7s %5s %7s";

std::string segment_count_of(const result& x) {
  return x.c.lengths.shape == segment_shape::none ? "" : std::to_string(x.segment_count);
}

std::string summary_of(const result& x) {
  if (x.outcome != status::ok) return name_of(x.outcome);
  std::string s = number(x.gb_per_s, 1) + " GB/s (";
  s += x.copy_disturbed ? "copy disturbed" : number(x.percent_of_copy, 0) + "% of copy";
  if (x.speedup > 0) s += ", " + number(x.speedup, 2) + "x";
  if (x.slower_than_seq) s += ", slower than seq";
  return s + (x.busy ? ", busy" : "") + ")";
}

}  // namespace

const char* name_of(status s) {
  return s == status::ok ? "ok" : s == status::failed ? "FAILED" : "ERROR";
}

std::vector<const result*> sorted_rows(const report& r) {
  std::vector<const result*> rows;
  for (const result& x : r.results) rows.push_back(&x);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const result* a, const result* b) { return key_of(a->c) < key_of(b->c); });
  return rows;
}

std::string number(double v, int decimals) {
  if (v < 0) return "";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

std::string cell_name(const cell& c) {
  std::string s = std::string(name_of(c.where)) + " " + name_of(c.algo) + " " + name_of(c.type);
  if (c.lengths.shape != segment_shape::none) s += " seg " + name_of(c.lengths);
  return s;
}

std::string marks_of(const result& x) {
  return std::string(x.busy ? "!" : "") + (x.slower_than_seq ? "<" : "") +
         (x.copy_disturbed && role_of(x.impl) == role::copy ? "~" : "");
}

void finalize_cell(std::vector<result>& rows, result& copy) {
  auto rate = [](result& x) {
    if (x.outcome != status::ok || x.timing.median_ms <= 0) return;
    const double seconds = x.timing.median_ms * 1e-3;
    x.gelem_per_s = static_cast<double>(x.c.n) / seconds * 1e-9;
    x.gb_per_s = static_cast<double>(x.bytes) / seconds * 1e-9;
    x.busy = looks_busy(x.timing);
  };
  rate(copy);
  double baseline_ms = -1, reference_ms = -1;
  for (result& x : rows) {
    rate(x);
    if (x.gb_per_s <= 0) continue;
    if (x.impl == baseline_of(x.c.where)) baseline_ms = x.timing.median_ms;
    if (role_of(x.impl) == role::reference) reference_ms = x.timing.median_ms;
  }
  // A scan or reduce moves at least the bytes of a copy of its input: one measured at over
  // twice the copy's rate says the copy was slowed, not that the row beat it.
  bool copy_disturbed = copy.gb_per_s <= 0 || copy.busy;
  for (const result& x : rows) {
    if (!x.limit && x.gb_per_s > 2 * copy.gb_per_s) copy_disturbed = true;
  }
  for (result& x : rows) {
    x.copy_disturbed = copy_disturbed;
    if (x.gb_per_s < 0) continue;
    if (!copy_disturbed) x.percent_of_copy = 100.0 * x.gb_per_s / copy.gb_per_s;
    if (baseline_ms > 0 && !x.limit) x.speedup = baseline_ms / x.timing.median_ms;
    x.slower_than_seq = x.c.where == target::cpu && role_of(x.impl) == role::contender &&
                        reference_ms > 0 && x.timing.median_ms > reference_ms;
  }
}

void print_header(std::ostream& out) {
  char line[512];
  std::snprintf(line, sizeof line, columns, "cell", "n", "segments", "implementation", "status",
                "median_ms", "min_ms", "max_ms", "runs", "spread", "Gelem/s", "GB/s", "%copy",
                "speedup", "marks", "host_us");
  out << line << "\n";
}

void print_rows(const std::vector<result>& rows, std::ostream& out) {
  char line[512];
  for (const result& x : rows) {
    const bool ok = x.outcome == status::ok;
    auto ms = [&](double v) { return ok ? number(v, 4) : std::string(); };
    std::snprintf(line, sizeof line, columns, cell_name(x.c).c_str(), format_count(x.c.n).c_str(),
                  segment_count_of(x).c_str(), x.impl.c_str(), name_of(x.outcome),
                  ms(x.timing.median_ms).c_str(), ms(x.timing.min_ms).c_str(),
                  ms(x.timing.max_ms).c_str(), ok ? std::to_string(x.timing.runs).c_str() : "",
                  ok ? (number(100 * x.timing.spread, 1) + "%").c_str() : "",
                  number(x.gelem_per_s, 3).c_str(), number(x.gb_per_s, 1).c_str(),
                  number(x.percent_of_copy, 0).c_str(),
                  x.speedup > 0 ? (number(x.speedup, 2) + "x").c_str() : "", marks_of(x).c_str(),
                  number(x.host_us, 1).c_str());
    out << line << "\n";
    if (!ok) out << "    " << x.message << "\n";
  }
  out << std::endl;  // flushed: a stopped run still shows every finished cell
}

void print_summary(const report& r, std::ostream& out) {
  auto group_of = [](const cell& c) { return std::make_tuple(c.where, c.algo, c.type, c.lengths); };
  std::map<decltype(group_of(cell{})), std::int64_t> largest;
  for (const result& x : r.results) {
    std::int64_t& n = largest[group_of(x.c)];
    n = std::max(n, x.c.n);
  }
  std::map<decltype(group_of(cell{})), std::pair<const result*, std::string>> lines;
  int busy = 0, slower = 0, disturbed = 0;
  for (const result& x : r.results) {
    busy += x.busy ? 1 : 0;
    slower += x.slower_than_seq ? 1 : 0;
    disturbed += x.copy_disturbed && role_of(x.impl) == role::copy ? 1 : 0;
    if (x.c.n != largest[group_of(x.c)]) continue;
    auto& line = lines.emplace(group_of(x.c), std::make_pair(&x, std::string())).first->second;
    line.second += "\n      " + x.impl + ": " + summary_of(x);
  }
  out << "Summary at the largest size of each cell (speedup over " << baseline_of(target::gpu)
      << " on the GPU, " << baseline_of(target::cpu) << " on the CPU):\n";
  for (const auto& [k, line] : lines) {
    const result& x = *line.first;
    const std::string count = segment_count_of(x);
    out << "  " << cell_name(x.c) << " " << format_count(x.c.n)
        << (count.empty() ? "" : " (" + count + (count == "1" ? " segment)" : " segments)"))
        << line.second << "\n";
  }
  if (busy > 0) {
    out << "\n" << busy << " rows marked busy (!): median over 1.5x the fastest run, so the "
        << "machine was not idle; rerun them on an idle one\n";
  }
  if (slower > 0) {
    out << slower << " parallel CPU rows marked < : slower than seq in the same cell (a loaded "
        << "machine, or more overhead than work); not results to quote\n";
  }
  if (disturbed > 0) {
    out << disturbed << " copies marked ~ : disturbed (busy, or slower than half another row's "
        << "rate), so their cells have no % of copy\n";
  }
}

}  // namespace compare
