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
  double baseline_ms = -1, reference_ms = -1, exact_reference_ms = -1;
  for (result& x : rows) {
    rate(x);
    if (x.gb_per_s <= 0) continue;
    if (x.impl == baseline_of(x.c.where)) baseline_ms = x.timing.median_ms;
    if (role_of(x.impl) == role::reference) reference_ms = x.timing.median_ms;
    if (x.impl == exact_reference) exact_reference_ms = x.timing.median_ms;
  }
  // A scan or reduce moves at least the bytes of a copy of its input: a row over 1.25x the
  // copy's rate says the copy was slowed, or that at this size it measures its own overhead
  // (small CPU cells), not the bandwidth; either way it is no ceiling for the cell.
  bool copy_disturbed = copy.gb_per_s <= 0 || copy.busy;
  for (const result& x : rows) {
    if (!x.limit && x.gb_per_s > 1.25 * copy.gb_per_s) copy_disturbed = true;
  }
  for (result& x : rows) {
    x.copy_disturbed = copy_disturbed;
    if (x.gb_per_s < 0) continue;
    if (!copy_disturbed) x.percent_of_copy = 100.0 * x.gb_per_s / copy.gb_per_s;
    if (baseline_ms > 0 && !x.limit) x.speedup = baseline_ms / x.timing.median_ms;
    // A parallel CPU row slower than its sequential counterpart: seq, or seq_exact for the
    // parallel exact sums.
    const role part = role_of(x.impl);
    const double sequential_ms = part == role::contender ? reference_ms
                                 : part == role::exact && x.impl != exact_reference
                                     ? exact_reference_ms
                                     : -1;
    x.slower_than_seq =
        x.c.where == target::cpu && sequential_ms > 0 && x.timing.median_ms > sequential_ms;
  }
}

void print_header(std::ostream& out) {
  char line[512];
  std::snprintf(line, sizeof line, columns, "cell", "n", "segments", "implementation", "status",
                "median_ms", "min_ms", "max_ms", "runs", "spread", "Gelem/s", "GB/s", "%copy",
                "speedup", "marks", "host_us");
  out << line << "\n";
}

void print_rows(const std::vector<result>& rows, std::ostream& out, bool failures_only) {
  char line[512];
  bool printed = false;
  for (const result& x : rows) {
    const bool ok = x.outcome == status::ok;
    if (failures_only && ok) continue;
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
    printed = true;
  }
  if (printed) out << std::endl;  // flushed: a stopped run still shows every finished cell
}

namespace {

// "a" or "a-b" for the range of values, each with `decimals`.
std::string span(double lo, double hi, int decimals) {
  const std::string a = number(lo, decimals), b = number(hi, decimals);
  return a == b ? a : a + "-" + b;
}

struct range {
  double lo = 1e300, hi = -1;
  void add(double v) {
    if (v < 0) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return hi < 0; }
};

}  // namespace

