// The harness's GPU plumbing: device facts, buffers, on-device validation, event timing and the
// host cost of a call.

#include "gpu.hpp"
#include "types.hpp"

#include <pscan/runtime/check.cuh>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

namespace compare::gpu {
namespace {

std::string version_string(int v) {  // CUDA encodes 13.0 as 13000
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// In mapped pinned memory: the host lets the hold kernel go, the kernel says it gave up waiting.
struct hold_flags {
  int released;
  int timed_out;
};

struct device_state {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  buffer flush;  // 2x L2, rewritten before every timed run
  std::size_t flush_bytes = 0;
  buffer result;  // one mismatch, in device memory, for the compare kernel
  hold_flags* hold = nullptr;         // the host's address of the flags
  hold_flags* device_hold = nullptr;  // the device's

  device_state() {
    PSCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    PSCAN_CUDA_CHECK(cudaEventCreate(&start));
    PSCAN_CUDA_CHECK(cudaEventCreate(&stop));
    flush_bytes = 2 * static_cast<std::size_t>(facts().l2_bytes);
    flush = buffer(flush_bytes);
    result = buffer(sizeof(mismatch));
    PSCAN_CUDA_CHECK(cudaHostAlloc(&hold, sizeof(hold_flags), cudaHostAllocMapped));
    PSCAN_CUDA_CHECK(cudaHostGetDevicePointer(&device_hold, hold, 0));
  }
};

device_state& state() {
  static device_state s;  // created on first GPU use, after unavailable_reason() said yes
  return s;
}

// Each thread counts its own mismatches (its first one is its lowest index: grid-stride order)
// and adds them with one atomic, so a wholly wrong output costs no more than a right one.
template <class T>
__global__ void compare_kernel(const T* got, const T* want, std::int64_t n, mismatch* out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  unsigned long long bad = 0;
  long long first = -1;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    if (!matches(got[i], want[i])) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad > 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(&out->count), bad);
    atomicMin(reinterpret_cast<long long*>(&out->first), first);
  }
}

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Keeps its stream busy until the host releases it, so that the calls queued behind it only
// enqueue. It gives up after limit_ns: a call that waits for the device would otherwise never
// return to release it. Volatile: every poll reads the host's memory.
__global__ void hold_kernel(volatile hold_flags* flags, unsigned long long limit_ns) {
  const unsigned long long start = global_ns();
  while (flags->released == 0) {
    if (global_ns() - start > limit_ns) {
      flags->timed_out = 1;
      return;
    }
  }
}

}  // namespace

std::string unavailable_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaErrorInsufficientDriver) {
    return "no NVIDIA driver (or one older than CUDA runtime " + version_string(CUDART_VERSION) +
           ") on this machine";
  }
  if (e != cudaSuccess) {
    return std::string("no usable CUDA device (cudaGetDeviceCount: ") + cudaGetErrorName(e) + ", " +
           cudaGetErrorString(e) + ")";
  }
  if (count == 0) return "no CUDA device found";
  return "";
}

device_facts facts() {
  device_facts f;
  int device = 0, driver = 0, runtime = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  PSCAN_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  PSCAN_CUDA_CHECK(cudaDriverGetVersion(&driver));
  PSCAN_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  f.name = prop.name;
  f.driver_version = version_string(driver);
  f.runtime_version = version_string(runtime);
  f.l2_bytes = prop.l2CacheSize;
  f.sm_count = prop.multiProcessorCount;
  f.total_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  f.free_bytes = free_memory_bytes();
  return f;
}

std::int64_t free_memory_bytes() {
  std::size_t free = 0, total = 0;
  PSCAN_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return static_cast<std::int64_t>(free);
}

