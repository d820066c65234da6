// CUB baselines (DeviceScan, DeviceReduce, DeviceSegmentedReduce; cub_host: DeviceReduce with its
// result copied to the host; cub_from_offsets: the scan by offsets from keys built from the
// offsets), the GPU copy, and reduce_floor (DeviceReduce as segmented_reduce's limit). Temporary
// storage and the pinned host value are allocated when the run is prepared, outside the timed
// region.

#include "flagged_iterators.cuh"
#include "implementation.hpp"

#include <pscan/runtime/check.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
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
  if (is_reduction(a)) return needs_commutative("cub::DeviceReduce");
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
    case algorithm::reduce_into:  // the same call: CUB's result is in device memory either way
      if constexpr (generic)
        return cudaErrorNotSupported;  // cub_unsupported rules it out
      else
        return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, b.n, s);
    case algorithm::segmented_inclusive_scan:
      return cub::DeviceScan::InclusiveScan(temp, temp_bytes, flagged_input(in, b.flags),
                                            flagged_output(out), lifted<op_t<T>>{op}, b.n, s);
    case algorithm::inclusive_scan_by_key:
    case algorithm::inclusive_scan_by_offsets:  // by the keys of the same segments
      if constexpr (generic) {
        return cub::DeviceScan::InclusiveScanByKey(temp, temp_bytes, b.keys, in, out, op, b.n,
                                                   ::cuda::std::equal_to<>{}, s);
      } else {
        return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, b.keys, in, out, b.n,
                                                  ::cuda::std::equal_to<>{}, s);
      }
    case algorithm::exclusive_scan_by_key:
      if constexpr (generic) {
        return cub::DeviceScan::ExclusiveScanByKey(temp, temp_bytes, b.keys, in, out, op,
                                                   identity_value<T>(), b.n,
                                                   ::cuda::std::equal_to<>{}, s);
      } else {
        return cub::DeviceScan::ExclusiveSumByKey(temp, temp_bytes, b.keys, in, out, b.n,
                                                  ::cuda::std::equal_to<>{}, s);
      }
    case algorithm::segmented_reduce:
      if constexpr (generic)
        return cudaErrorNotSupported;
      else {
        return cub::DeviceSegmentedReduce::Sum(temp, temp_bytes, in, out, b.segments, b.offsets,
                                               b.offsets + 1, s);
      }
    case algorithm::reduce_by_key:
      return cub::DeviceReduce::ReduceByKey(temp, temp_bytes, b.keys, b.keys_out, in, out,
                                            b.runs_out, op, b.n, s);
    default:  // not among its algorithms
      return cudaErrorInvalidValue;
  }
}

std::shared_ptr<void> device_allocation(std::size_t bytes) {
  void* p = nullptr;
  if (bytes > 0) PSCAN_CUDA_CHECK(cudaMalloc(&p, bytes));
  return std::shared_ptr<void>(p, [](void* q) { cudaFree(q); });
}

std::shared_ptr<void> pinned_allocation(std::size_t bytes) {
  void* p = nullptr;
  PSCAN_CUDA_CHECK(cudaMallocHost(&p, bytes));
  return std::shared_ptr<void>(p, [](void* q) { cudaFreeHost(q); });
}

// The hand-off a by-value reduce pays: its one value into pinned host memory, then the wait.
void copy_to_host(void* host, const void* device, std::size_t bytes, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, s));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(s));
}

