// Caller-supplied temporary memory and libpscan's default pool:
//  - .with(r) for both forms of resource (a pscan::device_resource subclass, and a plain object
//    of CCCL's stream-ordered shape, allocate_async / deallocate_async, with cuda::stream_ref and
//    with an RMM-like stream view), on every CUDA policy and every algorithm: right results, every
//    allocation given back (same size, 256-byte alignment asked of the stream-ordered form), and
//    libpscan's pool left untouched (every temporary came from the resource);
//  - small calls captured into a graph and replayed many times, the input changed between
//    replays, with and without a resource;
//  - release_device_pool() and limit_device_pool(bytes) on the pool's reserved memory.

#include "conformance/reference.hpp"
#include "conformance/segments.hpp"
#include "device_fixture.cuh"
#include "stream_support.cuh"

#include <pscan/policies/cuda_common/runtime/temporary.cuh>
#include <pscan/pscan.hpp>

#include <cuda/stream_ref>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using conformance::copy_to_device;
using conformance::copy_to_host;
using conformance::device_buffer;
using conformance::random_source;

// What a resource saw: allocations and deallocations, the bytes still out, and any deallocation
// that did not match an allocation (unknown pointer, other size).
struct allocation_log {
  int allocations = 0;
  int deallocations = 0;
  std::int64_t live_bytes = 0;
  int mismatched_deallocations = 0;
  int failed_frees = 0;
  std::map<void*, std::size_t> live;

  void allocated(void* p, std::size_t bytes) {
    ++allocations;
    live_bytes += static_cast<std::int64_t>(bytes);
    live[p] = bytes;
  }
  void deallocated(void* p, std::size_t bytes, cudaError_t freed) {
    ++deallocations;
    live_bytes -= static_cast<std::int64_t>(bytes);
    const auto found = live.find(p);
    if (found == live.end() || found->second != bytes) {
      ++mismatched_deallocations;
    } else {
      live.erase(found);
    }
    if (freed != cudaSuccess) ++failed_frees;
  }
};

// Form (a): pscan's abstract resource, stream-ordered memory of the device's default pool (not
// libpscan's).
class counting_device_resource : public pscan::device_resource, public allocation_log {
 public:
  void* allocate(std::size_t bytes, cudaStream_t stream) override {
    void* p = nullptr;
    PSCAN_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream));
    allocated(p, bytes);
    return p;
  }
  // Called from destructors: counts a failure rather than throwing.
  void deallocate(void* p, std::size_t bytes, cudaStream_t stream) override {
    deallocated(p, bytes, cudaFreeAsync(p, stream));
  }
};

// An RMM-like stream view (rmm::cuda_stream_view's shape): made from a cudaStream_t.
class stream_view {
 public:
  constexpr stream_view(cudaStream_t stream) noexcept : stream_(stream) {}
  constexpr cudaStream_t value() const noexcept { return stream_; }

 private:
  cudaStream_t stream_;
};

cudaStream_t cuda_stream_of(cuda::stream_ref stream) { return stream.get(); }
cudaStream_t cuda_stream_of(stream_view stream) { return stream.value(); }

// Form (b): no base class, CCCL's stream-ordered shape with Stream as the stream parameter.
template <class Stream>
struct counting_stream_ordered_resource : allocation_log {
  int wrong_alignments = 0;  // requests not for 256 bytes

  void* allocate_async(std::size_t bytes, std::size_t alignment, Stream stream) {
    wrong_alignments += alignment != 256;
    void* p = nullptr;
    PSCAN_CUDA_CHECK(cudaMallocAsync(&p, bytes, cuda_stream_of(stream)));
    allocated(p, bytes);
    return p;
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment,
                        Stream stream) noexcept {
    wrong_alignments += alignment != 256;
    deallocated(p, bytes, cudaFreeAsync(p, cuda_stream_of(stream)));
  }
};

