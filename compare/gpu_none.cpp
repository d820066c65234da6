// The GPU interface in a build without CUDA: no device, and nothing else is ever called.

#include "gpu.hpp"

#include <stdexcept>
#include <utility>

namespace compare::gpu {
namespace {
[[noreturn]] void no_cuda() { throw std::logic_error("pscan-compare was built without CUDA"); }
}  // namespace

std::string unavailable_reason() {
  return "pscan-compare was built without CUDA (no CUDA compiler at configure time, or "
         "PSCAN_ENABLE_CUDA=OFF)";
}
device_facts facts() { no_cuda(); }
std::int64_t free_memory_bytes() { no_cuda(); }
buffer::buffer(std::size_t) { no_cuda(); }
buffer::~buffer() = default;
buffer::buffer(buffer&& other) noexcept : ptr_(other.ptr_) { other.ptr_ = nullptr; }
buffer& buffer::operator=(buffer&& other) noexcept {
  std::swap(ptr_, other.ptr_);
  return *this;
}
void upload(void*, const void*, std::size_t) { no_cuda(); }
void download(void*, const void*, std::size_t) { no_cuda(); }
void poison(void*, std::size_t) { no_cuda(); }
void* stream() { no_cuda(); }
mismatch compare(element, const void*, const void*, std::int64_t) { no_cuda(); }
stats time_runs(const std::function<void()>&, const timing_plan&) { no_cuda(); }
double host_us_per_call(const std::function<void()>&, const host_cost_plan&) { no_cuda(); }
void check_device() { no_cuda(); }

}  // namespace compare::gpu