void print_summary(const report& r, std::ostream& out) {
  std::map<std::string, std::string> library;
  for (const implementation_summary& i : r.implementations) library[i.name] = i.library;
  auto is_pscan = [&](const result& x) { return library[x.impl] == "pscan"; };

  // pscan's rows at the largest size of each (target, algorithm, type), over the distributions.
  auto group_of = [](const cell& c) { return std::make_tuple(c.where, c.algo, c.type); };
  std::map<decltype(group_of(cell{})), std::int64_t> largest;
  for (const result& x : r.results) {
    std::int64_t& n = largest[group_of(x.c)];
    n = std::max(n, x.c.n);
  }
  struct policy_line {
    std::string impl;
    range copy, speedup;
  };
  std::map<decltype(group_of(cell{})), std::vector<policy_line>> lines;
  int busy = 0, slower = 0, disturbed = 0;
  for (const result& x : r.results) {
    busy += x.busy ? 1 : 0;
    slower += x.slower_than_seq ? 1 : 0;
    disturbed += x.copy_disturbed && role_of(x.impl) == role::copy ? 1 : 0;
    if (x.c.n != largest[group_of(x.c)] || !is_pscan(x) || x.outcome != status::ok) continue;
    auto& policies = lines[group_of(x.c)];
    auto at = std::find_if(policies.begin(), policies.end(),
                           [&](const policy_line& p) { return p.impl == x.impl; });
    if (at == policies.end()) at = policies.insert(policies.end(), policy_line{x.impl, {}, {}});
    at->copy.add(x.percent_of_copy);
    at->speedup.add(x.speedup);
  }
  out << "\npscan at the largest size of each algorithm and type: % of a copy of the same bytes, "
      << "x " << baseline_of(target::gpu) << " (GPU) or " << baseline_of(target::cpu)
      << " (CPU); ranges over the segment distributions:\n";
  for (const auto& [k, policies] : lines) {
    const auto& [where, algo, type] = k;
    std::string text;
    for (const policy_line& p : policies) {
      text += (text.empty() ? " " : "; ") + p.impl;
      if (!p.copy.empty()) text += " " + span(p.copy.lo, p.copy.hi, 0) + "%";
      if (!p.speedup.empty()) text += " " + span(p.speedup.lo, p.speedup.hi, 2) + "x";
      if (p.copy.empty() && p.speedup.empty()) text += " -";  // no ceiling, no baseline
    }
    out << "  " << name_of(where) << " " << name_of(algo) << " " << name_of(type) << " "
        << format_count(largest[k]) << ":" << text << "\n";
  }

  // Where a pscan policy trails the fastest row of another library in the same cell.
  std::map<decltype(key_of(cell{})), const result*> best_other;
  for (const result& x : r.results) {
    const role part = role_of(x.impl);
    if (x.outcome != status::ok || is_pscan(x) || x.limit ||
        (part != role::contender && part != role::baseline))
      continue;
    const result*& best = best_other[key_of(x.c)];
    if (best == nullptr || x.timing.median_ms < best->timing.median_ms) best = &x;
  }
  std::vector<std::pair<double, std::string>> behind;
  for (const result& x : r.results) {
    if (x.outcome != status::ok || !is_pscan(x) || role_of(x.impl) != role::contender) continue;
    const auto other = best_other.find(key_of(x.c));
    if (other == best_other.end() || x.timing.median_ms <= other->second->timing.median_ms)
      continue;
    const double ratio = other->second->timing.median_ms / x.timing.median_ms;
    behind.emplace_back(ratio, cell_name(x.c) + " " + format_count(x.c.n) + ": " + x.impl +
                                   " " + number(ratio, 2) + "x " + other->second->impl +
                                   (marks_of(x).empty() ? "" : " " + marks_of(x)));
  }
  std::sort(behind.begin(), behind.end());
  const std::size_t shown = 20;
  out << "\n" << behind.size() << " pscan rows trail another library's fastest row in their cell"
      << (behind.empty() ? "" : behind.size() > shown ? " (the 20 furthest behind: x its speed)"
                                                      : " (x its speed):")
      << "\n";
  for (std::size_t i = 0; i < behind.size() && i < shown; ++i) {
    out << "  " << behind[i].second << "\n";
  }

  if (busy > 0) {
    out << "\n" << busy << " rows marked busy (!): median over 1.5x the fastest run, so the "
        << "machine was not idle; rerun them on an idle one\n";
  }
  if (slower > 0) {
    out << slower << " parallel CPU rows marked < : slower than seq (exact rows: than seq_exact) "
        << "in the same cell (a loaded machine, or more overhead than work); not results to "
        << "quote\n";
  }
  if (disturbed > 0) {
    out << disturbed << " copies marked ~ : no ceiling for their cells (busy, or beaten by over "
        << "1.25x: at small CPU sizes the copy measures overhead), so those cells have no % of "
        << "copy\n";
  }
}

}  // namespace compare