using cccl_resource = counting_stream_ordered_resource<cuda::stream_ref>;
using rmm_like_resource = counting_stream_ordered_resource<stream_view>;

}  // namespace

namespace unit_resources {
// Neither shape: a stream-ordered allocate without the alignment (declared only, for the trait).
struct not_a_resource {
  void* allocate_async(std::size_t bytes, cudaStream_t stream);
  void deallocate_async(void* p, std::size_t bytes, cudaStream_t stream);
};
}  // namespace unit_resources

namespace {

using pscan::cuda_common::is_stream_ordered_resource_v;
static_assert(is_stream_ordered_resource_v<cccl_resource>);
static_assert(is_stream_ordered_resource_v<rmm_like_resource>);
static_assert(!is_stream_ordered_resource_v<counting_device_resource>);
static_assert(!is_stream_ordered_resource_v<unit_resources::not_a_resource>);
static_assert(!is_stream_ordered_resource_v<int>);

#if PSCAN_TEST_CUDA_CHAINED
static_assert(pscan::cuda_chained.resource == nullptr);  // no caller resource by default
#endif
#if PSCAN_TEST_CUDA_MULTIPASS
static_assert(pscan::cuda_multipass.resource == nullptr);
#endif

std::size_t pool_reserved() { return pscan::runtime::device_pool_reserved_bytes(); }

struct three_x_plus_one {
  __host__ __device__ std::int64_t operator()(std::int64_t x) const { return 3 * x + 1; }
};

// --- inputs and host loops ------------------------------------------------------------------

constexpr std::int64_t init = 7;

std::vector<std::int64_t> random_values(random_source& random, std::int64_t n) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = random.between(-1000, 1000);
  return v;
}

// Heads one in 16 (any non-zero byte).
std::vector<std::uint8_t> random_flags(random_source& random, std::int64_t n) {
  std::vector<std::uint8_t> flags(static_cast<std::size_t>(n));
  for (auto& f : flags) {
    f = random.one_in(16) ? static_cast<std::uint8_t>(random.between(1, 255)) : 0;
  }
  return flags;
}

// Runs of 1 to 20 equal keys.
std::vector<std::int32_t> random_keys(random_source& random, std::int64_t n) {
  std::vector<std::int32_t> keys(static_cast<std::size_t>(n));
  std::int32_t key = 0;
  std::int64_t left = 0;
  for (auto& k : keys) {
    if (left-- == 0) {
      key += static_cast<std::int32_t>(random.between(1, 3));
      left = random.between(0, 19);
    }
    k = key;
  }
  return keys;
}

// 0 = offsets[0] <= ... <= offsets[m-1] = n, segments of 0 to 100 elements.
std::vector<std::int64_t> random_offsets(random_source& random, std::int64_t n) {
  std::vector<std::int64_t> offsets{0};
  while (offsets.back() < n) {
    offsets.push_back(std::min(n, offsets.back() + random.between(0, 100)));
  }
  return offsets;
}

// The expected results come from the conformance suite's plain loops (conformance/reference.hpp).
using conformance::expected_exclusive_scan;
using conformance::expected_inclusive_scan;
using conformance::expected_reduce;
using conformance::expected_runs;
using conformance::expected_scan_by_offsets;
using conformance::expected_segmented_exclusive_scan;
using conformance::expected_segmented_inclusive_scan;
using conformance::expected_segmented_reduce;
using conformance::heads_from_flags;
using conformance::heads_from_keys;
constexpr pscan::plus<> add{};
constexpr pscan::equal_to<> same{};

template <class T>
std::vector<T> leading(const device_buffer<T>& buffer, std::size_t count) {
  auto all = conformance::device_memory::download(buffer);
  all.resize(count);
  return all;
}

// --- (a) every algorithm with a caller's resource -------------------------------------------