// A CUB baseline; with to_host, each run also copies out[0] to the host (validation still reads
// out on the device, like plain cub's). cub_host exists only to charge CUB's reduce the same
// hand-off pscan::reduce pays.
implementation cub_implementation(const char* name, bool to_host) {
  implementation impl;
  impl.name = name;
  impl.library = "cub";
  impl.where = target::gpu;
  impl.algorithms = {algorithm::inclusive_scan,
                     algorithm::exclusive_scan,
                     algorithm::reduce,
                     algorithm::reduce_into,
                     algorithm::segmented_inclusive_scan,
                     algorithm::inclusive_scan_by_key,
                     algorithm::exclusive_scan_by_key,
                     algorithm::segmented_reduce,
                     algorithm::inclusive_scan_by_offsets,
                     algorithm::reduce_by_key};
  if (to_host) impl.algorithms = {algorithm::reduce};
  impl.unsupported = cub_unsupported;
  impl.prepare = [to_host](const cell& c, const cell_buffers& b) {
    return with_element(c.type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      std::size_t bytes = 0;
      PSCAN_CUDA_CHECK(cub_call<T>(nullptr, bytes, c.algo, b));
      auto temp = device_allocation(bytes);
      auto host = to_host ? pinned_allocation(sizeof(T)) : nullptr;
      return prepared_run{[a = c.algo, b, temp, bytes, host] {
        std::size_t temp_bytes = bytes;
        PSCAN_CUDA_CHECK(cub_call<T>(temp.get(), temp_bytes, a, b));
        if (host) copy_to_host(host.get(), b.out, sizeof(T), b.stream);
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
  impl.prepare = [](const cell& c, const cell_buffers& b) {
    const std::size_t bytes = static_cast<std::size_t>(b.n) * size_of(c.type);
    return prepared_run{[b, bytes] {
      PSCAN_CUDA_CHECK(cudaMemcpyAsync(b.out, b.values, bytes, cudaMemcpyDeviceToDevice,
                                         static_cast<cudaStream_t>(b.stream)));
    }};
  };
  return impl;
}

// The least any algorithm with one output per segment moves: the n values read once, by
// cub::DeviceReduce::Sum into out[0] (the harness prepares it with a reduce cell). Reported in
// those cells beside the copy; like the copy, never validated.
implementation gpu_reduce_floor() {
  implementation impl = cub_implementation("reduce_floor", false);
  impl.algorithms = {algorithm::reduce};
  return impl;
}

// A 1 at the start of each segment after the first (positions from offsets[0]; empty segments at
// the end mark nothing): the flags whose inclusive sum is a key per element.
__global__ void mark_segment_starts(const offset_type* offsets, std::int64_t segments,
                                    std::int64_t n, key_type* flags) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x + 1;
  if (i >= segments) return;
  const std::int64_t at = offsets[i] - offsets[0];
  if (at < n) flags[at] = 1;
}

// The scan by offsets as a CUB user holding CSR offsets must run it (CUB 3.0 has no scan by
// offsets): a key per element from the offsets (zeroed flags, a 1 scattered at each segment
// start, DeviceScan::InclusiveSum), then DeviceScan's scan by key; the keys are built inside the
// timed run, into buffers allocated when it is prepared. The scatter is the only kernel of the
// harness's own: one thread an offset.
template <class T>
prepared_run scan_from_offsets(const cell_buffers& b) {
  const auto n = static_cast<std::size_t>(b.n);
  auto flags = device_allocation(n * sizeof(key_type));
  auto keys = device_allocation(n * sizeof(key_type));
  const auto* flag_data = static_cast<key_type*>(flags.get());
  auto* key_data = static_cast<key_type*>(keys.get());
  const auto scan_keys = [=](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, flag_data, key_data, b.n, s);
  };
  const auto scan_values = [=](void* temp, std::size_t& bytes, cudaStream_t s) {
    cell_buffers by_key = b;
    by_key.keys = key_data;
    return cub_call<T>(temp, bytes, algorithm::inclusive_scan_by_key, by_key);
  };
  std::size_t key_bytes = 0, value_bytes = 0;
  const auto stream = static_cast<cudaStream_t>(b.stream);
  PSCAN_CUDA_CHECK(scan_keys(nullptr, key_bytes, stream));
  PSCAN_CUDA_CHECK(scan_values(nullptr, value_bytes, stream));
  const std::size_t bytes = std::max(key_bytes, value_bytes);
  auto temp = device_allocation(bytes);
  // The run owns every buffer: the keys too, which it reaches only through scan_values.
  return prepared_run{[=, keys = std::move(keys)] {
    PSCAN_CUDA_CHECK(cudaMemsetAsync(flags.get(), 0, n * sizeof(key_type), stream));
    if (b.segments > 1) {
      constexpr int threads = 256;
      const auto blocks = static_cast<unsigned>((b.segments - 1 + threads - 1) / threads);
      mark_segment_starts<<<blocks, threads, 0, stream>>>(b.offsets, b.segments, b.n,
                                                          static_cast<key_type*>(flags.get()));
      PSCAN_CUDA_CHECK(cudaGetLastError());
    }
    std::size_t temp_bytes = bytes;
    PSCAN_CUDA_CHECK(scan_keys(temp.get(), temp_bytes, stream));
    temp_bytes = bytes;
    PSCAN_CUDA_CHECK(scan_values(temp.get(), temp_bytes, stream));
  }};
}

implementation cub_from_offsets() {
  implementation impl;
  impl.name = "cub_from_offsets";
  impl.library = "cub";
  impl.where = target::gpu;
  impl.algorithms = {algorithm::inclusive_scan_by_offsets};
  impl.prepare = [](const cell& c, const cell_buffers& b) {
    return with_element(c.type, [&](auto tag) {
      return scan_from_offsets<typename decltype(tag)::type>(b);
    });
  };
  return impl;
}

const built_in cub_entry([] { return cub_implementation("cub", false); });
const built_in cub_from_offsets_entry(cub_from_offsets);
const built_in cub_host_entry([] { return cub_implementation("cub_host", true); });
const built_in copy_entry(gpu_copy);
const built_in reduce_floor_entry(gpu_reduce_floor);

}  // namespace
}  // namespace compare
