#pragma once
// Which tuning a launch runs. pscan's kernels are compiled in the caller's translation units for
// the caller's architectures, and the GPU runs the best of them it can: machine code for its own
// architecture, else PTX of an older one that the driver compiles (JIT). So every
// architecture-dependent choice (thread block clusters, tile shapes, occupancy) follows the
// architecture the running code was compiled for, read from the loaded module (its PTX version),
// never the device's: a program built for compute_80 runs sm_80 code on an H100.
//
// A tuned kernel is one symbol per (algorithm, types), as in CUB: its body takes the tuning of the
// architecture being compiled (compiled_build), and the host launches it with the tuning of the
// code the device runs (with_build), the same target. Kernels take the architectures of the
// translation unit that instantiates them as a template argument (Archs): that keeps the kernels
// of translation units compiled for different architectures (a library shipped as PTX, a program
// built for sm_90) apart, where one symbol for both would run one unit's code for the other's
// launch.

#include <pscan/policies/cuda_common/kernels/target_probe_kernel.cuh>
#include <pscan/runtime/target.cuh>

namespace pscan::cuda_common {

// The targets (sm80, sm90), target_for(arch) and loaded_target(probe, archs): libpscan's.
using runtime::loaded_target;
using runtime::target;
using runtime::target_for;

template <int... Archs>
struct arch_list {};
#if defined(__CUDA_ARCH_LIST__)
using compiled_archs = arch_list<__CUDA_ARCH_LIST__>;  // nvcc: the virtual architectures built
#else
using compiled_archs = arch_list<>;
#endif

template <target Target, class Archs = compiled_archs>
struct build {
  static constexpr cuda_common::target target = Target;
  using archs = Archs;
};

// In device code, the target whose tuning the architecture being compiled takes; in the host
// pass, which compiles no kernel body, sm90 (never used: the host launches with_build's).
#if defined(__CUDA_ARCH__)
inline constexpr target compiled_target = target_for(__CUDA_ARCH__);
#else
inline constexpr target compiled_target = target::sm90;
#endif

// The build a kernel of translation unit architectures Archs runs in its body.
template <class Archs>
using compiled_build = build<compiled_target, Archs>;

// Threads an SM holds, by architecture as __CUDA_ARCH__ writes it.
constexpr int max_threads_per_sm(int arch) {
  if (arch == 750) return 1024;
  if (arch == 860 || arch == 870 || arch == 890 || arch >= 1200) return 1536;
  return 2048;
}

// __launch_bounds__'s minimum blocks an SM for a kernel of `threads` threads: the tuning's
// `blocks`, or as many as the SMs of the architecture being compiled hold where that is fewer
// (ptxas would drop the hint with a warning).
constexpr int min_blocks_hint(int blocks, [[maybe_unused]] int threads) {
#if defined(__CUDA_ARCH__)
  const int fit = max_threads_per_sm(__CUDA_ARCH__) / threads;
  return blocks < fit ? blocks : fit;
#else
  return blocks;
#endif
}

// The target of the code the current device runs of a translation unit built for Archs.
template <int... Archs>
target loaded_target(arch_list<Archs...>) {
  return loaded_target(reinterpret_cast<const void*>(&target_probe_kernel<arch_list<Archs...>>),
                       {Archs...});
}

// f(build<t>{}), t the target of what the current device runs of the calling translation unit.
template <class F>
decltype(auto) with_build(F&& f) {
  if (loaded_target(compiled_archs{}) == target::sm90) return f(build<target::sm90>{});
  return f(build<target::sm80>{});
}

}  // namespace pscan::cuda_common
