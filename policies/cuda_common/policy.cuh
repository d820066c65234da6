#pragma once
// What both CUDA policies share: the stream and the memory resource they run with, the checked
// mode and synchronize() for input only the device sees, and the check of iterator arguments
// (null or host pointers are rejected before any work).

#include <pscan/policies/cuda_common/kernels/bad_offsets_report.cuh>

#include <pscan/runtime/check.cuh>
#include <pscan/runtime/device_info.cuh>
#include <pscan/runtime/pointer_check.cuh>
#include <pscan/runtime/resource.cuh>

#include <pscan/detail/host_offsets.hpp>
#include <pscan/error.hpp>
#include <pscan/policy.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>

namespace pscan::cuda_common {

// The caller's memory resources (.with(r)) as libpscan's allocator takes them.
using runtime::device_resource;
using runtime::is_device_resource_v;
using runtime::is_stream_ordered_resource;
using runtime::is_stream_ordered_resource_v;
using runtime::resource_handle;
using runtime::stream_ordered_alignment;

}  // namespace pscan::cuda_common

namespace pscan {
// The allocator of a CUDA policy's temporaries, as .with(resource) takes it.
using device_resource = cuda_common::device_resource;
}  // namespace pscan

namespace pscan::cuda_common {

// `stream` as the calling translation unit means it, for libpscan (compiled apart): what 0
// names depends on nvcc's --default-stream in each translation unit. Every stream handed to
// libpscan goes through this; launches in headers use the policy's stream as given.
inline cudaStream_t explicit_stream(cudaStream_t stream) {
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
  return stream == nullptr ? cudaStreamPerThread : stream;
#else
  return stream == nullptr ? cudaStreamLegacy : stream;
#endif
}

// What a CUDA backend implements: the launchers every algorithm of cuda_common/algorithms/ runs,
// for build Build (target.cuh) and any policy P of the backend. Declared once here; each backend
// defines them for the tag its policies name as P::backend (its scan.cuh and reduce.cuh).
template <class Backend>
struct kernels {
  // out[0 .. n) = the scan of first[0 .. n) (n > 0; a plain or a segmented input).
  template <class Build, bool Exclusive, bool HasInit, class P, class InIt, class OutIt,
            class Init, class Op>
  static void scan(const P& p, InIt first, std::int64_t n, OutIt out, const Init& init, Op op);
  // init op first[0] op ... op first[n - 1] (n > 0) into the sink make_sink() returns, which it
  // returns.
  template <class Build, class P, class InIt, class Init, class Op, class MakeSink>
  static auto reduce(const P& p, InIt first, std::int64_t n, const Init& init, Op op,
                     MakeSink make_sink);
  // Where P::sizes_offsets_on_device: the scan by offsets of values[offsets[0] ..
  // offsets[count - 1]) (count >= 2) into the same positions of out, sized on the device, the
  // offsets checked as they are read and bad ones reported to the device (no wait); false, with
  // nothing launched, for a call it leaves to the kernels sized on the host.
  template <class Build, bool Exclusive, class P, class InIt, class OffIt, class OutIt,
            class Init, class Op>
  static bool scan_by_offsets(const P& p, InIt values, OffIt offsets, std::int64_t count,
                              OutIt out, const Init& init, Op op);
};
template <class P>
using kernels_of = kernels<typename P::backend>;

// What every CUDA policy holds.
struct policy_state : execution_policy_base {
  cudaStream_t stream = nullptr;        // nullptr: the default stream
  resource_handle resource;             // == nullptr: libpscan's stream-ordered pool
  bool is_checked = false;              // input only the device sees is checked before any write
  // Checked offsets past it are bad too: the values' count, where the caller knows it (pscan's C
  // interface does; the C++ calls have no end of the values).
  std::int64_t values_count = std::numeric_limits<std::int64_t>::max();
};

// A CUDA policy's state and modifiers. Modifiers return a new policy of the derived type.
template <class Derived>
struct policy_base : policy_state {
  // Kernels read a pscan::future_value init from device memory when they run.
  static constexpr bool takes_future_values = true;
  // Whether kernels<Derived>::scan_by_offsets exists: the scans by offsets read the elements'
  // range on the device; otherwise the host waits for it to size the kernels.
  static constexpr bool sizes_offsets_on_device = false;

