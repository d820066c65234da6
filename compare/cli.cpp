// The command line on CLI11: presets first, then the filters.

#include "options.hpp"
#include "registry.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>
#include <unistd.h>

#ifndef PSCAN_COMPARE_VERSION
#define PSCAN_COMPARE_VERSION "unknown"
#endif
#ifndef PSCAN_COMPARE_GIT_COMMIT
#define PSCAN_COMPARE_GIT_COMMIT "unknown"
#endif
#ifndef PSCAN_COMPARE_GIT_DIRTY
#define PSCAN_COMPARE_GIT_DIRTY 0
#endif

namespace compare {
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const algorithm_descriptor& d : algorithm_table) names.emplace_back(d.name);
  return names;
}

std::vector<std::string> implementation_names(bool plant_bug) {
  std::vector<std::string> names;
  for (const registration& r : registrations()) {
    if (r.part != role::planted || plant_bug) names.emplace_back(r.name);
  }
  return names;
}

std::vector<std::string> element_names() {
  std::vector<std::string> names;
  for (element e : all_elements) names.emplace_back(name_of(e));
  return names;
}

template <class Axis>
std::vector<Axis> parse_axis(const std::string& flag, const std::string& text,
                             const std::vector<std::string>& names) {
  std::vector<Axis> values;
  for (const auto& word : split(text, ',')) {
    Axis v{};
    if (!parse(word, v)) {
      throw usage_error(flag + ": unknown value '" + word + "' (valid: " + joined(names) + ")");
    }
    values.push_back(v);
  }
  if (values.empty()) throw usage_error(flag + ": needs at least one value");
  return values;
}

std::vector<std::int64_t> geometric(std::int64_t first, std::int64_t last, std::int64_t factor) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = first; n <= last; n *= factor) sizes.push_back(n);
  return sizes;
}

// "1024", "2^20", "16M"; nullopt if it is none of these or above 2^62.
std::optional<std::int64_t> count_of(const std::string& text) {
  const auto caret = text.find('^');
  std::size_t used = 0;
  try {
    if (caret != std::string::npos) {
      const long long base = std::stoll(text.substr(0, caret), &used);
      if (used != caret) return std::nullopt;
      const int exponent = std::stoi(text.substr(caret + 1), &used);
      if (used != text.size() - caret - 1 || base < 1 || exponent < 0) return std::nullopt;
      long double n = 1;
      for (int i = 0; i < exponent && n <= 0x1p62L; ++i) n *= base;
      if (n > 0x1p62L) return std::nullopt;
      return static_cast<std::int64_t>(n);
    }
    const long long n = std::stoll(text, &used);
    const std::string unit = text.substr(used);
    const int shift = unit.empty()  ? 0
                      : unit == "K" ? 10
                      : unit == "M" ? 20
                      : unit == "G" ? 30
                                    : -1;
    if (shift < 0 || n < 0 || n > (std::int64_t{1} << (62 - shift))) return std::nullopt;
    return static_cast<std::int64_t>(n) << shift;
  } catch (const std::logic_error&) {  // stoll/stoi: not a number, or out of range
    return std::nullopt;
  }
}

std::int64_t count_in(const std::string& flag, const std::string& text, std::int64_t low,
                      std::int64_t high) {
  const auto n = count_of(text);
  if (!n) throw usage_error(flag + ": '" + text + "' is not a size (write 1024, 2^20 or 16M)");
  if (*n < low || *n > high) throw usage_error(flag + ": '" + text + "' is out of range");
  return *n;
}

