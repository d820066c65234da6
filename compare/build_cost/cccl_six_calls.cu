// The six calls of pscan_six_calls.cu through Thrust and CUB, as a CUDA program makes them
// today: Thrust's scans, scan by key and reduce_by_key on the device, CUB's segmented reduce and
// device-resident reduce (each asking for its temporary storage size first, then running).
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>

#include <cuda_runtime.h>

void six_calls(const float* values, const int* keys, const int* offsets, int n, int segments,
               float* out, int* keys_out, float* sums, float* total) {
  const auto policy = thrust::device;
  thrust::inclusive_scan(policy, values, values + n, out);
  thrust::exclusive_scan(policy, values, values + n, out, 0.0f);
  thrust::inclusive_scan_by_key(policy, keys, keys + n, values, out);
  void* temp = nullptr;
  std::size_t bytes = 0;
  cub::DeviceSegmentedReduce::Reduce(temp, bytes, values, sums, segments, offsets, offsets + 1,
                                     cuda::std::plus<>{}, 0.0f);
  cudaMalloc(&temp, bytes);
  cub::DeviceSegmentedReduce::Reduce(temp, bytes, values, sums, segments, offsets, offsets + 1,
                                     cuda::std::plus<>{}, 0.0f);
  cudaFree(temp);
  thrust::reduce_by_key(policy, keys, keys + n, values, keys_out, sums);
  temp = nullptr;
  bytes = 0;
  cub::DeviceReduce::Reduce(temp, bytes, values, total, n, cuda::std::plus<>{}, 0.0f);
  cudaMalloc(&temp, bytes);
  cub::DeviceReduce::Reduce(temp, bytes, values, total, n, cuda::std::plus<>{}, 0.0f);
  cudaFree(temp);
}
