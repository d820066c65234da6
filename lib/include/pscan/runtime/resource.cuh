#pragma once
// The memory resource a CUDA policy's temporaries come from when the caller supplies one
// (.with(r)): pscan's abstract device_resource, or any resource of CCCL's stream-ordered shape,
// held by a resource_handle that libpscan's allocator calls (runtime/memory_pool.cuh).

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace pscan::runtime {

// Where a policy's temporary device memory comes from when the caller supplies it. Allocation
// and deallocation are ordered on the stream given (like cudaMallocAsync/cudaFreeAsync).
class device_resource {
 public:
  virtual void* allocate(std::size_t bytes, cudaStream_t stream) = 0;
  virtual void deallocate(void* p, std::size_t bytes, cudaStream_t stream) = 0;
  virtual ~device_resource() = default;
};

// Whether R has CCCL's stream-ordered shape (cuda::mr's async resources, RMM's
// device_memory_resource): `allocate_async(bytes, alignment, stream)` returning the memory and
// `deallocate_async(p, bytes, alignment, stream)`, called with a cudaStream_t (their stream
// parameter a type made from one: cuda::stream_ref, rmm::cuda_stream_view).
template <class R, class = void>
struct is_stream_ordered_resource : std::false_type {};
template <class R>
struct is_stream_ordered_resource<
    R, std::void_t<decltype(static_cast<void*>(std::declval<R&>().allocate_async(
                       std::size_t{}, std::size_t{}, std::declval<cudaStream_t>()))),
                   decltype(std::declval<R&>().deallocate_async(
                       std::declval<void*>(), std::size_t{}, std::size_t{},
                       std::declval<cudaStream_t>()))>> : std::true_type {};
template <class R>
inline constexpr bool is_stream_ordered_resource_v = is_stream_ordered_resource<R>::value;

template <class R>
inline constexpr bool is_device_resource_v =
    std::is_base_of_v<device_resource, std::remove_cv_t<R>> && !std::is_const_v<R>;

// The alignment pscan asks of a stream-ordered resource for every allocation (as much as CUDA's
// own allocators give, and what the chained scans' scratch needs).
inline constexpr std::size_t stream_ordered_alignment = 256;

// A caller's resource as a policy holds it: a reference to the caller's object (which must
// outlive the calls) and its two calls, typed for it when .with() was called, so a stream-ordered
// resource costs no virtual call per allocation. Empty (== nullptr): no caller resource.
class resource_handle {
 public:
  constexpr resource_handle() noexcept = default;
  constexpr resource_handle(std::nullptr_t) noexcept {}
  // pscan's abstract resource; nullptr gives the empty handle.
  resource_handle(device_resource* r) noexcept
      : object_(r),
        allocate_(r != nullptr ? &allocate_virtual : nullptr),
        deallocate_(r != nullptr ? &deallocate_virtual : nullptr) {}

  // The handle of `r`: a device_resource, or a resource of CCCL's stream-ordered shape.
  template <class R>
  static resource_handle of(R& r) noexcept {
    if constexpr (is_device_resource_v<R>) {
      return resource_handle(static_cast<device_resource*>(&r));
    } else if constexpr (is_stream_ordered_resource_v<R>) {
      resource_handle h;
      h.object_ = const_cast<std::remove_cv_t<R>*>(std::addressof(r));
      h.allocate_ = &allocate_async_of<R>;
      h.deallocate_ = &deallocate_async_of<R>;
      h.alignment_ = stream_ordered_alignment;
      return h;
    } else {
      return resource_handle();  // .with() has said why with a static_assert
    }
  }

  // Stream-ordered on `stream`, as the resource does it; `bytes` > 0. The memory (or nullptr,
  // or what the resource throws).
  void* allocate(std::size_t bytes, cudaStream_t stream) const {
    return allocate_(object_, bytes, stream);
  }
  // `bytes` as allocated.
  void deallocate(void* p, std::size_t bytes, cudaStream_t stream) const {
    deallocate_(object_, p, bytes, stream);
  }
  // The alignment every allocation has (1: none promised, a device_resource).
  constexpr std::size_t alignment() const noexcept { return alignment_; }

  friend constexpr bool operator==(const resource_handle& h, std::nullptr_t) noexcept {
    return h.object_ == nullptr;
  }
  friend constexpr bool operator!=(const resource_handle& h, std::nullptr_t) noexcept {
    return h.object_ != nullptr;
  }

 private:
  static void* allocate_virtual(void* r, std::size_t bytes, cudaStream_t stream) {
    return static_cast<device_resource*>(r)->allocate(bytes, stream);
  }
  static void deallocate_virtual(void* r, void* p, std::size_t bytes, cudaStream_t stream) {
    static_cast<device_resource*>(r)->deallocate(p, bytes, stream);
  }
  template <class R>
  static void* allocate_async_of(void* r, std::size_t bytes, cudaStream_t stream) {
    return static_cast<void*>(
        static_cast<R*>(r)->allocate_async(bytes, stream_ordered_alignment, stream));
  }
  template <class R>
  static void deallocate_async_of(void* r, void* p, std::size_t bytes, cudaStream_t stream) {
    static_cast<R*>(r)->deallocate_async(p, bytes, stream_ordered_alignment, stream);
  }

  void* object_ = nullptr;
  void* (*allocate_)(void*, std::size_t, cudaStream_t) = nullptr;
  void (*deallocate_)(void*, void*, std::size_t, cudaStream_t) = nullptr;
  std::size_t alignment_ = 1;
};

}  // namespace pscan::runtime