buffer::buffer(std::size_t bytes) {
  if (bytes > 0) PSCAN_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
}
buffer::~buffer() {
  if (ptr_) cudaFree(ptr_);  // no throw from a destructor; a failure here resurfaces later
}
buffer::buffer(buffer&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
buffer& buffer::operator=(buffer&& other) noexcept {
  std::swap(ptr_, other.ptr_);
  return *this;
}

// On the harness's stream, then synchronised: a plain cudaMemcpy from pageable memory may return
// before the data reaches the device, and the non-blocking stream would not wait for it.
void upload(void* device_dst, const void* host_src, std::size_t bytes) {
  PSCAN_CUDA_CHECK(
      cudaMemcpyAsync(device_dst, host_src, bytes, cudaMemcpyHostToDevice, state().stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(state().stream));
}
void download(void* host_dst, const void* device_src, std::size_t bytes) {
  PSCAN_CUDA_CHECK(
      cudaMemcpyAsync(host_dst, device_src, bytes, cudaMemcpyDeviceToHost, state().stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(state().stream));
}
void poison(void* device_ptr, std::size_t bytes) {
  PSCAN_CUDA_CHECK(cudaMemsetAsync(device_ptr, 0xFF, bytes, state().stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(state().stream));
}

void* stream() { return state().stream; }

mismatch compare(element type, const void* got, const void* want, std::int64_t n) {
  device_state& s = state();
  mismatch m{0, INT64_MAX};
  PSCAN_CUDA_CHECK(
      cudaMemcpyAsync(s.result.get(), &m, sizeof m, cudaMemcpyHostToDevice, s.stream));
  with_element(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto* out = static_cast<mismatch*>(s.result.get());
    compare_kernel<<<1024, 256, 0, s.stream>>>(static_cast<const T*>(got),
                                               static_cast<const T*>(want), n, out);
  });
  PSCAN_CUDA_CHECK(cudaGetLastError());
  PSCAN_CUDA_CHECK(
      cudaMemcpyAsync(&m, s.result.get(), sizeof m, cudaMemcpyDeviceToHost, s.stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  if (m.count == 0) m.first = -1;
  return m;
}

stats time_runs(const std::function<void()>& run, const timing_plan& plan) {
  device_state& s = state();
  auto once = [&] {
    PSCAN_CUDA_CHECK(cudaMemsetAsync(s.flush.get(), 0, s.flush_bytes, s.stream));
    PSCAN_CUDA_CHECK(cudaEventRecord(s.start, s.stream));
    run();
    PSCAN_CUDA_CHECK(cudaEventRecord(s.stop, s.stream));
    PSCAN_CUDA_CHECK(cudaEventSynchronize(s.stop));
    float ms = 0;
    PSCAN_CUDA_CHECK(cudaEventElapsedTime(&ms, s.start, s.stop));
    return static_cast<double>(ms);
  };
  return compare::time_runs(once, plan);
}

double host_us_per_call(const std::function<void()>& run, const host_cost_plan& plan) {
  device_state& s = state();
  volatile hold_flags* flags = s.hold;
  struct release_on_exit {  // however the batch ends, a throwing call included
    volatile hold_flags* flags;
    ~release_on_exit() { flags->released = 1; }
  };
  const auto limit_ns = static_cast<unsigned long long>(plan.hold_ms * 1e6);
  std::vector<double> us;
  for (int b = 0; b < plan.batches; ++b) {
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(s.stream));  // nothing queued ahead of the hold
    flags->released = 0;
    flags->timed_out = 0;
    hold_kernel<<<1, 1, 0, s.stream>>>(s.device_hold, limit_ns);
    PSCAN_CUDA_CHECK(cudaGetLastError());
    double ms = 0;
    {
      const release_on_exit release{flags};
      const auto start = std::chrono::steady_clock::now();
      // A timed-out hold ends the batch: the call waited, and so would every further one.
      for (int i = 0; i < plan.calls && !flags->timed_out; ++i) run();
      ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
               .count();
    }
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    if (flags->timed_out || ms >= plan.hold_ms) return -1;
    us.push_back(1e3 * ms / plan.calls);
  }
  return us.empty() ? -1 : median_of(us);
}

void check_device() {
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(state().stream));
  PSCAN_CUDA_CHECK(cudaGetLastError());
}

}  // namespace compare::gpu
