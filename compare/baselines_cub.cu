// CUB baselines (DeviceScan, DeviceReduce, DeviceSegmentedReduce) and the GPU copy. Temporary
// storage is sized and allocated when the run is prepared, outside the timed region.

#include "flagged_iterators.cuh"
#include "gpu_check.cuh"
#include "implementation.hpp"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>

#include <memory>
#include <type_traits>

namespace compare {

std::string cccl_version_of_cuda_build() {
  return std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
         std::to_string(CCCL_PATCH_VERSION);
}

namespace {

std::string cub_unsupported(algorithm a, element e) {
  if (e != element::affine) return "";
  if (a == algorithm::reduce) return needs_commutative("cub::DeviceReduce");
  if (a == algorithm::segmented_reduce) return needs_commutative("cub::DeviceSegmentedReduce");
  return "";
}

// One CUB call; with temp == nullptr it only sets temp_bytes (CUB's two-phase protocol).
// Arithmetic types use the *Sum entry points, the affine type the generic ones.
template <class T>
cudaError_t cub_call(void* temp, std::size_t& temp_bytes, algorithm a, const cell_buffers& b) {
  const T* in = static_cast<const T*>(b.values);
  T* out = static_cast<T*>(b.out);
  const auto s = static_cast<cudaStream_t>(b.stream);
  constexpr bool generic = std::is_same_v<T, affine>;
  const op_t<T> op{};
  switch (a) {
    case algorithm::inclusive_scan:
      if constexpr (generic)
        return cub::DeviceScan::InclusiveScan(temp, temp_bytes, in, out, op, b.n, s);
      else
        return cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, b.n, s);
    case algorithm::exclusive_scan:
      if constexpr (generic) {
        return cub::DeviceScan::ExclusiveScan(temp, temp_bytes, in, out, op, identity_value<T>(),
                                              b.n, s);
      } else {
        return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, b.n, s);
      }
    case algorithm::reduce:
      if constexpr (generic)
        return cudaErrorNotSupported;  // cub_unsupported rules it out
      else
        return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, b.n, s);
    case algorithm::segmented_inclusive_scan:
      return cub::DeviceScan::InclusiveScan(temp, temp_bytes, flagged_input(in, b.flags),
                                            flagged_output(out), lifted<op_t<T>>{op}, b.n, s);
    case algorithm::inclusive_scan_by_key:
      if constexpr (generic) {
        return cub::DeviceScan::InclusiveScanByKey(temp, temp_bytes, b.keys, in, out, op, b.n,
                                                   ::cuda::std::equal_to<>{}, s);
      } else {
        return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, b.keys, in, out, b.n,
                                                  ::cuda::std::equal_to<>{}, s);
      }
    case algorithm::segmented_reduce:
      if constexpr (generic)
        return cudaErrorNotSupported;
      else {
        return cub::DeviceSegmentedReduce::Sum(temp, temp_bytes, in, out, b.segments, b.offsets,
                                               b.offsets + 1, s);
      }
  }
  return cudaErrorInvalidValue;
}

std::shared_ptr<void> device_allocation(std::size_t bytes) {
  void* p = nullptr;
  if (bytes > 0) COMPARE_CUDA_CHECK(cudaMalloc(&p, bytes));
  return std::shared_ptr<void>(p, [](void* q) { cudaFree(q); });
}

implementation cub_implementation() {
  implementation impl;
  impl.name = "cub";
  impl.library = "cub";
  impl.where = target::gpu;
  impl.unsupported = cub_unsupported;
  impl.prepare = [](const cell& c, const cell_buffers& b) {
    return with_element(c.type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      std::size_t bytes = 0;
      COMPARE_CUDA_CHECK(cub_call<T>(nullptr, bytes, c.algo, b));
      auto temp = device_allocation(bytes);
      return prepared_run{[a = c.algo, b, temp, bytes] {
        std::size_t temp_bytes = bytes;
        COMPARE_CUDA_CHECK(cub_call<T>(temp.get(), temp_bytes, a, b));
      }};
    });
  };
  return impl;
}

// The physical limit: a device-to-device copy of the n input elements.
implementation gpu_copy() {
  implementation impl;
  impl.name = "copy";
  impl.library = "copy";
  impl.where = target::gpu;
  impl.is_copy = true;
  impl.unsupported = [](algorithm, element) { return std::string(); };
  impl.prepare = [](const cell& c, const cell_buffers& b) {
    const std::size_t bytes = static_cast<std::size_t>(b.n) * size_of(c.type);
    return prepared_run{[b, bytes] {
      COMPARE_CUDA_CHECK(cudaMemcpyAsync(b.out, b.values, bytes, cudaMemcpyDeviceToDevice,
                                         static_cast<cudaStream_t>(b.stream)));
    }};
  };
  return impl;
}

}  // namespace

void add_cub(std::vector<implementation>& out) {
  out.push_back(cub_implementation());
  out.push_back(gpu_copy());
}

}  // namespace compare
