// Derived metrics and the terminal table/summary. File writers are in report_files.cpp.

#include "report.hpp"
#include "report_format.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <tuple>

namespace compare {

const char* name_of(status s) {
  switch (s) {
    case status::ok:
      return "ok";
    case status::failed:
      return "FAILED";
    case status::error:
      return "ERROR";
  }
  return "?";
}

const char* baseline_of(target t) { return t == target::gpu ? "cub" : "std"; }

cell_key key_of(const cell& c) {
  return {static_cast<int>(c.where), static_cast<int>(c.algo), static_cast<int>(c.type),
          c.segment_mean, c.n};
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
  if (c.segment_mean) s += " seg~" + format_count(c.segment_mean);
  return s;
}

void finalize(report& r) {
  auto rate = [](result& x) {
    if (x.outcome != status::ok || x.timing.median_ms <= 0) return;
    const double seconds = x.timing.median_ms * 1e-3;
    x.gelem_per_s = static_cast<double>(x.c.n) / seconds * 1e-9;
    x.gb_per_s = static_cast<double>(x.bytes) / seconds * 1e-9;
  };
  using size_key = std::tuple<int, int, std::int64_t>;
  std::map<size_key, double> copy_rate;
  for (result& x : r.copies) {
    rate(x);
    if (x.gb_per_s > 0) {
      copy_rate[{static_cast<int>(x.c.where), static_cast<int>(x.c.type), x.c.n}] = x.gb_per_s;
    }
  }
  std::map<cell_key, double> baseline_ms;
  for (result& x : r.results) {
    rate(x);
    if (x.outcome == status::ok && x.impl == baseline_of(x.c.where)) {
      baseline_ms[key_of(x.c)] = x.timing.median_ms;
    }
  }
  for (result& x : r.results) {
    if (x.gb_per_s < 0) continue;
    const auto copy =
        copy_rate.find({static_cast<int>(x.c.where), static_cast<int>(x.c.type), x.c.n});
    if (copy != copy_rate.end()) x.percent_of_copy = 100.0 * x.gb_per_s / copy->second;
    const auto base = baseline_ms.find(key_of(x.c));
    if (base != baseline_ms.end() && x.library != "copy")
      x.speedup = base->second / x.timing.median_ms;
  }
}

void print_table(const report& r, std::ostream& out) {
  char line[512];
  std::snprintf(line, sizeof line, "%-44s %7s %-15s %-6s %10s %10s %10s %4s %8s %8s %6s %7s",
                "cell", "n", "implementation", "status", "median_ms", "min_ms", "max_ms", "runs",
                "Gelem/s", "GB/s", "%copy", "speedup");
  out << line << "\n";
  const result* previous = nullptr;
  for (const result* x : sorted_rows(r)) {
    if (previous && key_of(previous->c) != key_of(x->c)) out << "\n";
    previous = x;
    const bool ok = x->outcome == status::ok;
    std::snprintf(line, sizeof line, "%-44s %7s %-15s %-6s %10s %10s %10s %4s %8s %8s %6s %7s",
                  cell_name(x->c).c_str(), format_count(x->c.n).c_str(), x->impl.c_str(),
                  name_of(x->outcome), ok ? number(x->timing.median_ms, 4).c_str() : "",
                  ok ? number(x->timing.min_ms, 4).c_str() : "",
                  ok ? number(x->timing.max_ms, 4).c_str() : "",
                  ok ? std::to_string(x->timing.runs).c_str() : "",
                  number(x->gelem_per_s, 3).c_str(), number(x->gb_per_s, 1).c_str(),
                  number(x->percent_of_copy, 0).c_str(),
                  x->speedup > 0 ? (number(x->speedup, 2) + "x").c_str() : "");
    out << line << "\n";
    if (!ok) out << "    " << x->message << "\n";
  }
}

std::string summary_of(const result& x) {
  if (x.outcome != status::ok) return name_of(x.outcome);
  std::string s = number(x.gb_per_s, 1) + " GB/s (" + number(x.percent_of_copy, 0) + "% of copy";
  if (x.speedup > 0) s += ", " + number(x.speedup, 2) + "x";
  return s + ")";
}

void print_summary(const report& r, std::ostream& out) {
  using group_key = std::tuple<int, int, int, std::int64_t>;
  auto group_of = [](const cell& c) {
    return group_key{static_cast<int>(c.where), static_cast<int>(c.algo), static_cast<int>(c.type),
                     c.segment_mean};
  };
  std::map<group_key, std::int64_t> largest;
  for (const result& x : r.results) {
    std::int64_t& n = largest[group_of(x.c)];
    n = std::max(n, x.c.n);
  }
  std::map<group_key, std::pair<cell, std::string>> lines;
  for (const result& x : r.results) {
    if (x.c.n != largest[group_of(x.c)]) continue;
    auto& line = lines.emplace(group_of(x.c), std::make_pair(x.c, std::string())).first->second;
    line.second += "\n      " + x.impl + ": " + summary_of(x);
  }
  out << "Summary at the largest size of each cell (speedup over " << baseline_of(target::gpu)
      << " on the GPU, " << baseline_of(target::cpu) << " on the CPU):\n";
  for (const auto& [k, line] : lines) {
    out << "  " << cell_name(line.first) << " " << format_count(line.first.n) << line.second
        << "\n";
  }
}

}  // namespace compare
