// pscan-compare: runs the comparison matrix; prints each cell's rows and writes the result files
// as the cells finish. Plots come from scripts/plot_results.py (scripts/compare --plot).
// Exit status: 0 every cell valid, 1 a cell failed or errored (or the planted bug was missed),
// 2 a bad command line or a part the user asked for cannot run here.

#include "implementation.hpp"
#include "options.hpp"
#include "plan.hpp"
#include "provenance.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "runner.hpp"

#include <chrono>
#include <filesystem>
#include <iostream>

namespace compare {
namespace {

void print_list(const options& o, const std::vector<implementation>& impls) {
  std::cout << "algorithms:";
  for (const algorithm_descriptor& d : algorithm_table) std::cout << " " << d.name;
  std::cout << "\ntypes:";
  for (element e : all_elements) std::cout << " " << name_of(e);
  std::cout << "\nsegments (means M: uniform in [1, 2M-1]; one, log, gaps):";
  for (const segment_lengths& s : o.segments) std::cout << " " << name_of(s);
  std::cout << "\nimplementations built in:\n";
  for (const implementation& impl : impls) {
    if (impl.part != role::planted)
      std::cout << "  " << name_of(impl.where) << " " << impl.name << " (" << impl.library << ")\n";
  }
}

// --csv/--json/--md name files; --out, or none of them, a folder (default ./pscan-results).
std::vector<result_files> output_files(const options& o) {
  std::vector<result_files> files;
  if (!o.csv.empty() || !o.json.empty() || !o.md.empty()) files.emplace_back(o.csv, o.json, o.md);
  if (!o.out_dir.empty() || files.empty()) {
    const std::string dir = o.out_dir.empty() ? "pscan-results" : o.out_dir;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw usage_error("--out: cannot create " + dir + ": " + ec.message());
    files.emplace_back("", dir + "/results.json", dir + "/results.md");
    std::cout << "writing " << dir << "/results.{json,md} as cells finish\n";
  }
  return files;
}

// 1 if a real cell failed or errored, or if the planted bug got through.
int cell_status(const report& r) {
  int code = 0;
  for (const result& x : r.results) {
    const bool planted = find_registration(x.impl)->part == role::planted;
    if (planted && x.outcome != status::failed) {
      std::cerr << "error: the planted bug was not reported FAILED in " << name_of(x.c.algo) << " "
                << name_of(x.c.type) << " " << format_count(x.c.n) << "\n";
      code = 1;
    }
    if (!planted && x.outcome != status::ok) code = 1;
  }
  return code;
}

int run(int argc, char** argv) {
  const auto parsed = parse_options(argc, argv);
  if (!parsed) return 0;  // --help, --version
  const options& o = *parsed;
  const std::vector<implementation> impls = available_implementations();
  if (o.list) {
    print_list(o, impls);
    return 0;
  }
  const plan p = make_plan(o, impls);
  for (const auto& note : p.notes) std::cerr << "note: " << note << "\n";
  for (const auto& error : p.errors) std::cerr << "error: " << error << "\n";
  if (!p.errors.empty()) return 2;
  std::vector<result_files> files = output_files(o);

  report r;
  r.provenance = collect_provenance(o, p.gpu_unavailable);
  r.notes = p.notes;
  for (const implementation& impl : impls) {
    if (impl.part != role::planted || o.plant_bug)
      r.implementations.push_back({impl.name, impl.library, impl.where, impl.part});
  }
  for (result_files& f : files) f.start(r);
  if (o.rows) print_header(std::cout);
  const auto start = std::chrono::steady_clock::now();
  const bool device_ok = run_plan(p, o, r, [&](const std::vector<result>& rows) {
    print_rows(rows, std::cout, !o.rows);
    for (result_files& f : files) f.add(r, rows);
  });
  const auto elapsed = static_cast<long long>(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() + 0.5);
  r.provenance.emplace_back("elapsed_s", std::to_string(elapsed));
  for (result_files& f : files) f.finish(r);
  print_summary(r, std::cout);
  std::cout << "\n" << r.results.size() << " rows in " << elapsed << " s";
  for (const result_files& f : files) std::cout << "; " << f.describe();
  std::cout << "\n";
  return device_ok ? cell_status(r) : 1;
}

}  // namespace
}  // namespace compare

int main(int argc, char** argv) {
  try {
    return compare::run(argc, argv);
  } catch (const compare::usage_error& e) {
    std::cerr << "pscan-compare: " << e.what() << "\n(pscan-compare --help lists the options)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pscan-compare: error: " << e.what() << "\n";
    return 1;
  }
}
