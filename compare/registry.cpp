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

const std::vector<std::string>& known_implementation_names() {
  static const std::vector<std::string> names = {
      "seq",          "omp",        "std",    "std_par",
      "gnu_parallel", "thrust_omp", "copy",   "cuda_multipass",
      "cuda_chained", "cuda_chained_det", "cub", "thrust", "planted_bug"};
  return names;
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
