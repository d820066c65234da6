#pragma once
// An NVTX range around each public algorithm call, so that profilers (Nsight Systems) show pscan's
// calls on the timeline; without a profiler attached, opening one is a null function pointer check.
// Header-only NVTX3 (the CUDA toolkit's); a no-op without its headers or with PSCAN_NO_NVTX.

#if !defined(PSCAN_NO_NVTX) && defined(__has_include)
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define PSCAN_NVTX_RANGES 1
#endif
#endif

#include <cstddef>

namespace pscan {
namespace detail {

// Open for the object's lifetime on the calling thread; the name is a string literal, so that
// every call of an entry shows under the same name.
class profile_range {
 public:
  template <std::size_t N>
  explicit profile_range([[maybe_unused]] const char (&name)[N]) {
#if defined(PSCAN_NVTX_RANGES)
    nvtxRangePushA(name);
#endif
  }
  ~profile_range() {
#if defined(PSCAN_NVTX_RANGES)
    nvtxRangePop();
#endif
  }
  profile_range(const profile_range&) = delete;
  profile_range& operator=(const profile_range&) = delete;
};

}  // namespace detail
}  // namespace pscan
