#pragma once
// The tunings pscan's kernels are built for, and which one the code a device loaded takes. The
// architecture-dependent choices follow the code the device runs (its module's PTX version), not
// the device's compute capability: a program built for compute_80 runs sm_80 code on an H100.
// The kernels' side (tuned kernels, the probe, with_build) is header-side: cuda_common/target.cuh.

#include <initializer_list>

namespace pscan::runtime {

// The architectures pscan is tuned for: sm_90 and later (H100, H200, Blackwell) take sm90's
// tuning, sm_75 to sm_89 (T4, A100, L40) sm80's.
enum class target { sm80, sm90 };

// arch as __CUDA_ARCH__ writes it: 10 x the compute capability (900 for sm_90).
constexpr target target_for(int arch) { return arch >= 900 ? target::sm90 : target::sm80; }

// The target of the code the current device runs for `probe` (a kernel of the calling
// translation unit, built for `archs` as __CUDA_ARCH_LIST__ writes them); cached per device and
// probe. Throws pscan::cuda_error, naming the architectures, when none of them runs here.
target loaded_target(const void* probe, std::initializer_list<int> archs);

}  // namespace pscan::runtime
