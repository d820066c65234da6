// Built against an installed pscan by a project that leaves CMAKE_CUDA_ARCHITECTURES unset, so
// nvcc's default architecture (below sm_90): on an H100 the driver JIT-compiles its PTX. Scans,
// reduce and segmented reduce on both CUDA policies at sizes that reach every scan kernel (one
// block, a cluster's range on sm_90 code, chained tiles), checked against plain loops. Exits 77
// (skipped) without a CUDA device.
#include <pscan/pscan.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <random>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* what, const char* policy, std::int64_t n) {
  if (!ok) {
    std::printf("pscan_consumer_cuda: wrong %s with %s, n = %lld\n", what, policy,
                static_cast<long long>(n));
    ++failures;
  }
}

template <class T>
struct device_vector {
  T* data = nullptr;
  std::size_t size = 0;
  explicit device_vector(const std::vector<T>& host) : size(host.size()) {
    if (cudaMalloc(&data, sizeof(T) * (size + 1)) != cudaSuccess) std::abort();
    if (cudaMemcpy(data, host.data(), sizeof(T) * size, cudaMemcpyHostToDevice) != cudaSuccess) {
      std::abort();
    }
  }
  ~device_vector() { cudaFree(data); }
  std::vector<T> download() const {
    std::vector<T> host(size);
    if (cudaMemcpy(host.data(), data, sizeof(T) * size, cudaMemcpyDeviceToHost) != cudaSuccess) {
      std::abort();
    }
    return host;
  }
};

template <class Policy>
void check_policy(const Policy& policy, const char* name, std::int64_t n, std::mt19937& random) {
  std::vector<std::int32_t> values(static_cast<std::size_t>(n));
  for (auto& v : values) v = static_cast<std::int32_t>(random() % 1000) - 500;
  std::vector<std::int64_t> offsets = {0};
  while (offsets.back() < n) {
    offsets.push_back(std::min<std::int64_t>(n, offsets.back() + random() % 2000));
  }

  std::vector<std::int32_t> inclusive(values.size()), exclusive(values.size());
  std::int32_t sum = 7;
  for (std::size_t i = 0; i < values.size(); ++i) {
    exclusive[i] = sum;
    sum += values[i];
    inclusive[i] = sum - 7;
  }
  std::vector<std::int32_t> segment_sums;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    std::int32_t total = 7;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) total += values[i];
    segment_sums.push_back(total);
  }

  const device_vector<std::int32_t> in(values);
  device_vector<std::int32_t> out(std::vector<std::int32_t>(values.size(), -1));
  pscan::inclusive_scan(policy, in.data, in.data + n, out.data);
  check(out.download() == inclusive, "inclusive_scan", name, n);
  pscan::exclusive_scan(policy, in.data, in.data + n, out.data, 7);
  check(out.download() == exclusive, "exclusive_scan", name, n);
  check(pscan::reduce(policy, in.data, in.data + n, 7) == sum, "reduce", name, n);
  const device_vector<std::int64_t> d_offsets(offsets);
  device_vector<std::int32_t> sums(std::vector<std::int32_t>(segment_sums.size(), -1));
  pscan::segmented_reduce(policy, in.data, d_offsets.data, d_offsets.data + offsets.size(),
                          sums.data, 7);
  check(sums.download() == segment_sums, "segmented_reduce", name, n);
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("pscan_consumer_cuda: skipped: no CUDA device");
    return 77;
  }
  int major = 0, minor = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  const int compiled[] = {__CUDA_ARCH_LIST__};
  std::printf("pscan_consumer_cuda: compiled for compute_%d (and %zu architectures in all), "
              "running on compute capability %d.%d\n",
              compiled[0] / 10, std::size(compiled), major, minor);
  std::mt19937 random(20261126);
  for (std::int64_t n : {1, 1000, 1025, 4097, 30000, 65536, 65537, 1 << 20, (1 << 22) + 3}) {
    check_policy(pscan::cuda_chained, "cuda_chained", n, random);
    check_policy(pscan::cuda_chained.deterministic(), "cuda_chained.deterministic()", n, random);
    check_policy(pscan::cuda_multipass, "cuda_multipass", n, random);
  }
  if (failures > 0) return 1;
  std::puts("pscan_consumer_cuda: scans, reduce and segmented_reduce ok");
  return 0;
}