// --runs N is both bounds; one bound given alone moves the other's default out of its way.
void set_run_counts(timing_plan& plan, const std::string& runs, const std::string& min_runs,
                    const std::string& max_runs) {
  constexpr std::int64_t most = 1000000;
  if (!runs.empty() && (!min_runs.empty() || !max_runs.empty())) {
    throw usage_error("--runs sets both --min-runs and --max-runs: give either");
  }
  if (!runs.empty()) {
    plan.min_runs = plan.max_runs = static_cast<int>(count_in("--runs", runs, 1, most));
    return;
  }
  if (!min_runs.empty()) {
    plan.min_runs = static_cast<int>(count_in("--min-runs", min_runs, 1, most));
  }
  if (!max_runs.empty()) {
    plan.max_runs = static_cast<int>(count_in("--max-runs", max_runs, 1, most));
  }
  if (max_runs.empty()) plan.max_runs = std::max(plan.max_runs, plan.min_runs);
  if (min_runs.empty()) plan.min_runs = std::min(plan.min_runs, plan.max_runs);
  if (plan.min_runs > plan.max_runs) {
    throw usage_error("--min-runs " + min_runs + " is above --max-runs " + max_runs);
  }
}

std::string number_text(double v) {
  std::ostringstream text;
  text << v;
  return text.str();
}

// "2^20,2^28", "1024:2^30:x4".
std::vector<std::int64_t> parse_sizes(const std::string& flag, const std::string& text) {
  constexpr std::int64_t most = std::int64_t{1} << 62;
  std::vector<std::int64_t> sizes;
  for (const auto& item : split(text, ',')) {
    const auto parts = split(item, ':');
    if (parts.size() == 1) {
      sizes.push_back(count_in(flag, parts[0], 1, most));
    } else if (parts.size() == 2 || parts.size() == 3) {
      const std::int64_t first = count_in(flag, parts[0], 1, most);
      const std::int64_t last = count_in(flag, parts[1], first, most);
      if (parts.size() == 3 && (parts[2].size() < 2 || parts[2][0] != 'x')) {
        throw usage_error(flag + ": step '" + parts[2] + "' must be xK, e.g. x4");
      }
      const std::int64_t factor =
          parts.size() == 3 ? count_in(flag, parts[2].substr(1), 2, most) : 2;
      for (std::int64_t n : geometric(first, last, factor)) sizes.push_back(n);
    } else {
      throw usage_error(flag + ": cannot read '" + item +
                        "' (write N, FIRST:LAST or FIRST:LAST:xK)");
    }
  }
  if (sizes.empty()) throw usage_error(flag + ": needs at least one value");
  return sizes;
}

// The segment lengths of a preset, in --segments' syntax.
const char* preset_segments(const std::string& preset) {
  return preset == "quick" ? "8,1000,one" : "1,8,100,1000,2^16,2^20,one,log,gaps";
}

