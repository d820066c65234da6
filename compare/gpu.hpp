#pragma once
// The harness's view of the GPU, free of CUDA types so host code can use it. Implemented in
// gpu_device.cu, or by gpu_none.cpp in builds without CUDA. Failures throw std::runtime_error.

#include "matrix.hpp"
#include "timing.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace compare::gpu {

// Empty when a CUDA device is usable; otherwise why not (no driver, no device, no CUDA build).
std::string unavailable_reason();

struct device_facts {
  std::string name;
  std::string driver_version;  // e.g. "13.0"
  std::string runtime_version;
  std::int64_t l2_bytes = 0;
  std::int64_t free_bytes = 0;
  std::int64_t total_bytes = 0;
  int sm_count = 0;
};
device_facts facts();  // free_bytes is read now
std::int64_t free_memory_bytes();

// Device memory, released on destruction.
class buffer {
 public:
  buffer() = default;
  explicit buffer(std::size_t bytes);
  ~buffer();
  buffer(buffer&& other) noexcept;
  buffer& operator=(buffer&& other) noexcept;
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
};

void upload(void* device_dst, const void* host_src, std::size_t bytes);
void download(void* host_dst, const void* device_src, std::size_t bytes);
void poison(void* device_ptr, std::size_t bytes);  // 0xFF bytes, so stale results never validate

void* stream();  // the harness's own non-default stream (a cudaStream_t)

// Elements of got[0, n) that differ from want[0, n) (types.hpp's matches), compared on the device.
struct mismatch {
  std::int64_t count = 0;
  std::int64_t first = -1;
};
mismatch compare(element type, const void* got, const void* want, std::int64_t n);

// Times `run` with CUDA events on stream(), flushing L2 (a 2x L2 write) before every run.
stats time_runs(const std::function<void()>& run, const timing_plan& plan);

// The host's time per call of `run` in microseconds, its calls queued behind a kernel that holds
// stream() (host_cost_plan). Negative when a call waited for the device (it synchronises, or
// reads a result back), which only the hold's timeout let go on.
double host_us_per_call(const std::function<void()>& run, const host_cost_plan& plan);

// Synchronises the stream; throws if the device reports an error (a sticky one ends GPU work).
void check_device();

}  // namespace compare::gpu