// Every algorithm once with `p` (a policy on test_stream() with `resource`), at a size that needs
// temporaries: each result against a host loop; after each call (stream synchronised) every
// allocation given back, at least one made, and libpscan's pool still holding nothing.
template <class Policy, class Resource>
void check_every_algorithm(const Policy& p, Resource& resource, random_source& random) {
  using conformance::check_equal;
  using conformance::device_memory;
  const std::int64_t n = conformance::capped((std::int64_t{1} << 20) + 3);
  const auto n_items = static_cast<std::size_t>(n);
  const auto values = random_values(random, n);
  const auto flags = random_flags(random, n);
  const auto keys = random_keys(random, n);
  const auto offsets = random_offsets(random, n);
  const std::size_t segments = offsets.size() - 1;

  auto in = device_memory::upload(values);
  auto flags_d = device_memory::upload(flags);
  auto keys_d = device_memory::upload(keys);
  auto offsets_d = device_memory::upload(offsets);
  device_buffer<std::int64_t> out(n_items), sums(segments), result(1), run_count(1);
  device_buffer<std::int32_t> run_keys(n_items);
  const std::int64_t* first = in.begin();
  const std::int64_t* last = in.end();

  const auto step = [&](const char* algorithm, auto&& call_and_check) {
    const std::string name = algorithm;
    INFO(name);
    const int before = resource.allocations;
    call_and_check();
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(conformance::test_stream()));
    // At 2^20 + 3 elements every algorithm needs scratch on both policies (scan levels, reduce
    // partials, the chained scans' tile state): none from the resource means it went elsewhere.
    if (n == (std::int64_t{1} << 20) + 3) {
      CHECK_MESSAGE(resource.allocations > before, algorithm, " took nothing from the resource");
    }
    CHECK(resource.allocations == resource.deallocations);
    CHECK(resource.live_bytes == 0);
    CHECK(resource.mismatched_deallocations == 0);
    CHECK(resource.failed_frees == 0);
    CHECK(pool_reserved() == 0);
  };

  step("inclusive_scan", [&] {
    pscan::inclusive_scan(p, first, last, out.begin());
    check_equal(expected_inclusive_scan(values, add), device_memory::download(out));
  });
  step("exclusive_scan", [&] {
    pscan::exclusive_scan(p, first, last, out.begin(), init);
    check_equal(expected_exclusive_scan(values, init, add),
                device_memory::download(out));
  });
  step("reduce", [&] { CHECK(pscan::reduce(p, first, last, init) == expected_reduce(values, init, add)); });
  step("reduce_into", [&] {
    pscan::reduce_into(p, first, last, result.begin(), init);
    CHECK(device_memory::download(result)[0] == expected_reduce(values, init, add));
  });
  step("transform_inclusive_scan", [&] {
    pscan::transform_inclusive_scan(p, first, last, out.begin(), pscan::plus<>{},
                                    three_x_plus_one{});
    std::vector<std::int64_t> transformed(n_items);
    for (std::size_t i = 0; i < n_items; ++i) transformed[i] = three_x_plus_one{}(values[i]);
    check_equal(expected_inclusive_scan(transformed, add), device_memory::download(out));
  });
  step("segmented_inclusive_scan", [&] {
    pscan::segmented_inclusive_scan(p, first, last, flags_d.begin(), out.begin());
    check_equal(expected_segmented_inclusive_scan(values, heads_from_flags(flags), add), device_memory::download(out));
  });
  step("inclusive_scan_by_key", [&] {
    pscan::inclusive_scan_by_key(p, keys_d.begin(), keys_d.end(), first, out.begin());
    check_equal(expected_segmented_inclusive_scan(values, heads_from_keys(keys, same), add), device_memory::download(out));
  });
  step("exclusive_scan_by_key", [&] {
    pscan::exclusive_scan_by_key(p, keys_d.begin(), keys_d.end(), first, out.begin(), init);
    check_equal(expected_segmented_exclusive_scan(values, heads_from_keys(keys, same), init, add), device_memory::download(out));
  });
  step("inclusive_scan_by_offsets", [&] {
    pscan::inclusive_scan_by_offsets(p, first, offsets_d.begin(), offsets_d.end(), out.begin());
    check_equal(expected_scan_by_offsets<false>(values, offsets, std::vector<std::int64_t>(n_items), init, add),
                device_memory::download(out));
  });
  step("exclusive_scan_by_offsets", [&] {
    pscan::exclusive_scan_by_offsets(p, first, offsets_d.begin(), offsets_d.end(), out.begin(),
                                     init);
    check_equal(expected_scan_by_offsets<true>(values, offsets, std::vector<std::int64_t>(n_items), init, add),
                device_memory::download(out));
  });
  step("segmented_reduce", [&] {
    pscan::segmented_reduce(p, first, offsets_d.begin(), offsets_d.end(), sums.begin(), init);
    check_equal(expected_segmented_reduce(values, offsets, init, add), device_memory::download(sums));
  });
  const auto runs = expected_runs(keys, values, add, same);  // (keys, sums)
  step("reduce_by_key", [&] {
    const auto ends = pscan::reduce_by_key(p, keys_d.begin(), keys_d.end(), first,
                                           run_keys.begin(), out.begin());
    REQUIRE(ends.first - run_keys.begin() == static_cast<std::ptrdiff_t>(runs.first.size()));
    REQUIRE(ends.second - out.begin() == static_cast<std::ptrdiff_t>(runs.second.size()));
    check_equal(runs.first, leading(run_keys, runs.first.size()));
    check_equal(runs.second, leading(out, runs.second.size()));
  });
  step("reduce_by_key_into", [&] {
    pscan::reduce_by_key_into(p, keys_d.begin(), keys_d.end(), first, run_keys.begin(),
                              out.begin(), run_count.begin());
    REQUIRE(device_memory::download(run_count)[0] == static_cast<std::int64_t>(runs.first.size()));
    check_equal(runs.first, leading(run_keys, runs.first.size()));
    check_equal(runs.second, leading(out, runs.second.size()));
  });
  CHECK(resource.live.empty());
}

}  // namespace

