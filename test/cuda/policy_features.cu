// What the CUDA policies promise beyond the shared conformance cases: managed memory, fancy
// iterators, caller-supplied temporary memory, concurrent streams, and cuda_chained's
// deterministic mode.

#include <cmath>
#include <cstring>

#include "conformance/reference.hpp"
#include "conformance/segments.hpp"
#include "conformance/value_kinds.hpp"
#include "device_fixture.cuh"
#include "stream_support.cuh"

namespace conformance {

// Counts what a policy takes from the caller's resource; stream-ordered, like the default pool.
class counting_resource : public pscan::device_resource {
 public:
  void* allocate(std::size_t bytes, cudaStream_t stream) override {
    void* memory = nullptr;
    PSCAN_CUDA_CHECK(cudaMallocAsync(&memory, bytes, stream));
    ++allocations;
    live_bytes += static_cast<std::int64_t>(bytes);
    return memory;
  }
  // Called from destructors: report rather than throw.
  void deallocate(void* memory, std::size_t bytes, cudaStream_t stream) override {
    if (const cudaError_t status = cudaFreeAsync(memory, stream); status != cudaSuccess) {
      FAIL_CHECK("cudaFreeAsync failed: ", cudaGetErrorString(status));
    }
    ++deallocations;
    live_bytes -= static_cast<std::int64_t>(bytes);
  }

  int allocations = 0;
  int deallocations = 0;
  std::int64_t live_bytes = 0;
};

struct position_mod_7 {
  CONFORMANCE_HD std::int32_t operator()(std::int64_t i) const { return std::int32_t(i % 7) - 3; }
};

}  // namespace conformance

TEST_CASE_TEMPLATE_DEFINE("managed memory is valid input and output", F, managed_memory_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  const auto input = make_values<int32_plus>(random, capped(100003));
  device_buffer<std::int32_t> data(input.size(), memory_kind::managed);
  std::copy(input.begin(), input.end(), data.begin());
  pscan::inclusive_scan(F::policy(), data.begin(), data.end(), data.begin());
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(test_stream()));
  check_equal(expected_inclusive_scan(input, pscan::plus<>{}),
              std::vector<std::int32_t>(data.begin(), data.end()));
}

TEST_CASE_TEMPLATE_DEFINE("fancy input iterators", F, fancy_iterator_case) {
  using namespace conformance;
  const std::int64_t n = capped(1000003);
  const auto first = pscan::detail::make_index_iterator(position_mod_7{});
  std::vector<std::int32_t> input(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) input[std::size_t(i)] = position_mod_7{}(i);
  auto out = F::upload(std::vector<std::int32_t>(input.size()));
  pscan::inclusive_scan(F::policy(), first, first + n, out.begin());
  check_equal(expected_inclusive_scan(input, pscan::plus<>{}), F::download(out));
  CHECK(pscan::reduce(F::policy(), first, first + n, std::int64_t{7}) ==
        expected_reduce(input, std::int64_t{7}, pscan::plus<>{}));
}

TEST_CASE_TEMPLATE_DEFINE("caller-supplied temporary memory", F, resource_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  counting_resource resource;
  const auto p = F::policy().with(resource);
  for (std::int64_t n : {capped(1025), capped(1048577)}) {
    INFO("n = ", n);
    const auto input = make_values<int32_plus>(random, n);
    const auto offsets = make_offsets<std::int64_t>(random, n, offsets_layout::mixed);
    auto in = F::upload(input);
    auto offs = F::upload(offsets);
    auto out = F::upload(input);
    pscan::inclusive_scan(p, in.begin(), in.end(), out.begin());
    check_equal(expected_inclusive_scan(input, pscan::plus<>{}), F::download(out));
    CHECK(pscan::reduce(p, in.begin(), in.end(), 7) == expected_reduce(input, 7, pscan::plus<>{}));
    auto sums = F::upload(std::vector<std::int32_t>(offsets.size() - 1));
    pscan::segmented_reduce(p, in.begin(), offs.begin(), offs.end(), sums.begin(), 7);
    check_equal(expected_segmented_reduce(input, offsets, 7, pscan::plus<>{}), F::download(sums));
  }
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(test_stream()));
  // Every backend needs scratch for these calls (reduce's partials at least): none from the
  // resource means the policy ignored it.
  CHECK(resource.allocations > 0);
  CHECK(resource.allocations == resource.deallocations);
  CHECK(resource.live_bytes == 0);
}

// Tile state must not be shared between calls in flight on different streams.
TEST_CASE_TEMPLATE_DEFINE("concurrent calls on different streams", F, streams_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  constexpr int count = 4;
  owned_stream streams[count];
  std::vector<std::vector<std::int32_t>> inputs;
  std::vector<device_buffer<std::int32_t>> ins, outs;
  for (int k = 0; k < count; ++k) {
    inputs.push_back(make_values<int32_plus>(random, capped((1 << 20) + 3 + 4099 * k)));
    ins.push_back(F::upload(inputs.back()));
    outs.push_back(F::upload(inputs.back()));
  }
  PSCAN_CUDA_CHECK(
      cudaStreamSynchronize(test_stream()));  // uploads complete before other streams read
  for (int k = 0; k < count; ++k) {
    pscan::inclusive_scan(F::policy().on(streams[k].get()), ins[k].begin(), ins[k].end(),
                          outs[k].begin());
  }
  for (int k = 0; k < count; ++k) PSCAN_CUDA_CHECK(cudaStreamSynchronize(streams[k].get()));
  for (int k = 0; k < count; ++k) {
    INFO("stream ", k);
    check_equal(expected_inclusive_scan(inputs[k], pscan::plus<>{}), F::download(outs[k]));
  }
}

TEST_CASE_TEMPLATE_INVOKE(managed_memory_case, CUDA_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(fancy_iterator_case, CUDA_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(resource_case, CUDA_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(streams_case, CUDA_FIXTURES);

#if PSCAN_TEST_CUDA_CHAINED
// Floats of mixed magnitudes round differently under different association orders: only a
// fixed order gives the same bits twice.
TEST_CASE_TEMPLATE_DEFINE("deterministic() gives the same bits run to run", F, deterministic_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  std::vector<float> input(static_cast<std::size_t>(capped((1 << 22) + 3)));
  for (float& v : input)
    v = std::ldexp(float(random.between(1, 1 << 23)), int(random.between(-40, 0)));
  const auto p = F::policy().deterministic();
  auto in = F::upload(input);
  auto first = F::upload(input), second = F::upload(input);
  pscan::inclusive_scan(p, in.begin(), in.end(), first.begin());
  pscan::inclusive_scan(p, in.begin(), in.end(), second.begin());
  const auto a = F::download(first), b = F::download(second);
  CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
  const float total = pscan::reduce(p, in.begin(), in.end(), 0.0f);
  const float again = pscan::reduce(p, in.begin(), in.end(), 0.0f);
  CHECK(std::memcmp(&total, &again, sizeof total) == 0);
}
TEST_CASE_TEMPLATE_INVOKE(deterministic_case, conformance::cuda_chained_fixture);
#endif
