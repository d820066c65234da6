#include "provenance.hpp"

#include "gpu.hpp"
#include "implementation.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

#if defined(_OPENMP)
#include <omp.h>
#endif

#ifndef PSCAN_COMPARE_SOURCE_DIR
#define PSCAN_COMPARE_SOURCE_DIR "."
#endif
#ifndef PSCAN_COMPARE_GIT_COMMIT
#define PSCAN_COMPARE_GIT_COMMIT "unknown"
#endif
#ifndef PSCAN_COMPARE_BUILD_TYPE
#define PSCAN_COMPARE_BUILD_TYPE "unknown"
#endif

namespace compare {
namespace {

// The first line a shell command prints, or "" if it fails.
std::string first_line_of(const std::string& command) {
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "";
  std::array<char, 256> buffer{};
  std::string line;
  if (std::fgets(buffer.data(), buffer.size(), pipe)) line = buffer.data();
  const int status = pclose(pipe);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return status == 0 ? line : "";
}

// Read now (the binary may be older than the checkout); the configure-time commit otherwise.
std::string git_commit() {
  const std::string git = "git -C '" + source_dir() + "' ";
  std::string commit = first_line_of(git + "rev-parse HEAD 2>/dev/null");
  if (commit.empty()) return PSCAN_COMPARE_GIT_COMMIT;
  if (!first_line_of(git + "status --porcelain --untracked-files=no 2>/dev/null").empty()) {
    commit += " (with uncommitted changes)";
  }
  return commit;
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line
                                        : line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

int cpu_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return static_cast<int>(std::thread::hardware_concurrency());
#endif
}

std::string host_compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", s);
  return text;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

std::string source_dir() { return PSCAN_COMPARE_SOURCE_DIR; }

std::vector<std::pair<std::string, std::string>> collect_provenance(
    const options& o, const std::string& gpu_unavailable) {
  std::string command;
  for (const auto& word : o.command_line) command += (command.empty() ? "" : " ") + word;
  std::vector<std::pair<std::string, std::string>> p = {
      {"tool", "pscan-compare"},
      {"date", utc_now()},
      {"git_commit", git_commit()},
      {"command", command},
      {"build_type", PSCAN_COMPARE_BUILD_TYPE},
      {"host_compiler", host_compiler()},
      {"cpu", cpu_model()},
      {"cpu_threads", std::to_string(cpu_threads())},
      {"cccl_version", cccl_version().empty() ? "none" : cccl_version()},
  };
  if (gpu_unavailable.empty()) {
    const gpu::device_facts f = gpu::facts();
    p.insert(p.end(), {{"gpu", f.name},
                       {"gpu_driver", f.driver_version},
                       {"cuda_runtime", f.runtime_version},
                       {"gpu_sms", std::to_string(f.sm_count)},
                       {"gpu_l2_bytes", std::to_string(f.l2_bytes)},
                       {"gpu_memory_bytes", std::to_string(f.total_bytes)}});
  } else {
    p.emplace_back("gpu", "none: " + gpu_unavailable);
  }
  p.insert(p.end(),
           {{"runs", std::to_string(o.plan.runs) + " timed runs (median, min, max) after " +
                         std::to_string(o.plan.warmup) + " warm-ups; fewer, not below " +
                         std::to_string(std::min(o.plan.min_runs, o.plan.runs)) +
                         ", when they would take over " + seconds(o.plan.budget_s) +
                         " per implementation and cell"},
            {"timing",
             "GPU: CUDA events on a non-default stream, L2 flushed (2x L2 write) before "
             "each run; CPU: steady_clock, warm caches"},
            {"validation",
             "every cell against pscan::seq on the host before timing; integers and "
             "affine exact, f32/f64 relative tolerance 1e-6/1e-12 (inputs make "
             "order-preserving results exact)"},
            {"bytes",
             "scan 2n*sizeof(T), reduce n*sizeof(T), plus flags/keys/offsets read and "
             "segmented_reduce outputs; copy moves n elements (2n*sizeof(T))"}});
  return p;
}

std::string machine_slug(const std::string& gpu_unavailable) {
  const std::string name = gpu_unavailable.empty() ? gpu::facts().name : "cpu-" + cpu_model();
  std::string slug;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      slug += static_cast<char>(std::tolower(c));
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "unknown" : slug;
}

}  // namespace compare
