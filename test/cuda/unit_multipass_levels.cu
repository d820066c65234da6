// cuda_multipass at the boundaries of its recursion (one tile, two levels, three levels), with
// the order-checking join operator, aligned and misaligned, in place, on the policy's stream and
// with a caller-supplied memory resource.

#include "device_fixture.cuh"
#include "unit_support.cuh"

#include <pscan/policies/cuda_common/launch.cuh>
#include <pscan/policies/cuda_multipass/tuning.cuh>
#include <pscan/pscan.hpp>

#include <cstdint>
#include <vector>

namespace {

using conformance::device_buffer;
using namespace unit_support;

// Element i of the input is [i + 1, i + 1]; init is [0, 0].
template <class T>
std::vector<T> inputs(long long n) {
  std::vector<T> v(n);
  for (long long i = 0; i < n; ++i) v[i] = make_interval<T>(i + 1, i + 1);
  return v;
}

// The first wrong position, or -1: out[i] must be [lo, i + 1 - shift].
template <class T>
long long first_wrong(const std::vector<T>& out, long long lo, int shift) {
  for (long long i = 0; i < static_cast<long long>(out.size()); ++i) {
    if (!is(out[i], lo, i + 1 - shift)) return i;
  }
  return -1;
}

template <class T>
void check_scans_at(long long n, long long offset) {
  CAPTURE(n);
  CAPTURE(offset);
  const auto policy = pscan::cuda_multipass.on(conformance::test_stream());
  std::vector<T> padded(offset, make_interval<T>(-5, -5));  // `offset` elements before the input
  const auto values = inputs<T>(n);
  padded.insert(padded.end(), values.begin(), values.end());
  auto in = conformance::device_memory::upload(padded);
  device_buffer<T> out(n + offset);
  const T* first = in.begin() + offset;
  T* result = out.begin() + offset;
  const T init = make_interval<T>(0, 0);
  auto download = [&] {
    auto all = conformance::device_memory::download(out);
    return std::vector<T>(all.begin() + offset, all.end());
  };
  pscan::inclusive_scan(policy, first, first + n, result, join{});
  CHECK(first_wrong(download(), 1, 0) == -1);
  pscan::inclusive_scan(policy, first, first + n, result, join{}, init);
  CHECK(first_wrong(download(), 0, 0) == -1);
  pscan::exclusive_scan(policy, first, first + n, result, init, join{});
  CHECK(first_wrong(download(), 0, 1) == -1);
  CHECK(is(pscan::reduce(policy, first, first + n, init, join{}), 0, n));
  // In place, through the pointer the input came from.
  T* inout = in.begin() + offset;
  pscan::exclusive_scan(policy, inout, inout + n, inout, init, join{});
  auto all = conformance::device_memory::download(in);
  CHECK(first_wrong(std::vector<T>(all.begin() + offset, all.end()), 0, 1) == -1);
}

// Counts the resource's allocations; memory comes from the stream-ordered allocator.
class counting_resource : public pscan::device_resource {
 public:
  void* allocate(std::size_t bytes, cudaStream_t stream) override {
    void* p = nullptr;
    PSCAN_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream));
    ++allocations;
    return p;
  }
  void deallocate(void* p, std::size_t, cudaStream_t stream) override {
    PSCAN_CUDA_CHECK(cudaFreeAsync(p, stream));
    ++deallocations;
  }
  int allocations = 0;
  int deallocations = 0;
};

}  // namespace

TEST_CASE_TEMPLATE("cuda_multipass scans and reduce across recursion levels", T, span8, span16) {
  pscan::cuda_common::with_build([](auto build) {
    constexpr long long tile =
        pscan::cuda_multipass_backend::tuning<T, decltype(build)::target>::tile_items;
    for (long long n : {1LL, 2LL, tile - 1, tile, tile + 1, 5 * tile + 3, tile * tile,
                        tile * tile + 1, tile * (tile + 1) + 1}) {
      check_scans_at<T>(n, 0);
      check_scans_at<T>(n, 1);  // misaligned: no 16-byte vector accesses
    }
  });
}

TEST_CASE("cuda_multipass takes temporaries from the policy's resource") {
  counting_resource resource;
  const auto policy = pscan::cuda_multipass.on(conformance::test_stream()).with(resource);
  // Several tiles on any target (the tiles are the same on all of them), more than the
  // single-block reduce takes, so that the scan and the reduce both need temporaries.
  const long long n =
      (pscan::cuda_common::share_grid_tuning::single_block_steps + 1) *
          pscan::cuda_multipass_backend::tuning<span8,
                                                pscan::cuda_common::target::sm90>::tile_items +
      5;
  auto in = conformance::device_memory::upload(inputs<span8>(n));
  device_buffer<span8> out(n);
  pscan::inclusive_scan(policy, in.begin(), in.end(), out.begin(), join{});
  CHECK(first_wrong(conformance::device_memory::download(out), 1, 0) == -1);
  CHECK(is(pscan::reduce(policy, in.begin(), in.end(), make_interval<span8>(0, 0), join{}), 0, n));
  CHECK(resource.allocations >= 2);
  CHECK(resource.deallocations == resource.allocations);
}