// "1,8,2^16,one,log,gaps": mean lengths (sizes or ranges of sizes) and named distributions,
// each once, in the order given.
std::vector<segment_lengths> parse_segments(const std::string& flag, const std::string& text) {
  std::vector<segment_lengths> list;
  auto add = [&](const segment_lengths& s) {
    if (std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
  };
  for (const auto& item : split(text, ',')) {
    segment_lengths named;
    if (parse(item, named)) {
      add(named);
    } else if (std::isdigit(static_cast<unsigned char>(item[0]))) {
      for (std::int64_t mean : parse_sizes(flag, item)) add({segment_shape::uniform, mean});
    } else {
      throw usage_error(flag + ": unknown value '" + item +
                        "' (write a mean length such as 1000 or 2^16, or one, log, gaps)");
    }
  }
  if (list.empty()) throw usage_error(flag + ": needs at least one value");
  return list;
}

std::vector<group> preset_groups(const std::string& preset) {
  const std::vector<algorithm> algos = every_algorithm();
  std::vector<algorithm> host_algos;
  for (algorithm a : algos) {
    if (describe(a).on_cpu) host_algos.push_back(a);
  }
  const std::vector<element> types(std::begin(all_elements), std::end(all_elements));
  const std::int64_t k = 1024;
  if (preset == "default") {
    return {group{target::cpu, host_algos, types, geometric(k, k << 18, 16), {}},
            group{target::gpu, algos, types, geometric(k, k << 20, 4), {}}};
  }
  if (preset == "quick") {  // minutes on a 2-core laptop: 3 types, sizes x16 apart
    const std::vector<element> three{element::i32, element::f64, element::affine};
    // The largest size without the implementations whose quick cap (registry.cpp) is below it.
    const std::int64_t largest = k << 14;
    std::vector<std::string> within_cap;
    for (const registration& r : registrations()) {
      if (runs_on(r, target::cpu) && (r.quick_max_n == 0 || r.quick_max_n >= largest)) {
        within_cap.push_back(r.name);
      }
    }
    return {group{target::cpu, host_algos, three, geometric(k << 2, k << 10, 16), {}},
            group{target::cpu, host_algos, three, {largest}, within_cap},
            group{target::gpu, algos, three, geometric(k, k << 18, 16), {}}};
  }
  if (preset == "papers") {  // Harris' table (exclusive f32) and LightScan's Tables 2/3 (inclusive)
    const std::vector<element> four{element::i32, element::i64, element::f32, element::f64};
    const auto lightscan = geometric(k << 15, k << 19, 2);
    auto harris = geometric(32 * k, 16 * k * k, 2);  // GPU Gems 3 ch. 39, Table 2: 1K, 32K..16M
    harris.insert(harris.begin(), k);
    const algorithm excl = algorithm::exclusive_scan, incl = algorithm::inclusive_scan;
    return {group{target::cpu, {excl}, {element::f32}, harris, {"seq", "std", "omp", "copy"}},
            group{target::cpu, {incl}, four, lightscan, {"omp", "std_par", "copy"}},
            group{target::gpu, {excl}, {element::f32}, harris, {}},
            group{target::gpu, {incl}, four, lightscan, {}}};
  }
  throw usage_error("--preset: unknown preset '" + preset + "' (valid: default, quick, papers)");
}

template <class T>
void keep_only(std::vector<T>& values, const std::vector<T>& wanted) {
  values.erase(std::remove_if(values.begin(), values.end(),
                              [&](const T& v) {
                                return std::find(wanted.begin(), wanted.end(), v) == wanted.end();
                              }),
               values.end());
}

struct filters {
  std::vector<algorithm> algos;
  std::vector<element> types;
  std::vector<std::int64_t> sizes;
  std::vector<std::string> impls;
};

void check_implementation_names(const std::vector<std::string>& impls, bool plant_bug) {
  const std::vector<std::string> valid = implementation_names(plant_bug);
  for (const auto& name : impls) {
    if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
      throw usage_error("--impl: unknown implementation '" + name + "' (valid: " + joined(valid) +
                        ")");
    }
  }
}

// --impl naming GPU implementations and nothing CPU-only: a missing GPU is then an error.
bool asks_for_gpu(const std::vector<std::string>& impls) {
  auto on = [](sides where) {
    return [where](const std::string& name) { return find_registration(name)->where == where; };
  };
  return std::any_of(impls.begin(), impls.end(), on(sides::gpu)) &&
         std::none_of(impls.begin(), impls.end(), on(sides::cpu));
}

// The preset's groups with the filters applied; groups left with nothing are dropped.
std::vector<group> select_groups(const options& o, const filters& f) {
  std::vector<group> groups;
  for (group& g : preset_groups(o.preset)) {
    if ((o.cpu_only && g.where == target::gpu) || (o.gpu_only && g.where == target::cpu)) continue;
    if (!f.algos.empty()) keep_only(g.algos, f.algos);
    if (!f.types.empty()) keep_only(g.types, f.types);
    if (!f.sizes.empty()) g.sizes = f.sizes;
    if (!f.impls.empty()) {
      if (g.impls.empty())
        g.impls = f.impls;
      else
        keep_only(g.impls, f.impls);
      if (g.impls.empty()) continue;
    }
    // --sizes gives a preset's groups that split one target's sizes (quick) the same cells: the
    // first, which runs every implementation, keeps them.
    const bool repeated = std::any_of(groups.begin(), groups.end(), [&](const group& kept) {
      return kept.where == g.where && kept.algos == g.algos && kept.types == g.types &&
             kept.sizes == g.sizes;
    });
    if (!g.algos.empty() && !g.types.empty() && !repeated) groups.push_back(g);
  }
  return groups;
}

