// cuda_chained's paths that the shared conformance cases do not reach: the chained kernel with
// both look-backs (decoupled, deterministic tree) over many tile counts, the tree over entries
// of four and five tile-state words, the cluster kernel with both tile sizes over every cluster
// size, which operators .deterministic() sends to the tree, back-to-back calls that grow the
// stream's cached tile state while earlier calls are still queued, scans captured into a CUDA graph
// and replayed (each replay must start from fresh tile state, not the captured epoch), and
// libpscan's cache.

#include "conformance/value_kinds.hpp"
#include "device_fixture.cuh"
#include "stream_support.cuh"
#include "unit_support.cuh"

#include <pscan/policies/cuda_chained/scan.cuh>
#include <pscan/runtime/scratch_cache.cuh>

#include <pscan/detail/segmented_generic.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

using conformance::device_buffer;
using conformance::test_stream;

using unit_support::affine;
using unit_support::affine_then;

std::vector<affine> make_affines(conformance::random_source& random, std::int64_t n) {
  std::vector<affine> v(static_cast<std::size_t>(n));
  for (auto& f : v) f = unit_support::random_affine(random);
  return v;
}

template <class T, class Op>
std::vector<T> host_inclusive(const std::vector<T>& in, Op op) {
  std::vector<T> out(in);
  for (std::size_t i = 1; i < out.size(); ++i) out[i] = op(out[i - 1], in[i]);
  return out;
}

template <class T>
std::int64_t first_mismatch(const std::vector<T>& want, const std::vector<T>& got) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::memcmp(&want[i], &got[i], sizeof(T)) != 0) return static_cast<std::int64_t>(i);
  }
  return -1;
}

// Waits for the work queued on `stream`, at most `seconds`. A kernel still running then is taken
// for hung: the test reports it and ends the process, since nothing queued after it could run.
void finish_or_exit(cudaStream_t stream, int seconds, const char* what) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  cudaError_t status;
  while ((status = cudaStreamQuery(stream)) == cudaErrorNotReady) {
    if (std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "FAILED: %s did not finish within %d s (hung)\n", what, seconds);
      std::_Exit(1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  PSCAN_CUDA_CHECK(status);
}

}  // namespace

// Deterministic segmented scans of accumulators over several tile-state words (vec3 and 2x2
// matrix values with their head flag: 16 and 20 bytes, padded after the flag), by the generic
// lifted path and by the fused kernel, three calls in a row on the stream's cached tile state, at
// input sizes of the generic path's tile counts around 32 and 32^2 (tree levels 1 to 3; the
// fused kernel cuts the same inputs into its own tiles), against a host loop. Padding bits that
// reach a tile-state tag make such calls wait forever (tile_state.cuh): every call must finish
// within a minute.
TEST_CASE_TEMPLATE("deterministic segmented scans finish at tree edges", K, conformance::vec3_sum,
                   conformance::mat2_chain) {
  using T = typename K::value_type;
  using pair = pscan::detail::flagged<T>;
  CONFORMANCE_SEEDED_RANDOM(random);
  const auto p = pscan::cuda_chained.on(test_stream()).deterministic();
  // The tuning of what the device runs of this test: the shapes are the same on every target.
  constexpr std::int64_t tile =
      pscan::cuda_chained_backend::tuning<pair, pscan::cuda_common::target::sm90>::tile_items;
  static_assert(
      tile ==
      pscan::cuda_chained_backend::tuning<pair, pscan::cuda_common::target::sm80>::tile_items);
  const typename K::op_type op{};
  for (std::int64_t tiles : {31, 32, 33, 40, 512, 1023, 1024, 1025}) {
    const std::int64_t n = tiles * tile;
    if (n > conformance::size_cap()) continue;
    std::vector<T> values(static_cast<std::size_t>(n));
    std::vector<std::uint8_t> flags(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = K::make(random);
      flags[i] = random.one_in(64) ? 1 : 0;
    }
    std::vector<T> expected(values);
    for (std::size_t i = 1; i < values.size(); ++i) {
      if (flags[i] == 0) expected[i] = op(expected[i - 1], values[i]);
    }
    auto in = conformance::device_memory::upload(values);
    auto heads = conformance::device_memory::upload(flags);
    for (const bool fused : {false, true}) {
      for (int call = 0; call < 3; ++call) {
        INFO(tiles, " tiles of ", tile, (fused ? ", fused" : ", generic"), " path, call ", call);
        auto out = conformance::device_memory::upload(std::vector<T>(values.size()));
        if (fused) {
          pscan::segmented_inclusive_scan(p, in.begin(), in.end(), heads.begin(), out.begin(), op);
        } else {
          pscan::detail::inclusive_scan_by_heads(
              p, in.begin(), pscan::detail::flag_heads<const std::uint8_t*>{heads.begin()}, n,
              out.begin(), op);
        }
        finish_or_exit(test_stream(), 60, "a deterministic segmented scan");
        CHECK(first_mismatch(expected, conformance::device_memory::download(out)) == -1);
      }
    }
  }
}

