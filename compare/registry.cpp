// The implementations built into this binary. Each translation unit registers its own; the ones
// that need an optional dependency (OpenMP, CCCL, CUDA) are compiled only when it was found.

#include "implementation.hpp"

namespace compare {

#if PSCAN_COMPARE_WITH_CUDA
std::string cccl_version_of_cuda_build();  // baselines_cub.cu
#endif
#if PSCAN_COMPARE_WITH_THRUST_OMP
std::string cccl_version_of_thrust_omp();  // baselines_thrust_omp.cpp
#endif

namespace {

struct known_name {
  const char* name;
  bool gpu_only;
  bool pscan_cuda;
};

// One row per name; copy runs on either side.
constexpr known_name known_names[] = {
    {"seq", false, false},           {"omp", false, false},
    {"std", false, false},           {"std_par", false, false},
    {"gnu_parallel", false, false},  {"thrust_omp", false, false},
    {"copy", false, false},          {"cuda_multipass", true, true},
    {"cuda_chained", true, true},    {"cuda_chained_det", true, true},
    {"cub", true, false},            {"cub_host", true, false},
    {"thrust", true, false},         {"reduce_floor", true, false},
    {"planted_bug", false, false}};

const known_name* find_known(const std::string& name) {
  for (const known_name& k : known_names) {
    if (name == k.name) return &k;
  }
  return nullptr;
}

}  // namespace

const std::vector<std::string>& known_implementation_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const known_name& k : known_names) all.emplace_back(k.name);
    return all;
  }();
  return names;
}

bool is_gpu_only_implementation(const std::string& name) {
  const known_name* k = find_known(name);
  return k != nullptr && k->gpu_only;
}

bool is_pscan_cuda_implementation(const std::string& name) {
  const known_name* k = find_known(name);
  return k != nullptr && k->pscan_cuda;
}

std::vector<implementation> available_implementations() {
  std::vector<implementation> all;
  add_pscan_cpu(all);
  add_std_baselines(all);
#if PSCAN_COMPARE_WITH_THRUST_OMP
  add_thrust_omp(all);
#endif
#if PSCAN_COMPARE_WITH_CUDA
  add_pscan_cuda(all);
  add_cub(all);
  add_thrust_cuda(all);
#endif
  return all;
}

std::string needs_commutative(const char* api) {
  return std::string(api) +
         " requires a commutative operator (documented); affine composition is not";
}

std::string no_such_algorithm(const char* library, algorithm a) {
  return std::string("no ") + name_of(a) + " in " + library;
}

std::string no_empty_segments(const char* api, algorithm a, const segment_lengths& s) {
  if (a != algorithm::segmented_reduce || !has_empty_segments(s)) return "";
  return std::string(api) + " cannot produce empty segments";
}

std::string cccl_version() {
#if PSCAN_COMPARE_WITH_CUDA
  return cccl_version_of_cuda_build();
#elif PSCAN_COMPARE_WITH_THRUST_OMP
  return cccl_version_of_thrust_omp();
#else
  return "";
#endif
}

}  // namespace compare
