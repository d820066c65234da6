// CSV, JSON and Markdown writers, each with the provenance. Written by hand: no extra libraries.

#include "report.hpp"
#include "report_format.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>

namespace compare {
namespace {

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string json_number(double v, int decimals) {
  const std::string s = number(v, decimals);
  return s.empty() ? "null" : s;
}

// The columns of a row, shared by CSV and JSON: name, text, and whether the text is a number.
struct field {
  const char* name;
  std::string text;
  bool numeric;
};

std::vector<field> fields_of(const result& x) {
  const bool ok = x.outcome == status::ok;
  const bool baseline_known = x.speedup > 0;
  auto timing = [&](double ms) { return ok ? number(ms, 6) : std::string(); };
  return {{"target", name_of(x.c.where), false},
          {"algorithm", name_of(x.c.algo), false},
          {"type", name_of(x.c.type), false},
          {"n", std::to_string(x.c.n), true},
          {"segment_mean", x.c.segment_mean ? std::to_string(x.c.segment_mean) : "", true},
          {"segments", x.c.segment_mean ? std::to_string(x.segments) : "", true},
          {"implementation", x.impl, false},
          {"library", x.library, false},
          {"status", name_of(x.outcome), false},
          {"runs", ok ? std::to_string(x.timing.runs) : "", true},
          {"median_ms", timing(x.timing.median_ms), true},
          {"min_ms", timing(x.timing.min_ms), true},
          {"max_ms", timing(x.timing.max_ms), true},
          {"bytes", std::to_string(x.bytes), true},
          {"gelem_per_s", number(x.gelem_per_s, 4), true},
          {"gb_per_s", number(x.gb_per_s, 2), true},
          {"percent_of_copy", number(x.percent_of_copy, 1), true},
          {"speedup_vs_baseline", number(x.speedup, 3), true},
          {"baseline", baseline_known ? baseline_of(x.c.where) : "", false},
          {"message", x.message, false}};
}

}  // namespace

void write_csv(const report& r, const std::string& path) {
  std::ofstream out = open_for_writing(path);
  for (const auto& [k, v] : r.provenance) out << "# " << k << ": " << v << "\n";
  for (const auto& note : r.notes) out << "# note: " << note << "\n";
  const result header_row;
  std::string header;
  for (const field& f : fields_of(header_row))
    header += (header.empty() ? "" : ",") + std::string(f.name);
  out << header << "\n";
  for (const result* x : sorted_rows(r)) {
    std::string line;
    for (const field& f : fields_of(*x)) line += (line.empty() ? "" : ",") + csv_field(f.text);
    out << line << "\n";
  }
}

void write_json(const report& r, const std::string& path) {
  std::ofstream out = open_for_writing(path);
  out << "{\n  \"provenance\": {";
  const char* sep = "\n    ";
  for (const auto& [k, v] : r.provenance) {
    out << sep << json_string(k) << ": " << json_string(v);
    sep = ",\n    ";
  }
  out << "\n  },\n  \"notes\": [";
  sep = "\n    ";
  for (const auto& note : r.notes) {
    out << sep << json_string(note);
    sep = ",\n    ";
  }
  out << "\n  ],\n  \"results\": [";
  sep = "\n    ";
  for (const result* x : sorted_rows(r)) {
    out << sep << "{";
    const char* inner = "";
    for (const field& f : fields_of(*x)) {
      const std::string value = !f.numeric ? json_string(f.text) : f.text.empty() ? "null" : f.text;
      out << inner << json_string(f.name) << ": " << value;
      inner = ", ";
    }
    out << "}";
    sep = ",\n    ";
  }
  out << "\n  ]\n}\n";
}

// Markdown: provenance, notes, then per (target, algorithm, type) a table of GB/s with sizes as
// rows and implementations as columns (speedup over the baseline in parentheses).
void write_markdown(const report& r, const std::string& path) {
  std::ofstream out = open_for_writing(path);
  out << "# pscan-compare results\n\n";
  for (const auto& [k, v] : r.provenance) out << "- **" << k << "**: " << v << "\n";
  if (!r.notes.empty()) {
    out << "\n## Notes\n\n";
    for (const auto& note : r.notes) out << "- " << note << "\n";
  }
  const auto rows = sorted_rows(r);
  for (std::size_t begin = 0; begin < rows.size();) {
    const cell& first = rows[begin]->c;
    auto same_table = [&](const result* x) {
      return x->c.where == first.where && x->c.algo == first.algo && x->c.type == first.type;
    };
    std::size_t end = begin;
    std::vector<std::string> impls;
    while (end < rows.size() && same_table(rows[end])) {
      if (std::find(impls.begin(), impls.end(), rows[end]->impl) == impls.end())
        impls.push_back(rows[end]->impl);
      ++end;
    }
    out << "\n## " << name_of(first.where) << " " << name_of(first.algo) << " "
        << name_of(first.type) << " (GB/s)\n\n| n | segment mean |";
    for (const auto& impl : impls) out << " " << impl << " |";
    out << "\n|---:|---:|";
    for (std::size_t i = 0; i < impls.size(); ++i) out << "---:|";
    out << "\n";
    std::map<std::pair<std::int64_t, std::int64_t>, std::map<std::string, std::string>> table;
    for (std::size_t i = begin; i < end; ++i) {
      const result& x = *rows[i];
      std::string text = x.outcome == status::ok ? number(x.gb_per_s, 1) : name_of(x.outcome);
      if (x.speedup > 0) text += " (" + number(x.speedup, 2) + "x)";
      table[{x.c.segment_mean, x.c.n}][x.impl] = text;
    }
    for (const auto& [key, by_impl] : table) {
      out << "| " << format_count(key.second) << " | "
          << (key.first ? format_count(key.first) : "-") << " |";
      for (const auto& impl : impls) {
        const auto it = by_impl.find(impl);
        out << " " << (it == by_impl.end() ? "" : it->second) << " |";
      }
      out << "\n";
    }
    begin = end;
  }
}

}  // namespace compare
