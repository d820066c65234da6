// CSV, JSON (nlohmann-json) and Markdown writers, each with the provenance.

#include "report.hpp"
#include "registry.hpp"
#include "report_format.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <map>
#include <stdexcept>

namespace compare {
namespace {

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  return out;
}

// Written to a temporary and renamed, so a run stopped mid-write leaves the previous file.
template <class Write>
void replace_file(const std::string& path, Write write) {
  {
    std::ofstream out = open_for_writing(path + ".tmp");
    write(out);
  }
  std::rename((path + ".tmp").c_str(), path.c_str());
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// A row's columns in file order: null where not available.
nlohmann::ordered_json row_of(const result& x) {
  using json = nlohmann::ordered_json;
  const bool ok = x.outcome == status::ok;
  const bool segmented = x.c.lengths.shape != segment_shape::none;
  auto opt = [](bool known, auto v) { return known ? json(v) : json(); };
  return {{"target", name_of(x.c.where)},
          {"algorithm", name_of(x.c.algo)},
          {"type", name_of(x.c.type)},
          {"n", x.c.n},
          {"segments", opt(segmented, name_of(x.c.lengths))},
          {"segment_count", opt(segmented, x.segment_count)},
          {"implementation", x.impl},
          {"library", x.library},
          {"status", name_of(x.outcome)},
          {"runs", opt(ok, x.timing.runs)},
          {"median_ms", opt(ok, x.timing.median_ms)},
          {"min_ms", opt(ok, x.timing.min_ms)},
          {"max_ms", opt(ok, x.timing.max_ms)},
          {"spread", opt(ok, x.timing.spread)},
          {"bytes", x.bytes},
          {"gelem_per_s", opt(x.gelem_per_s >= 0, x.gelem_per_s)},
          {"gb_per_s", opt(x.gb_per_s >= 0, x.gb_per_s)},
          {"percent_of_copy", opt(x.percent_of_copy >= 0, x.percent_of_copy)},
          {"speedup_vs_baseline", opt(x.speedup > 0, x.speedup)},
          {"baseline", x.speedup > 0 ? baseline_of(x.c.where) : ""},
          {"busy", x.busy},
          {"slower_than_seq", x.slower_than_seq},
          {"copy_disturbed", x.copy_disturbed},
          {"message", x.message},
          {"host_us_per_call", opt(x.host_us >= 0, x.host_us)}};
}

std::string csv_line(const nlohmann::ordered_json& row, bool header) {
  std::string line;
  for (const auto& [k, v] : row.items()) {
    const std::string text = header        ? k
                             : v.is_null() ? ""
                             : v.is_string() ? v.get<std::string>()
                             : v.is_boolean() ? (v.get<bool>() ? "yes" : "")
                                              : v.dump();
    line += (line.empty() ? "" : ",") + csv_field(text);
  }
  return line + "\n";
}

// What the rows name: the algorithms and the implementations with their roles.
nlohmann::ordered_json descriptions(const report& r) {
  using json = nlohmann::ordered_json;
  json algorithms = json::array(), implementations = json::array();
  for (const algorithm_descriptor& d : algorithm_table) {
    algorithms.push_back({{"name", d.name}, {"summary", d.summary}});
  }
  for (const implementation_summary& i : r.implementations) {
    implementations.push_back({{"name", i.name},
                               {"library", i.library},
                               {"target", name_of(i.where)},
                               {"role", name_of(i.part)}});
  }
  return {{"algorithms", algorithms}, {"implementations", implementations}};
}

// Indented, but one result a line: readable and diffable at two thirds of the fully indented size.
void write_json(const report& r, std::ostream& out) {
  nlohmann::ordered_json doc = {{"provenance", nlohmann::ordered_json::object()},
                                {"notes", r.notes}};
  const nlohmann::ordered_json named = descriptions(r);
  for (const auto& [k, v] : named.items()) doc[k] = v;
  for (const auto& [k, v] : r.provenance) doc["provenance"][k] = v;
  std::string head = doc.dump(2);
  head.erase(head.rfind('\n'));  // the closing brace, which now follows the results
  out << head << ",\n  \"results\": [";
  const char* separator = "\n    ";
  for (const result* x : sorted_rows(r)) {
    out << separator << row_of(*x).dump();
    separator = ",\n    ";
  }
  out << (*separator == '\n' ? "]" : "\n  ]") << "\n}\n";
}

// Markdown: provenance, notes, then per (target, algorithm, type) a table of GB/s with sizes (and
// segment lengths) as rows and implementations as columns (speedup over the baseline in
// parentheses), and where any was measured a table of the host time per call.
void write_markdown(const report& r, std::ostream& out) {
  out << "# pscan-compare results\n\n";
  for (const auto& [k, v] : r.provenance) out << "- **" << k << "**: " << v << "\n";
  if (!r.notes.empty()) out << "\n## Notes\n\n";
  for (const auto& note : r.notes) out << "- " << note << "\n";
  const auto rows = sorted_rows(r);
  for (std::size_t begin = 0, end = 0; begin < rows.size(); begin = end) {
    const cell& first = rows[begin]->c;
    const bool segmented = is_segmented(first.algo);
    std::vector<std::string> impls;
    std::map<std::pair<segment_lengths, std::int64_t>, std::map<std::string, std::string>> table,
        host;
    bool any_host = false;
    std::map<std::pair<segment_lengths, std::int64_t>, std::int64_t> segment_count;
    for (end = begin; end < rows.size() && rows[end]->c.where == first.where &&
                      rows[end]->c.algo == first.algo && rows[end]->c.type == first.type;
         ++end) {
      const result& x = *rows[end];
      if (std::find(impls.begin(), impls.end(), x.impl) == impls.end()) impls.push_back(x.impl);
      std::string text = x.outcome == status::ok ? number(x.gb_per_s, 1) : name_of(x.outcome);
      if (x.speedup > 0) text += " (" + number(x.speedup, 2) + "x)";
      const std::string marks = marks_of(x);
      table[{x.c.lengths, x.c.n}][x.impl] = text + (marks.empty() ? "" : " " + marks);
      host[{x.c.lengths, x.c.n}][x.impl] = number(x.host_us, 1);
      any_host = any_host || x.host_us >= 0;
      segment_count[{x.c.lengths, x.c.n}] = x.segment_count;
    }
    auto write_table = [&](const std::string& heading, const auto& cells) {
      out << "\n" << heading << "\n\n| n |" << (segmented ? " segments | segment count |" : "");
      for (const auto& impl : impls) out << " " << impl << " |";
      out << "\n|---:|" << (segmented ? "---:|---:|" : "");
      for (std::size_t i = 0; i < impls.size(); ++i) out << "---:|";
      out << "\n";
      for (const auto& [key, by_impl] : cells) {
        out << "| " << format_count(key.second) << " |";
        if (segmented) out << " " << name_of(key.first) << " | " << segment_count[key] << " |";
        for (const auto& impl : impls) {
          const auto it = by_impl.find(impl);
          out << " " << (it == by_impl.end() ? "" : it->second) << " |";
        }
        out << "\n";
      }
    };
    const std::string name = std::string(name_of(first.where)) + " " + name_of(first.algo) + " " +
                             name_of(first.type);
    write_table("## " + name + " (GB/s; ! busy machine, < slower than seq, ~ copy disturbed)",
                table);
    if (any_host)
      write_table("### " + name + " (host µs per call; empty: not measured, see host_cost)", host);
  }
}

}  // namespace

result_files::result_files(std::string csv, std::string json, std::string md)
    : csv_(std::move(csv)), json_(std::move(json)), md_(std::move(md)) {
  for (const std::string* path : {&csv_, &json_, &md_}) {  // fail before the run, not after it
    if (!path->empty()) open_for_writing(*path);
  }
}

void result_files::start(const report& r) {
  if (!csv_.empty()) {
    csv_out_ = open_for_writing(csv_);
    for (const auto& [k, v] : r.provenance) csv_out_ << "# " << k << ": " << v << "\n";
    for (const auto& note : r.notes) csv_out_ << "# note: " << note << "\n";
    csv_out_ << csv_line(row_of(result{}), true) << std::flush;
  }
  finish(r);
}

void result_files::add(const report& r, const std::vector<result>& rows) {
  if (csv_out_.is_open()) {
    for (const result& x : rows) csv_out_ << csv_line(row_of(x), false);
    csv_out_.flush();
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - last_write_ < std::chrono::seconds(2)) return;  // large runs: not O(rows^2) bytes
  last_write_ = now;
  finish(r);
}

void result_files::finish(const report& r) {
  if (!json_.empty()) replace_file(json_, [&](std::ostream& out) { write_json(r, out); });
  if (!md_.empty()) replace_file(md_, [&](std::ostream& out) { write_markdown(r, out); });
}

std::string result_files::describe() const {
  std::string names;
  for (const std::string* f : {&csv_, &json_, &md_}) {
    if (!f->empty()) names += (names.empty() ? "" : ", ") + *f;
  }
  return "every row in " + names;
}

}  // namespace compare
