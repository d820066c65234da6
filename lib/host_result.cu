// The slots behind a CUDA policy's host results: host-mapped pinned memory, one slot per host
// thread, grown on demand and kept for the thread's life (never freed at exit: that may run after
// the CUDA runtime has shut down).

#include <pscan/runtime/check.cuh>
#include <pscan/runtime/host_result.cuh>

#include <cuda/atomic>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace pscan::runtime {
namespace {

// cudaHostAlloc returns page-aligned memory; a whole slot fits every value of up to 248 bytes.
constexpr std::size_t min_slot_bytes = 256;
// How long the host spins on the word between two looks at the stream.
constexpr std::chrono::microseconds stream_poll_interval{50};

struct thread_slot {
  unsigned char* data = nullptr;
  std::size_t bytes = 0;
  std::uint64_t sequence = 0;  // the last one handed out; the word only ever holds older ones
  bool in_flight = false;      // acquired, not yet waited for successfully
  int mapped_device = -1;      // the last device found able to write into the slot
};

thread_local thread_slot slot;

void require_mapped_host_memory() {
  int device = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  if (device == slot.mapped_device) return;
  int can_map = 0;
  int unified = 0;
  PSCAN_CUDA_CHECK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, device));
  PSCAN_CUDA_CHECK(cudaDeviceGetAttribute(&unified, cudaDevAttrUnifiedAddressing, device));
  if (can_map == 0 || unified == 0) {
    throw_cuda_error(cudaErrorNotSupported,
                     "mapping a result slot into the device for pscan::reduce (it needs "
                     "cudaDevAttrCanMapHostMemory and cudaDevAttrUnifiedAddressing)",
                     __FILE__, __LINE__);
  }
  slot.mapped_device = device;
}

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

host_result_slot acquire_host_result_slot(std::size_t bytes) {
  require_mapped_host_memory();
  if (slot.in_flight) {
    // The last call threw after its launch: its kernel may still write that slot, so leak it.
    slot.data = nullptr;
    slot.bytes = 0;
    slot.in_flight = false;
  }
  if (slot.bytes < bytes) {
    const std::size_t grown_bytes = std::max(bytes, min_slot_bytes);
    void* grown = nullptr;
    PSCAN_CUDA_CHECK(
        cudaHostAlloc(&grown, grown_bytes, cudaHostAllocMapped | cudaHostAllocPortable));
    *static_cast<std::uint64_t*>(grown) = 0;  // below every sequence number handed out
    unsigned char* const old = slot.data;
    slot.data = static_cast<unsigned char*>(grown);
    slot.bytes = grown_bytes;
    if (old != nullptr) PSCAN_CUDA_CHECK(cudaFreeHost(old));  // nothing in flight writes it
  }
  slot.in_flight = true;
  return {slot.data, ++slot.sequence};
}

void wait_host_result_slot(const host_result_slot& result, cudaStream_t stream) {
  using clock = std::chrono::steady_clock;
  ::cuda::atomic_ref<std::uint64_t, ::cuda::thread_scope_system> word(
      *reinterpret_cast<std::uint64_t*>(result.base));
  const auto published = [&] { return word.load(::cuda::memory_order_acquire) == result.sequence; };
  auto next_poll = clock::now() + stream_poll_interval;
  for (unsigned spins = 1; !published(); ++spins) {
    cpu_relax();
    if (spins % 64 != 0 || clock::now() < next_poll) continue;
    const cudaError_t status = cudaStreamQuery(stream);
    if (status == cudaSuccess) {
      if (published()) break;  // written between the last look and the query
      throw std::logic_error(
          "pscan internal error: the stream finished without the kernel publishing its result");
    }
    if (status != cudaErrorNotReady) {
      throw_cuda_error(status, "cudaStreamQuery(stream) while waiting for a result", __FILE__,
                       __LINE__);
    }
    std::this_thread::yield();  // a long wait: let other threads of this core run
    next_poll = clock::now() + stream_poll_interval;
  }
  slot.in_flight = false;
}

}  // namespace pscan::runtime