// Both tile shapes, called directly: which one a call gets depends on n and the GPU's SM count.
// The conformance cases' sizes stay within the one-block and cluster kernels under the
// sanitizers; these reach the chained kernel there too. The build is the one the device runs.
TEST_CASE_TEMPLATE("chained kernel over many tile counts, both look-backs", small, std::true_type,
                   std::false_type) {
  CONFORMANCE_SEEDED_RANDOM(random);
  pscan::cuda_common::with_build([&](auto build) {
    using cfg = pscan::cuda_chained_backend::tuning<affine, decltype(build)::target>;
    constexpr int items = small::value ? cfg::small_scan_items : cfg::scan_items;
    constexpr std::int64_t tile = cfg::scan_threads * items;
    for (const bool deterministic : {false, true}) {
      conformance::with_chained_policy(test_stream(), deterministic, [&](const auto& p) {
        // Around 32^k tiles the tree is deepest; the decoupled look-back steps back 32 tiles a
        // window.
        for (std::int64_t tiles :
             {3, 4, 5, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 257, 1023, 1024, 1025, 3000}) {
          for (std::int64_t n : {tiles * tile - 1, tiles * tile, tiles * tile + 1}) {
            INFO("n = ", n, ", tiles of ", tile, ", deterministic: ", deterministic);
            const auto input = make_affines(random, n);
            auto buffer = conformance::device_memory::upload(input);
            pscan::cuda_chained_backend::impl::chained_scan<decltype(build), items, false, false>(
                p, buffer.begin(), n, buffer.begin(), affine{}, affine_then{});
            CHECK(first_mismatch(host_inclusive(input, affine_then{}),
                                 conformance::device_memory::download(buffer)) == -1);
          }
        }
      });
    }
  });
}

// Both cluster tile sizes, called directly, over every cluster size they are used for; an input
// of more tiles than a cluster may hold is refused, not launched. Code compiled below sm_90 (a
// PTX-only build JIT-compiled on an H100) has no clusters: every input is refused.
TEST_CASE_TEMPLATE("cluster kernel over 2-16 tiles of either size", half, std::true_type,
                   std::false_type) {
  CONFORMANCE_SEEDED_RANDOM(random);
  const auto p = pscan::cuda_chained.on(test_stream());
  pscan::cuda_common::with_build([&](auto build) {
    using Build = decltype(build);
    using cfg = pscan::cuda_chained_backend::tuning<affine, Build::target>;
    constexpr int items = half::value ? cfg::half_register_items : cfg::register_items;
    constexpr std::int64_t tile = cfg::scan_threads * items;
    if constexpr (cfg::max_cluster_tiles == 0) {
      MESSAGE("the device runs code compiled below sm_90: no clusters");
    }
    for (std::int64_t tiles = 2; tiles <= cfg::max_cluster_tiles; ++tiles) {
      for (std::int64_t n : {(tiles - 1) * tile + 1, tiles * tile - 1, tiles * tile}) {
        INFO("n = ", n, ", tiles of ", tile);
        const auto input = make_affines(random, n);
        auto buffer = conformance::device_memory::upload(input);
        REQUIRE(pscan::cuda_chained_backend::impl::cluster_scan<Build, items, false, false>(
            p, buffer.begin(), n, buffer.begin(), affine{}, affine_then{}));
        CHECK(first_mismatch(host_inclusive(input, affine_then{}),
                             conformance::device_memory::download(buffer)) == -1);
      }
    }
    device_buffer<affine> too_many(std::max(cfg::max_cluster_tiles, 1) * tile + 1);
    CHECK_FALSE(pscan::cuda_chained_backend::impl::cluster_scan<Build, items, false, false>(
        p, too_many.begin(), static_cast<std::int64_t>(too_many.size()), too_many.begin(),
        affine{}, affine_then{}));
  });
}

// Where .deterministic() keeps the decoupled look-back: only where no grouping changes the bits.
TEST_CASE("the tree is skipped only for operators whose grouping cannot change the bits") {
  using pscan::cuda_common::grouping_free_v;
  CHECK(grouping_free_v<std::int32_t, pscan::plus<>>);
  CHECK(grouping_free_v<std::int64_t, pscan::maximum<std::int64_t>>);
  CHECK(grouping_free_v<std::uint64_t, std::bit_xor<>>);
  CHECK_FALSE(grouping_free_v<float, pscan::plus<>>);
  CHECK_FALSE(grouping_free_v<double, pscan::minimum<>>);
  CHECK_FALSE(grouping_free_v<std::int32_t, affine_then>);
}

