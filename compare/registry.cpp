// The table of implementations, and the ones built into this binary: each file that defines an
// implementation adds it with a built_in object (the files that need an optional dependency,
// OpenMP, CCCL or CUDA, are compiled only when it was found).

#include "registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace compare {

#if PSCAN_COMPARE_WITH_CUDA
std::string cccl_version_of_cuda_build();  // baselines_cub.cu
#endif
#if PSCAN_COMPARE_WITH_THRUST_OMP
std::string cccl_version_of_thrust_omp();  // baselines_thrust_omp.cpp
#endif

namespace {

constexpr const char* no_cuda = "built without CUDA";

std::vector<std::function<implementation()>>& makers() {
  static std::vector<std::function<implementation()>> all;  // filled before main by built_in
  return all;
}

}  // namespace

const std::vector<registration>& registrations() {
  static const std::vector<registration> table = {
      {"seq", sides::cpu, role::reference, "pscan::seq, the reference (timed up to --seq-max)", ""},
      {"omp", sides::cpu, role::contender, "pscan::omp",
       "the OpenMP backend is not built (PSCAN_ENABLE_OPENMP=OFF or no OpenMP)"},
      {"seq_exact", sides::cpu, role::exact,
       "pscan::seq with exact_plus: float and double sums rounded once", ""},
      {"omp_exact", sides::cpu, role::exact, "pscan::omp with exact_plus",
       "the OpenMP backend is not built (PSCAN_ENABLE_OPENMP=OFF or no OpenMP)"},
      {"planted_bug", sides::cpu, role::planted, "pscan::seq off by one (--plant-bug)", ""},
      {"std", sides::cpu, role::baseline, "<numeric> scans and reduce, sequential", ""},
      {"std_par", sides::cpu, role::contender, "<numeric> with std::execution::par",
       "std::execution::par needs TBB, which was not found at configure time"},
      {"gnu_parallel", sides::cpu, role::contender, "__gnu_parallel::partial_sum and accumulate",
       "GNU parallel mode needs libstdc++ with OpenMP"},
      {"copy", sides::both, role::copy, "a copy of the n elements: the bandwidth limit", ""},
      // Its reduce by key takes over a second a run at 2^24 on two cores, half of the quick
      // matrix's time.
      {"thrust_omp", sides::cpu, role::contender, "Thrust's OpenMP system (thrust::omp::par)",
       "needs CCCL's Thrust headers and OpenMP at configure time", std::int64_t{1} << 20},
      {"cuda_multipass", sides::gpu, role::contender, "pscan::cuda_multipass",
       "the cuda_multipass backend is not built (no CUDA, or the backend is not in this tree)"},
      {"cuda_chained", sides::gpu, role::contender, "pscan::cuda_chained",
       "the cuda_chained backend is not built (no CUDA, or the backend is not in this tree)"},
      {"cuda_chained_det", sides::gpu, role::contender, "pscan::cuda_chained.deterministic()",
       "the cuda_chained backend is not built (no CUDA, or the backend is not in this tree)"},
      {"cuda_chained_exact", sides::gpu, role::exact,
       "pscan::cuda_chained with exact_plus: the plain scans and reductions",
       "the cuda_chained backend is not built (no CUDA, or the backend is not in this tree)"},
      {"cub", sides::gpu, role::baseline, "CUB's DeviceScan, DeviceReduce, DeviceSegmentedReduce",
       no_cuda},
      {"cub_from_offsets", sides::gpu, role::contender,
       "scans by offsets as a CUB user runs them: keys built from the offsets, then a scan by key",
       no_cuda},
      {"cub_host", sides::gpu, role::contender,
       "reduce only: cub and the copy of its result to the host", no_cuda},
      {"reduce_floor", sides::gpu, role::floor,
       "per-segment cells: CUB's reduce of their n values, the least they move", no_cuda},
      {"thrust", sides::gpu, role::contender, "Thrust's CUDA system", no_cuda},
  };
  return table;
}

const registration* find_registration(const std::string& name) {
  for (const registration& r : registrations()) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

role role_of(const std::string& name) {
  const registration* r = find_registration(name);
  return r == nullptr ? role::contender : r->part;
}

bool runs_on(const registration& r, target t) {
  return r.where == sides::both || (r.where == sides::gpu) == (t == target::gpu);
}

std::string baseline_of(target t) {
  for (const registration& r : registrations()) {
    if (r.part == role::baseline && runs_on(r, t)) return r.name;
  }
  return "";
}

const char* name_of(role r) {
  switch (r) {
    case role::contender:
      return "contender";
    case role::baseline:
      return "baseline";
    case role::reference:
      return "reference";
    case role::copy:
      return "copy";
    case role::floor:
      return "floor";
    case role::planted:
      return "planted";
    case role::exact:
      return "exact";
  }
  return "?";
}

built_in::built_in(std::function<implementation()> make) { makers().push_back(std::move(make)); }

std::vector<implementation> available_implementations() {
  auto row_of = [](const implementation& impl) {
    const registration* r = find_registration(impl.name);
    if (r == nullptr || !runs_on(*r, impl.where)) {
      throw std::logic_error(impl.name + " on the " + name_of(impl.where) +
                             " has no row in compare/registry.cpp");
    }
    return r;  // rows are in report order
  };
  std::vector<implementation> all;
  for (const auto& make : makers()) {
    all.push_back(make());
    all.back().part = row_of(all.back())->part;
  }
  std::stable_sort(all.begin(), all.end(), [&](const implementation& a, const implementation& b) {
    return row_of(a) < row_of(b);
  });
  return all;
}

bool implements(const implementation& impl, algorithm a) {
  return std::find(impl.algorithms.begin(), impl.algorithms.end(), a) != impl.algorithms.end();
}

std::string why_not(const implementation& impl, algorithm a, element type) {
  return implements(impl, a) ? impl.unsupported(a, type) : "not implemented by " + impl.name;
}

std::string needs_commutative(const char* api) {
  return std::string(api) +
         " requires a commutative operator (documented); affine composition is not";
}

std::string no_empty_segments(const char* api, algorithm a, const segment_lengths& s) {
  if (describe(a).writes != output_shape::per_segment || !has_empty_segments(s)) return "";
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