// Two columns, one entry a line: the name, then its description.
std::string table(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.first.size());
  std::string text;
  for (const auto& [name, about] : rows)
    text += "\n  " + name + std::string(width + 2 - name.size(), ' ') + about;
  return text;
}

const char* target_names(sides where) {
  return where == sides::cpu ? "cpu  " : where == sides::gpu ? "  gpu" : "both ";
}

std::string footer() {
  std::vector<std::pair<std::string, std::string>> algorithms, implementations;
  for (const algorithm_descriptor& d : algorithm_table) algorithms.emplace_back(d.name, d.summary);
  const host_cost_plan host;
  for (const registration& r : registrations()) {
    implementations.emplace_back(r.name, std::string(target_names(r.where)) + "  " + r.summary);
  }
  return R"(
Sizes: 1024, 2^20, 16M, lists (2^20,2^28) and ranges FIRST:LAST[:xK] (1024:2^30:x4).
Segments: a mean M draws lengths uniform in [1, 2M-1] (so 1: every segment one element); one: a
  single segment of all n; log: log-uniform lengths in [1, 2^24); gaps: every other segment
  empty, mean 100 over all of them. Ranges of means work like sizes (8:2^20:x8).
Presets: default (GPU 2^10..2^30 x4, CPU 2^10..2^26 x16, every type; segments
  1,8,100,1000,2^16,2^20,one,log,gaps), quick (i32, f64, affine; GPU 2^10..2^28 x16, CPU
  2^12..2^24 x16, thrust_omp to 2^20; segments 8,1000,one), papers (Harris' and LightScan's
  sizes and types).
  Sizes that do not fit in free memory are skipped with a note.
Runs: after the warm-ups, --min-runs timed runs, then more until the spread (median absolute
  deviation / median) is at most --max-spread, or --max-runs; a cell also stops once its runs
  took --budget seconds, after at least 3. Every row reports its runs and spread.
Host cost (GPU rows, host_us): the host time per call, the median of )" +
         std::to_string(host.batches) + " batches of " + std::to_string(host.calls) + R"( calls
  queued behind a kernel that holds the stream, for n up to )" +
         format_count(host.max_n) + R"(; empty where a call waits for the device.
Algorithms:)" + table(algorithms) +
         "\nImplementations (target, then what it is; --list prints those built in):" +
         table(implementations) + R"(
Files: ./pscan-results/results.{json,md} unless --out, --csv, --json or --md is given;
  rows are written as cells finish. Plots: scripts/plot_results.py DIR/results.json.
Exit status: 0 all cells valid, 1 a cell failed or errored, 2 bad command line or nothing to run.)";
}

}  // namespace

std::string git_commit() { return PSCAN_COMPARE_GIT_COMMIT; }
bool git_dirty() { return PSCAN_COMPARE_GIT_DIRTY != 0; }

std::string version_text() {
  return std::string(PSCAN_COMPARE_VERSION) + " (git " + git_commit() +
         (git_dirty() ? ", uncommitted changes" : "") + ")";
}

