// Command-line parsing by hand (CI has no CLI library): presets first, then the filters.

#include "implementation.hpp"
#include "options.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>
#include <unistd.h>

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

std::string joined_names(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

template <class Axis, std::size_t N>
std::vector<Axis> parse_axis(const std::string& flag, const std::string& text,
                             const Axis (&all)[N]) {
  std::vector<Axis> values;
  for (const auto& word : split(text, ',')) {
    Axis v{};
    if (!parse(word, v)) {
      std::vector<std::string> names;
      for (Axis a : all) names.push_back(name_of(a));
      throw usage_error(flag + ": unknown value '" + word + "' (valid: " + joined_names(names) +
                        ")");
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

std::vector<std::int64_t> harris_sizes() {  // GPU Gems 3 ch. 39, Table 2: 1K, then 32K .. 16M
  std::vector<std::int64_t> sizes{1024};
  for (std::int64_t n : geometric(32768, 16777216, 2)) sizes.push_back(n);
  return sizes;
}

std::vector<group> preset_groups(const std::string& preset) {
  const std::vector<algorithm> algos(std::begin(all_algorithms), std::end(all_algorithms));
  const std::vector<element> types(std::begin(all_elements), std::end(all_elements));
  if (preset == "default") {
    return {group{target::cpu, algos, types, geometric(1024, std::int64_t{1} << 28, 16), {}},
            group{target::gpu, algos, types, geometric(1024, std::int64_t{1} << 30, 4), {}}};
  }
  if (preset == "papers") {  // Harris' table (exclusive f32) and LightScan's Tables 2/3 (inclusive)
    const std::vector<element> four{element::i32, element::i64, element::f32, element::f64};
    const auto lightscan = geometric(std::int64_t{1} << 25, std::int64_t{1} << 29, 2);
    return {
        group{target::cpu,
              {algorithm::exclusive_scan},
              {element::f32},
              harris_sizes(),
              {"seq", "std", "omp", "copy"}},
        group{
            target::cpu, {algorithm::inclusive_scan}, four, lightscan, {"omp", "std_par", "copy"}},
        group{target::gpu, {algorithm::exclusive_scan}, {element::f32}, harris_sizes(), {}},
        group{target::gpu, {algorithm::inclusive_scan}, four, lightscan, {}}};
  }
  throw usage_error("--preset: unknown preset '" + preset + "' (valid: default, papers)");
}

template <class T>
void keep_only(std::vector<T>& values, const std::vector<T>& wanted) {
  values.erase(std::remove_if(values.begin(), values.end(),
                              [&](const T& v) {
                                return std::find(wanted.begin(), wanted.end(), v) == wanted.end();
                              }),
               values.end());
}

}  // namespace

std::int64_t parse_count(const std::string& text) {
  auto fail = [&] { throw usage_error("'" + text + "' is not a size (write 1024, 2^20 or 16M)"); };
  try {
    std::size_t used = 0;
    const auto caret = text.find('^');
    if (caret != std::string::npos) {
      const long long base = std::stoll(text.substr(0, caret), &used);
      if (used != caret) fail();
      const int exponent = std::stoi(text.substr(caret + 1), &used);
      if (used != text.size() - caret - 1 || base < 1 || exponent < 0 || exponent > 62) fail();
      long double n = 1;
      for (int i = 0; i < exponent; ++i) n *= base;
      if (n > static_cast<long double>(std::int64_t{1} << 62)) fail();
      return static_cast<std::int64_t>(n);
    }
    const long long n = std::stoll(text, &used);
    const std::string suffix = text.substr(used);
    const int shift = suffix.empty()  ? 0
                      : suffix == "K" ? 10
                      : suffix == "M" ? 20
                      : suffix == "G" ? 30
                                      : -1;
    if (shift < 0 || n < 0 || n > (std::int64_t{1} << (62 - shift))) fail();
    return static_cast<std::int64_t>(n) << shift;
  } catch (const std::logic_error&) {  // stoll/stoi: not a number, or out of range
    fail();
  }
  return 0;
}

std::vector<std::int64_t> parse_sizes(const std::string& flag, const std::string& text) {
  std::vector<std::int64_t> sizes;
  for (const auto& item : split(text, ',')) {
    const auto parts = split(item, ':');
    if (parts.size() == 1) {
      sizes.push_back(parse_count(parts[0]));
    } else if (parts.size() == 2 || parts.size() == 3) {
      const std::int64_t first = parse_count(parts[0]), last = parse_count(parts[1]);
      std::int64_t factor = 2;
      if (parts.size() == 3) {
        if (parts[2].size() < 2 || parts[2][0] != 'x') {
          throw usage_error(flag + ": step '" + parts[2] + "' must be xK, e.g. x4");
        }
        factor = parse_count(parts[2].substr(1));
      }
      if (first < 1 || factor < 2 || last < first) {
        throw usage_error(flag + ": range '" + item +
                          "' needs 1 <= first <= last and a step >= x2");
      }
      for (std::int64_t n : geometric(first, last, factor)) sizes.push_back(n);
    } else {
      throw usage_error(flag + ": cannot read '" + item +
                        "' (write N, FIRST:LAST or FIRST:LAST:xK)");
    }
  }
  for (std::int64_t n : sizes) {
    if (n < 1) throw usage_error(flag + ": values must be at least 1");
  }
  if (sizes.empty()) throw usage_error(flag + ": needs at least one value");
  return sizes;
}

namespace {

struct filters {
  std::vector<algorithm> algos;
  std::vector<element> types;
  std::vector<std::int64_t> sizes;
  std::vector<std::string> impls;
};

void check_implementation_names(const std::vector<std::string>& impls, bool plant_bug) {
  std::vector<std::string> valid;
  for (const auto& name : known_implementation_names()) {
    if (name != "planted_bug" || plant_bug) valid.push_back(name);
  }
  for (const auto& name : impls) {
    if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
      throw usage_error("--impl: unknown implementation '" + name +
                        "' (valid: " + joined_names(valid) + ")");
    }
  }
}

// --impl naming GPU implementations and nothing CPU-only: a missing GPU is then an error.
bool asks_for_gpu(const std::vector<std::string>& impls) {
  return std::any_of(impls.begin(), impls.end(), is_gpu_only_implementation) &&
         std::all_of(impls.begin(), impls.end(), [](const std::string& n) {
           return is_gpu_only_implementation(n) || n == "copy";
         });
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
    if (!g.algos.empty() && !g.types.empty()) groups.push_back(g);
  }
  return groups;
}

// A count option's value: a number (2^k and K/M/G suffixes allowed) in [low, high].
std::int64_t parse_bounded(const std::string& flag, const std::string& v, std::int64_t low,
                           std::int64_t high) {
  std::int64_t n = -1;
  try {
    n = parse_count(v);
  } catch (const usage_error&) {
    throw usage_error(flag + ": '" + v + "' is not a number");
  }
  if (n < low || n > high) throw usage_error(flag + ": '" + v + "' is out of range");
  return n;
}

double parse_seconds(const std::string& flag, const std::string& v) {
  char* end = nullptr;
  const double s = std::strtod(v.c_str(), &end);
  if (*end != '\0' || !(s > 0)) throw usage_error(flag + ": '" + v + "' is not a positive number");
  return s;
}

}  // namespace

options parse_options(int argc, char** argv) {
  options o;
  o.progress = isatty(STDERR_FILENO) != 0;
  filters f;
  using setter = std::function<void(const std::string& flag, const std::string& value)>;
  const std::map<std::string, setter> with_value = {
      {"--algo", [&](auto& k, auto& v) { f.algos = parse_axis(k, v, all_algorithms); }},
      {"--type", [&](auto& k, auto& v) { f.types = parse_axis(k, v, all_elements); }},
      {"--sizes", [&](auto& k, auto& v) { f.sizes = parse_sizes(k, v); }},
      {"--segments", [&](auto& k, auto& v) { o.segment_means = parse_sizes(k, v); }},
      {"--impl", [&](auto&, auto& v) { f.impls = split(v, ','); }},
      {"--runs",
       [&](auto& k, auto& v) { o.plan.runs = static_cast<int>(parse_bounded(k, v, 1, 1000000)); }},
      {"--warmup",
       [&](auto& k, auto& v) {
         o.plan.warmup = static_cast<int>(parse_bounded(k, v, 0, 1000000));
       }},
      {"--budget", [&](auto& k, auto& v) { o.plan.budget_s = parse_seconds(k, v); }},
      {"--seq-max",
       [&](auto& k, auto& v) { o.seq_max = parse_bounded(k, v, 0, std::int64_t{1} << 62); }},
      {"--preset", [&](auto&, auto& v) { o.preset = v; }},
      {"--csv", [&](auto&, auto& v) { o.csv = v; }},
      {"--json", [&](auto&, auto& v) { o.json = v; }},
      {"--md", [&](auto&, auto& v) { o.md = v; }},
      {"--out", [&](auto&, auto& v) { o.out_dir = v; }},
  };
  const std::map<std::string, std::function<void()>> switches = {
      {"--cpu-only", [&] { o.cpu_only = true; }},   {"--gpu-only", [&] { o.gpu_only = true; }},
      {"--plant-bug", [&] { o.plant_bug = true; }}, {"--no-progress", [&] { o.progress = false; }},
      {"--list", [&] { o.list = true; }},           {"--help", [] { throw usage_error(""); }},
      {"-h", [] { throw usage_error(""); }},
  };
  for (int i = 0; i < argc; ++i) o.command_line.push_back(argv[i]);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (const auto sw = switches.find(arg); sw != switches.end()) {
      sw->second();
    } else if (const auto opt = with_value.find(arg); opt != with_value.end()) {
      if (i + 1 >= argc) throw usage_error(arg + " needs a value");
      opt->second(arg, argv[++i]);
    } else {
      throw usage_error("unknown option '" + arg + "'");
    }
  }
  if (o.cpu_only && o.gpu_only) throw usage_error("--cpu-only and --gpu-only exclude each other");
  check_implementation_names(f.impls, o.plant_bug);
  o.gpu_asked = o.gpu_only || asks_for_gpu(f.impls);
  if (o.preset == "papers") o.seq_max = std::max<std::int64_t>(o.seq_max, std::int64_t{1} << 24);
  o.groups = select_groups(o, f);
  o.sizes_given = !f.sizes.empty();
  return o;
}