TEST_CASE_TEMPLATE("every algorithm takes its temporaries from a device_resource", F,
                   CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  pscan::release_device_pool();
  REQUIRE(pool_reserved() == 0);
  counting_device_resource resource;
  check_every_algorithm(F::policy().with(resource), resource, random);
}

TEST_CASE_TEMPLATE("every algorithm takes its temporaries from a stream-ordered resource", F,
                   CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  pscan::release_device_pool();
  REQUIRE(pool_reserved() == 0);
  cccl_resource cccl;  // cuda::stream_ref
  check_every_algorithm(F::policy().with(cccl), cccl, random);
  CHECK(cccl.wrong_alignments == 0);
  rmm_like_resource rmm_like;  // an rmm::cuda_stream_view-like stream parameter
  check_every_algorithm(F::policy().with(rmm_like), rmm_like, random);
  CHECK(rmm_like.wrong_alignments == 0);
}

// --- (b) graph replay ------------------------------------------------------------------------

namespace {

// f(name, policy on `stream`) for every CUDA policy built in, without and with `resource`.
template <class Resource, class F>
void for_each_cuda_policy([[maybe_unused]] cudaStream_t stream,
                          [[maybe_unused]] Resource& resource, [[maybe_unused]] F&& f) {
#if PSCAN_TEST_CUDA_MULTIPASS
  f("cuda_multipass", pscan::cuda_multipass.on(stream));
  f("cuda_multipass with a resource", pscan::cuda_multipass.on(stream).with(resource));
#endif
#if PSCAN_TEST_CUDA_CHAINED
  f("cuda_chained", pscan::cuda_chained.on(stream));
  f("cuda_chained with a resource", pscan::cuda_chained.on(stream).with(resource));
  f("cuda_chained deterministic", pscan::cuda_chained.deterministic().on(stream));
#endif
}

// One size's data and one policy's outputs for the captured calls.
struct graph_case {
  std::int64_t n;
  std::size_t segments;
  device_buffer<std::int64_t> values, offsets, scanned, total, sums, by_key;
  device_buffer<std::int32_t> keys;
  graph_case(std::int64_t size, std::size_t segment_count)
      : n(size),
        segments(segment_count),
        values(static_cast<std::size_t>(size)),
        offsets(segment_count + 1),
        scanned(static_cast<std::size_t>(size)),
        total(1),
        sums(segment_count),
        by_key(static_cast<std::size_t>(size)),
        keys(static_cast<std::size_t>(size)) {}

