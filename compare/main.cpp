// pscan-compare: runs the comparison matrix and writes the table, files and plots.
// Exit status: 0 every cell valid, 1 a cell failed or errored (or the planted bug was missed),
// 2 a bad command line or a part the user asked for cannot run here.

#include "implementation.hpp"
#include "options.hpp"
#include "plan.hpp"
#include "provenance.hpp"
#include "report.hpp"
#include "runner.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace compare {
namespace {

std::string shell_quote(const std::string& s) {
  std::string quoted = "'";
  for (char c : s) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void print_list(const std::vector<implementation>& impls) {
  std::cout << "algorithms:";
  for (algorithm a : all_algorithms) std::cout << " " << name_of(a);
  std::cout << "\ntypes:";
  for (element e : all_elements) std::cout << " " << name_of(e);
  std::cout << "\nimplementations built in:\n";
  for (const implementation& impl : impls) {
    if (!impl.is_planted)
      std::cout << "  " << name_of(impl.where) << " " << impl.name << " (" << impl.library << ")\n";
  }
}

// Output paths, resolved and checked before the (long) run starts.
struct outputs {
  std::string csv, json, md, dir;
};

outputs prepare_outputs(const options& o, const std::string& gpu_unavailable) {
  outputs out{o.csv, o.json, o.md, o.out_dir};
  if (out.dir == "auto" ||
      out.dir.rfind("auto/", 0) == 0) {  // auto[/sub]: benchmarks/results/<machine>[/sub]
    out.dir.replace(0, 4, source_dir() + "/benchmarks/results/" + machine_slug(gpu_unavailable));
  }
  if (!out.dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out.dir, ec);
    if (ec) throw usage_error("--out: cannot create " + out.dir + ": " + ec.message());
  }
  for (const std::string* path : {&out.csv, &out.json, &out.md}) {
    if (!path->empty() && !std::ofstream(*path)) throw usage_error("cannot write " + *path);
  }
  return out;
}

void write_outputs(const report& r, const outputs& out) {
  if (!out.csv.empty()) write_csv(r, out.csv);
  if (!out.json.empty()) write_json(r, out.json);
  if (!out.md.empty()) write_markdown(r, out.md);
  if (out.dir.empty()) return;
  write_csv(r, out.dir + "/results.csv");
  write_json(r, out.dir + "/results.json");
  write_markdown(r, out.dir + "/results.md");
  std::cout << "wrote " << out.dir << "/results.{csv,json,md}\n";
  const std::string script = source_dir() + "/scripts/plot_results.py";
  if (!std::filesystem::exists(script) ||
      std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") != 0) {
    std::cout << "plots skipped: needs python3 with matplotlib and " << script << "\n";
    return;
  }
  const std::string command = "python3 " + shell_quote(script) + " " +
                              shell_quote(out.dir + "/results.json") + " --out " +
                              shell_quote(out.dir);
  if (std::system(command.c_str()) != 0) std::cout << "plot script failed: " << command << "\n";
}

// 1 if a real cell failed or errored, or if the planted bug got through.
int cell_status(const report& r) {
  int code = 0;
  for (const result& x : r.results) {
    if (x.impl == "planted_bug" && x.outcome != status::failed) {
      std::cerr << "error: the planted bug was not reported FAILED in " << name_of(x.c.algo) << " "
                << name_of(x.c.type) << " " << format_count(x.c.n) << "\n";
      code = 1;
    }
    if (x.impl != "planted_bug" && x.outcome != status::ok) code = 1;
  }
  return code;
}

int run(int argc, char** argv) {
  const options o = parse_options(argc, argv);
  const std::vector<implementation> impls = available_implementations();
  if (o.list) {
    print_list(impls);
    return 0;
  }
  const plan p = make_plan(o, impls);
  for (const auto& note : p.notes) std::cerr << "note: " << note << "\n";
  for (const auto& error : p.errors) std::cerr << "error: " << error << "\n";
  if (!p.errors.empty()) return 2;
  const outputs out = prepare_outputs(o, p.gpu_unavailable);

  report r;
  r.provenance = collect_provenance(o, p.gpu_unavailable);
  r.notes = p.notes;
  const auto start = std::chrono::steady_clock::now();
  const bool device_ok = run_plan(p, o, r);
  const auto elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.provenance.emplace_back("elapsed_s", std::to_string(static_cast<long long>(elapsed + 0.5)));
  finalize(r);
  print_table(r, std::cout);
  std::cout << "\n";
  print_summary(r, std::cout);
  std::cout << "\n"
            << r.results.size() << " rows in " << static_cast<long long>(elapsed + 0.5) << " s\n";
  write_outputs(r, out);
  return device_ok ? cell_status(r) : 1;
}

}  // namespace
}  // namespace compare

int main(int argc, char** argv) {
  try {
    return compare::run(argc, argv);
  } catch (const compare::usage_error& e) {
    if (e.what()[0] == '\0') {  // --help
      std::cout << compare::usage_text();
      return 0;
    }
    std::cerr << "pscan-compare: " << e.what() << "\n(pscan-compare --help lists the options)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pscan-compare: error: " << e.what() << "\n";
    return 1;
  }
}