  // Calls check the offsets they take on the device before anything is written, and bad ones
  // throw (not capturable into a graph): segmented_reduce launches its kernel behind the check,
  // which it skips after a bad offset, and waits for the check's result only.
  Derived checked() const {
    Derived p = static_cast<const Derived&>(*this);
    p.is_checked = true;
    return p;
  }

  // Waits for the policy's stream, then throws pscan::invalid_argument naming the first bad
  // offset that a segmented_reduce or a scan by offsets (the _into forms) on this device (on any
  // stream, graph replays included) found since the last synchronize().
  void synchronize() const {
    if (runtime::is_capturing(stream)) {
      throw invalid_argument(
          "pscan: synchronize(): the policy's stream is capturing a CUDA graph");
    }
    unsigned long long* report = runtime::current_device_info().bad_offsets_report;
    unsigned long long* taken = nullptr;
    unsigned long long first_bad = no_bad_offset;
    PSCAN_CUDA_CHECK(cudaMallocAsync(&taken, sizeof *taken, stream));
    take_bad_offsets_report_kernel<<<1, 1, 0, stream>>>(report, taken);
    const cudaError_t launched = cudaGetLastError();
    const cudaError_t copied = launched == cudaSuccess
                                   ? cudaMemcpyAsync(&first_bad, taken, sizeof first_bad,
                                                     cudaMemcpyDeviceToHost, stream)
                                   : launched;
    static_cast<void>(cudaFreeAsync(taken, stream));
    PSCAN_CUDA_CHECK(copied);
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (first_bad != no_bad_offset) {
      throw pscan::detail::offsets_error(
          "pscan: synchronize(): a segmented_reduce or scan by offsets on this device",
          static_cast<std::int64_t>(first_bad));
    }
  }

  Derived on(cudaStream_t s) const {
    Derived p = static_cast<const Derived&>(*this);
    p.stream = s;
    return p;
  }
  // Temporaries from `r`, kept by reference: `r` must outlive every call made with the policy
  // (and their stream-ordered frees). `r` is a pscan::device_resource, or any resource of CCCL's
  // stream-ordered shape (cuda::mr, RMM), asked for 256-byte aligned memory.
  template <class R>
  Derived with(R& r) const {
    static_assert(is_device_resource_v<R> || is_stream_ordered_resource_v<R>,
                  "pscan: .with(r): r must be a (non-const) pscan::device_resource, or have CCCL's "
                  "stream-ordered shape: void* allocate_async(std::size_t bytes, std::size_t "
                  "alignment, S stream) and void deallocate_async(void* p, std::size_t bytes, "
                  "std::size_t alignment, S stream), S made from a cudaStream_t "
                  "(cuda::stream_ref, rmm::cuda_stream_view)");
    Derived p = static_cast<const Derived&>(*this);
    p.resource = resource_handle::of(r);
    return p;
  }
  template <class R, class = std::enable_if_t<!std::is_lvalue_reference_v<R>>>
  Derived with(R&&) const {
    static_assert(!std::is_same_v<R, R>,
                  "pscan: .with(r) keeps a reference to r: pass a resource that outlives the "
                  "calls, not a temporary");
    return static_cast<const Derived&>(*this);
  }
};

// Throws pscan::invalid_argument when `p` is memory the current device cannot access (pageable
// host memory without HMM/ATS): libpscan's.
using runtime::check_device_accessible;

// The check_iterator hook of the dispatch layer (pscan/detail/dispatch.hpp), for both CUDA
// policies, after its null check for n > 0: raw pointers must be non-null and device-accessible
// when n != 0, n = -1 (a count the offsets give) included, since the offsets live on the device;
// other iterators (fancy iterators) cannot be inspected and pass.
template <class P, class It>
void check_iterator(const policy_base<P>&, const char* algorithm, const char* argument, It it,
                    std::int64_t n) {
  if constexpr (std::is_pointer_v<It>) {
    if (n == 0) return;
    if (it == nullptr) throw pscan::detail::null_pointer_error(algorithm, argument, n);
    check_device_accessible(algorithm, argument, static_cast<const void*>(it));
  }
}

}  // namespace pscan::cuda_common