  // The capturable calls: neither reduce nor reduce_by_key (they return to the host).
  template <class Policy>
  void enqueue(const Policy& p) const {
    pscan::inclusive_scan(p, values.begin(), values.end(), scanned.begin());
    pscan::reduce_into(p, values.begin(), values.end(), total.begin(), init);
    pscan::segmented_reduce(p, values.begin(), offsets.begin(), offsets.end(), sums.begin(), init);
    pscan::inclusive_scan_by_key(p, keys.begin(), keys.end(), values.begin(), by_key.begin());
  }
};

// The input of one graph_case as the host has it.
struct graph_input {
  std::vector<std::int64_t> values, offsets;
  std::vector<std::int32_t> keys;
};

// A fresh input of the same shape (n elements, segments + 1 offsets from 0 to n).
graph_input random_graph_input(random_source& random, std::int64_t n, std::size_t segments) {
  graph_input input{random_values(random, n), {}, random_keys(random, n)};
  input.offsets.push_back(0);
  for (std::size_t s = 1; s < segments; ++s) input.offsets.push_back(random.between(0, n));
  input.offsets.push_back(n);
  std::sort(input.offsets.begin(), input.offsets.end());
  return input;
}

void upload(const graph_case& c, const graph_input& input, cudaStream_t stream) {
  copy_to_device(c.values.begin(), input.values, stream);
  copy_to_device(c.offsets.begin(), input.offsets, stream);
  copy_to_device(c.keys.begin(), input.keys, stream);
}

// The outputs of `c` (stream synchronised) against host loops over `input`.
void check_outputs(const graph_case& c, const graph_input& input, cudaStream_t stream) {
  using conformance::check_equal;
  const auto n = static_cast<std::size_t>(c.n);
  check_equal(expected_inclusive_scan(input.values, add), copy_to_host(c.scanned.begin(), n, stream));
  CHECK(copy_to_host(c.total.begin(), 1, stream)[0] == expected_reduce(input.values, init, add));
  check_equal(expected_segmented_reduce(input.values, input.offsets, init, add),
              copy_to_host(c.sums.begin(), c.segments, stream));
  check_equal(expected_segmented_inclusive_scan(input.values, heads_from_keys(input.keys, same), add),
              copy_to_host(c.by_key.begin(), n, stream));
}

}  // namespace