TEST_CASE("back-to-back calls on one stream grow its tile state while earlier ones are queued") {
  CONFORMANCE_SEEDED_RANDOM(random);
  std::vector<std::vector<std::int32_t>> inputs;
  std::vector<device_buffer<std::int32_t>> buffers;
  for (std::int64_t n = 5000; n <= (std::int64_t{1} << 25); n = n * 3 + 1) {
    for (std::int64_t m : {n, std::int64_t{9000}}) {  // a small call after each larger one
      std::vector<std::int32_t> input(static_cast<std::size_t>(m));
      for (auto& v : input) v = static_cast<std::int32_t>(random.between(-50, 50));
      buffers.push_back(conformance::device_memory::upload(input));
      inputs.push_back(std::move(input));
    }
  }
  for (std::size_t k = 0; k < buffers.size(); ++k) {  // no sync between calls
    conformance::with_chained_policy(test_stream(), k % 2 == 1, [&](const auto& p) {
      pscan::inclusive_scan(p, buffers[k].begin(), buffers[k].end(), buffers[k].begin());
    });
  }
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    INFO("call ", k, ", n = ", inputs[k].size());
    CHECK(first_mismatch(host_inclusive(inputs[k], pscan::plus<std::int32_t>{}),
                         conformance::device_memory::download(buffers[k])) == -1);
  }
}

TEST_CASE("a scan captured into a graph is right on every replay") {
  CONFORMANCE_SEEDED_RANDOM(random);
  constexpr std::int64_t n = (std::int64_t{1} << 20) + 3;
  device_buffer<std::int32_t> in(n), out(n);
  cudaStream_t stream = nullptr;
  PSCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (bool deterministic : {false, true}) {
    INFO("deterministic: ", deterministic);
    cudaGraph_t graph = nullptr;
    PSCAN_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    conformance::with_chained_policy(stream, deterministic, [&](const auto& p) {
      pscan::inclusive_scan(p, in.begin(), in.end(), out.begin());
    });
    PSCAN_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec = nullptr;
    PSCAN_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int replay = 0; replay < 4; ++replay) {
      INFO("replay ", replay);
      std::vector<std::int32_t> input(static_cast<std::size_t>(n));
      for (auto& v : input) v = static_cast<std::int32_t>(random.between(-50, 50));
      // On the graph's stream: a plain cudaMemcpy from pageable memory may return before its DMA
      // lands, and a non-blocking stream does not wait for it.
      PSCAN_CUDA_CHECK(cudaMemcpyAsync(in.begin(), input.data(), n * sizeof(std::int32_t),
                                cudaMemcpyHostToDevice, stream));
      PSCAN_CUDA_CHECK(cudaGraphLaunch(exec, stream));
      std::vector<std::int32_t> got(static_cast<std::size_t>(n));
      PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
      PSCAN_CUDA_CHECK(
          cudaMemcpy(got.data(), out.begin(), n * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
      CHECK(first_mismatch(host_inclusive(input, pscan::plus<std::int32_t>{}), got) == -1);
    }
    PSCAN_CUDA_CHECK(cudaGraphExecDestroy(exec));
    PSCAN_CUDA_CHECK(cudaGraphDestroy(graph));
  }
  PSCAN_CUDA_CHECK(cudaStreamDestroy(stream));
}

TEST_CASE("tile-state cache: epochs advance, streams, layouts and concurrent calls get their own "
          "zeroed buffers") {
  using pscan::runtime::lease_scratch;
  cudaStream_t a = nullptr, b = nullptr;
  PSCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  PSCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  {
    void* first_data = nullptr;
    std::uint32_t first_epoch = 0;
    std::size_t first_bytes = 0;
    {
      const auto first = lease_scratch(a, 1000, 1);
      first_data = first.data();
      first_epoch = first.epoch();
      first_bytes = first.bytes();
      CHECK(first_bytes >= 1000);
      // While a call holds its buffer, another call on the same stream gets another one.
      const auto concurrent = lease_scratch(a, 1000, 1);
      CHECK(concurrent.data() != first_data);
      CHECK(lease_scratch(b, 1000, 1).data() != first_data);
      CHECK(lease_scratch(a, 1000, 2).data() != first_data);
    }
    // Given back, a buffer serves the stream's next call with the next epoch.
    const auto again = lease_scratch(a, 1000, 1);
    const auto other = lease_scratch(a, 1000, 1);
    CHECK((again.data() == first_data || other.data() == first_data));
    const auto& reused = again.data() == first_data ? again : other;
    CHECK(reused.epoch() == first_epoch + 1);
  }
  {
    // Growing replaces a buffer with a zeroed one.
    const auto small = lease_scratch(a, 1000, 1);
    const std::size_t small_bytes = small.bytes();
    const auto grown = lease_scratch(a, small_bytes * 4, 1);
    CHECK(grown.bytes() >= small_bytes * 4);
    std::vector<unsigned char> bytes(grown.bytes(), 1);
    PSCAN_CUDA_CHECK(
        cudaMemcpyAsync(bytes.data(), grown.data(), bytes.size(), cudaMemcpyDeviceToHost, a));
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(a));
    CHECK(std::count(bytes.begin(), bytes.end(), 0) == static_cast<std::ptrdiff_t>(bytes.size()));
  }
  PSCAN_CUDA_CHECK(cudaStreamDestroy(a));
  PSCAN_CUDA_CHECK(cudaStreamDestroy(b));
}