std::optional<options> parse_options(int argc, char** argv) {
  options o;
  o.progress = isatty(STDERR_FILENO) != 0;
  for (int i = 0; i < argc; ++i) o.command_line.push_back(argv[i]);
  std::string algos, types, sizes, segments, impls, runs, min_runs, max_runs, warmup, seq_max;
  const timing_plan defaults;
  CLI::App app("pscan-compare: every pscan policy against CUB, Thrust and the standard library.",
               "pscan-compare");
  app.get_formatter()->column_width(26);
  app.footer(footer());
  app.set_version_flag("--version", "pscan-compare " + version_text(), "Print the version");
  app.add_option("--algo", algos, "Algorithms (default: all; listed below)")->type_name("LIST");
  app.add_option("--type", types, "i32, i64, f32, f64, affine (default: the preset's)")
      ->type_name("LIST");
  app.add_option("--sizes", sizes, "Element counts (default: the preset's)")->type_name("LIST");
  app.add_option("--segments", segments,
                 "Segment lengths: means, one, log, gaps (default: the preset's)")
      ->type_name("LIST");
  app.add_option("--impl", impls, "Implementations (default: all built in; listed below)")
      ->type_name("LIST");
  app.add_flag("--cpu-only", o.cpu_only, "The CPU part only");
  app.add_flag("--gpu-only", o.gpu_only, "The GPU part only");
  app.add_option("--runs", runs, "Exactly N timed runs per cell (no spread rule)")
      ->type_name("N");
  app.add_option("--min-runs", min_runs,
                 "Timed runs before the spread is judged (default " +
                     std::to_string(defaults.min_runs) + ")")
      ->type_name("N");
  app.add_option("--max-runs", max_runs,
                 "Timed runs at most (default " + std::to_string(defaults.max_runs) + ")")
      ->type_name("N");
  app.add_option("--max-spread", o.plan.max_spread,
                 "Stop once MAD / median <= F (default " + number_text(defaults.max_spread) + ")")
      ->check(CLI::Range(0.0, 1.0))
      ->type_name("F");
  app.add_option("--warmup", warmup,
                 "Untimed runs before them (default " + std::to_string(defaults.warmup) + ")")
      ->type_name("N");
  app.add_option("--budget", o.plan.budget_s,
                 "Seconds per cell and implementation; stops it after >= 3 runs (default " +
                     number_text(defaults.budget_s) + ")")
      ->check(CLI::PositiveNumber)
      ->type_name("S");
  app.add_option("--seq-max", seq_max,
                 "Largest size at which seq and the CPU's exact sums are timed (default 2^20)")
      ->type_name("N");
  app.add_option("--preset", o.preset, "default, quick or papers (default: default)")
      ->type_name("NAME");
  app.add_option("--csv", o.csv, "Write the rows (and provenance) to this CSV file")
      ->type_name("FILE");
  app.add_option("--json", o.json, "... to this JSON file")->type_name("FILE");
  app.add_option("--md", o.md, "... to this Markdown file")->type_name("FILE");
  app.add_option("--out", o.out_dir, "Write DIR/results.{json,md}")->type_name("DIR");
  app.add_flag("--plant-bug", o.plant_bug, "Add planted_bug, off by one (must FAIL)");
  app.add_flag_callback("--no-host-cost", [&] { o.host_cost.enabled = false; },
                        "GPU: do not measure the host time per call");
  app.add_flag_callback("--no-progress", [&] { o.progress = false; }, "No progress bar");
  app.add_flag("--rows", o.rows, "Every row on the terminal as its cell finishes (else the "
               "failures, then a summary; the files have every row)");
  app.add_flag("--list", o.list, "Print the axes and implementations and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return std::nullopt;
  } catch (const CLI::CallForVersion&) {
    std::cout << app.version() << "\n";
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    throw usage_error(e.what());
  }

  if (o.cpu_only && o.gpu_only) throw usage_error("--cpu-only and --gpu-only exclude each other");
  filters f;
  if (!algos.empty()) f.algos = parse_axis<algorithm>("--algo", algos, algorithm_names());
  if (!types.empty()) f.types = parse_axis<element>("--type", types, element_names());
  if (!sizes.empty()) f.sizes = parse_sizes("--sizes", sizes);
  o.segments =
      parse_segments("--segments", segments.empty() ? preset_segments(o.preset) : segments);
  f.impls = split(impls, ',');
  set_run_counts(o.plan, runs, min_runs, max_runs);
  if (!warmup.empty()) o.plan.warmup = static_cast<int>(count_in("--warmup", warmup, 0, 1000000));
  if (!seq_max.empty()) o.seq_max = count_in("--seq-max", seq_max, 0, std::int64_t{1} << 62);
  check_implementation_names(f.impls, o.plant_bug);
  o.gpu_asked = o.gpu_only || asks_for_gpu(f.impls);
  if (o.preset == "papers") o.seq_max = std::max<std::int64_t>(o.seq_max, std::int64_t{1} << 24);
  o.groups = select_groups(o, f);
  o.sizes_given = !f.sizes.empty();
  return o;
}

}  // namespace compare