TEST_CASE("small calls captured into a graph replay with inputs changed between replays") {
  CONFORMANCE_SEEDED_RANDOM(random);
  conformance::owned_stream stream;
  const cudaStream_t s = stream.get();
  cccl_resource resource;
  const std::int64_t sizes[] = {conformance::capped(1000), conformance::capped(5000)};
  for_each_cuda_policy(s, resource, [&](const char* name, const auto& p) {
    INFO(name);
    std::vector<graph_case> cases;
    for (const std::int64_t n : sizes) cases.emplace_back(n, static_cast<std::size_t>(n / 37 + 2));
    std::vector<graph_input> inputs;
    for (const auto& c : cases) {
      inputs.push_back(random_graph_input(random, c.n, c.segments));
      upload(c, inputs.back(), s);
    }
    // Once uncaptured (first-use set-up happens outside the capture), then captured.
    for (const auto& c : cases) c.enqueue(p);
    for (std::size_t k = 0; k < cases.size(); ++k) check_outputs(cases[k], inputs[k], s);
    const conformance::captured_graph graph(s, [&] {
      for (const auto& c : cases) c.enqueue(p);
    });
    // A resource serves the capture (its allocations become the graph's, freed in the graph).
    CHECK(resource.allocations == resource.deallocations);
    CHECK(resource.live_bytes == 0);
    constexpr int replays = 200;
    for (int replay = 0; replay < replays; ++replay) {
      if (replay % 25 == 7) {
        for (std::size_t k = 0; k < cases.size(); ++k) {
          inputs[k] = random_graph_input(random, cases[k].n, cases[k].segments);
          upload(cases[k], inputs[k], s);  // on the stream, before the launch
        }
      }
      graph.launch(s);
      if (replay % 40 == 39 || replay == 0 || replay == replays - 1) {
        INFO("replay ", replay);
        for (std::size_t k = 0; k < cases.size(); ++k) check_outputs(cases[k], inputs[k], s);
      }
    }
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(s));
  });
  CHECK(resource.allocations == resource.deallocations);
  CHECK(resource.mismatched_deallocations == 0);
  CHECK(resource.failed_frees == 0);
  CHECK(resource.wrong_alignments == 0);
}

// --- (c) releasing and limiting the default pool ---------------------------------------------

namespace {

// Restores the default (keep everything) however the case ends.
struct pool_limit_restorer {
  ~pool_limit_restorer() {
    try {
      pscan::limit_device_pool(SIZE_MAX);
    } catch (...) {
    }
  }
};

// A few calls of `p` on test_stream() that need temporaries, checked; the stream synchronised.
template <class Policy>
void run_calls(const Policy& p, random_source& random) {
  using conformance::check_equal;
  using conformance::device_memory;
  const std::int64_t n = conformance::capped((std::int64_t{1} << 20) + 3);
  const auto values = random_values(random, n);
  const auto offsets = random_offsets(random, n);
  auto in = device_memory::upload(values);
  auto offsets_d = device_memory::upload(offsets);
  device_buffer<std::int64_t> out(values.size()), sums(offsets.size() - 1);
  pscan::inclusive_scan(p, in.begin(), in.end(), out.begin());
  check_equal(expected_inclusive_scan(values, add), device_memory::download(out));
  pscan::segmented_reduce(p, in.begin(), offsets_d.begin(), offsets_d.end(), sums.begin(), init);
  check_equal(expected_segmented_reduce(values, offsets, init, add), device_memory::download(sums));
  CHECK(pscan::reduce(p, in.begin(), in.end(), init) == expected_reduce(values, init, add));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(conformance::test_stream()));
}

}  // namespace

TEST_CASE_TEMPLATE("release_device_pool and limit_device_pool", F, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  const pool_limit_restorer restore;
  const auto p = F::policy();
  run_calls(p, random);
  CHECK(pool_reserved() > 0);  // kept: the pool keeps everything by default
  pscan::release_device_pool();
  CHECK(pool_reserved() == 0);
  run_calls(p, random);  // the pool serves again after a release
  CHECK(pool_reserved() > 0);
  pscan::release_device_pool();
  CHECK(pool_reserved() == 0);

  // Limited to nothing: temporaries go back to the system when the stream is synchronised. Only
  // the scratch buffers kept for the stream (in use, not idle) may stay, and they do not grow.
  pscan::limit_device_pool(0);
  run_calls(p, random);
  const std::size_t kept = pool_reserved();
  run_calls(p, random);
  CHECK(pool_reserved() <= kept);
  pscan::release_device_pool();
  CHECK(pool_reserved() == 0);

  // Back to the default: memory stays cached between calls.
  pscan::limit_device_pool(SIZE_MAX);
  run_calls(p, random);
  CHECK(pool_reserved() > 0);
  pscan::release_device_pool();
  CHECK(pool_reserved() == 0);
}