const char* usage_text() {
  return R"(pscan-compare: every pscan policy against CUB, Thrust and the standard library.

Usage: pscan-compare [options]
  --algo LIST      inclusive_scan, exclusive_scan, reduce, segmented_inclusive_scan,
                   inclusive_scan_by_key, segmented_reduce (default: all)
  --type LIST      i32, i64, f32, f64, affine (16-byte non-commutative map) (default: all)
  --sizes LIST     e.g. 2^20,2^28 or 1024:2^30:x4 or 16M (default: GPU 2^10..2^30 x4,
                   CPU 2^10..2^26 x16; capped by free memory)
  --segments LIST  mean segment lengths for segmented algorithms (default: 8,1000,2^20)
  --impl LIST      seq, omp, std, std_par, gnu_parallel, thrust_omp, copy, cuda_multipass,
                   cuda_chained, cuda_chained_det (.deterministic()), cub,
                   cub_host (reduce only: cub + copy of the result to the host), thrust
                   (default: all built in)
  --cpu-only | --gpu-only
  --runs N         timed runs per cell (default 10); --warmup N (default 2)
  --budget S       seconds per implementation and cell beyond which its runs are cut, to no
                   fewer than 3 (default 1)
  --seq-max N      largest size at which pscan::seq is timed (default 2^20)
  --preset NAME    default | papers (Harris' and LightScan's tables)
  --csv F --json F --md F   write results (with provenance)
  --out DIR        write DIR/results.{json,csv,md} and plots (python3 + matplotlib);
                   DIR 'auto' means benchmarks/results/<gpu or cpu name>, 'auto/x' a subfolder
  --plant-bug      add 'planted_bug', a CPU implementation that is off by one (must FAIL)
  --no-progress    no progress bar;  --list  print the axes and implementations and exit
Exit status: 0 all cells valid, 1 a cell failed or errored, 2 bad command line or nothing to run.
)";
}

}  // namespace compare
