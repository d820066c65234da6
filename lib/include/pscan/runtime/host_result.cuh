#pragma once
// The host side of returning a value from the GPU without a copy or a stream sync (reduce): one
// slot of host-mapped pinned memory per host thread (one result in flight per thread), a
// completion word the publishing kernel writes with a system-scope release after the value, and
// the host's wait on it, polling the stream now and then so that a failed or drained stream throws
// instead of hanging. The typed side (host_result<T>) is header-side:
// cuda_common/runtime/host_result.cuh.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace pscan::runtime {

// The calling thread's slot: the completion word (8 bytes) at base, the value after it; the
// memory is host-mapped, and with unified addressing base is valid on the device too.
struct host_result_slot {
  unsigned char* base;
  std::uint64_t sequence;
};

// The calling thread's slot, grown to at least `bytes`, with a fresh sequence number. Throws
// pscan::cuda_error(cudaErrorNotSupported) when the current device cannot write mapped pinned
// memory at its host address (cudaDevAttrCanMapHostMemory, cudaDevAttrUnifiedAddressing).
host_result_slot acquire_host_result_slot(std::size_t bytes);

// Returns once the slot's word holds slot.sequence (acquire). Throws pscan::cuda_error when
// the stream (explicit: never 0) reports an error, std::logic_error when it drains without it.
void wait_host_result_slot(const host_result_slot& slot, cudaStream_t stream);

}  // namespace pscan::runtime
