// The CUDA pscan policies, each only when its backend is built in, and cuda_chained with
// exact_plus (cuda_chained_exact). Runs are enqueued on the
// harness's stream with .on(stream); pscan manages its own temporaries (stream-ordered pool).

#include "pscan_calls.hpp"

#if PSCAN_COMPARE_WITH_CUDA_MULTIPASS
#include <pscan/policies/cuda_multipass/cuda_multipass.cuh>
#define PSCAN_COMPARE_HAS_MULTIPASS 1
#endif
#if PSCAN_COMPARE_WITH_CUDA_CHAINED
#include <pscan/policies/cuda_chained/cuda_chained.cuh>
#define PSCAN_COMPARE_HAS_CHAINED 1
#endif

#include <cuda_runtime.h>

namespace compare {
namespace {

template <class P>
P on_stream(P p, const cell_buffers& b) {
  return p.on(static_cast<cudaStream_t>(b.stream));
}

template <class P>
implementation on_harness_stream(const char* name, P policy) {
  return pscan_implementation(name, target::gpu, policy, &on_stream<P>);
}

#if PSCAN_COMPARE_HAS_MULTIPASS
const built_in multipass_entry([] {
  return on_harness_stream("cuda_multipass", pscan::cuda_multipass);
});
#endif
#if PSCAN_COMPARE_HAS_CHAINED
const built_in chained_entry([] { return on_harness_stream("cuda_chained", pscan::cuda_chained); });
const built_in chained_det_entry([] {
  return on_harness_stream("cuda_chained_det", pscan::cuda_chained.deterministic());
});
const built_in chained_exact_entry([] {
  return pscan_exact_implementation("cuda_chained_exact", target::gpu, pscan::cuda_chained,
                                    &on_stream<decltype(pscan::cuda_chained)>);
});
#endif

}  // namespace
}  // namespace compare
