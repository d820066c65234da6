// The CUDA policies apply op only to input elements, init and op's own results: never to padding,
// to the items of threads that have none, or to storage nothing wrote (docs/api.md). A user
// operator may index a table with its operand or assert an invariant of its type, so one stray
// call is a bug even when the result comes out right.
//
// The values are structs with padding that carry a tag, drawn afresh for every case; init and op's
// results carry it too. The operator counts, on the device, every call in which an operand lacks
// the tag. Sizes sit one item short of and one past the tile boundaries of every kernel path (one
// block, the cluster in either tile size, small and large chained tiles, two and three levels of
// the deterministic tree, the multi-pass levels), computed from the tuning of the kernels'
// accumulator type: the value type for scans and reduce, the (value, head) pair for segmented
// scans and scans by key.

#include "device_fixture.cuh"

#include <pscan/policies/cuda_chained/tuning.cuh>
#include <pscan/policies/cuda_common/algorithms/segmented_reduce.cuh>
#include <pscan/policies/cuda_multipass/tuning.cuh>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace {

using conformance::device_buffer;
using conformance::test_stream;

// A value with padding after its tag: 8 bytes (2 of padding) and 16 bytes (4 of padding).
template <class V, class Tag>
struct tagged {
  V value;
  Tag tag;
};
using tagged8 = tagged<std::uint32_t, std::uint16_t>;
using tagged16 = tagged<std::uint64_t, std::uint32_t>;
static_assert(sizeof(tagged8) == 8 && sizeof(tagged16) == 16, "the types must have padding");

template <class V, class Tag>
bool operator==(const tagged<V, Tag>& a, const tagged<V, Tag>& b) {
  return a.value == b.value && a.tag == b.tag;
}

// Wrapping addition that counts the calls with an operand not carrying `tag`.
template <class T>
struct tag_checking_plus {
  using tag_type = decltype(T::tag);
  unsigned long long* strays;  // device memory
  tag_type tag;

  __device__ T operator()(const T& a, const T& b) const {
    if (a.tag != tag || b.tag != tag) atomicAdd(strays, 1ull);
    return T{static_cast<decltype(T::value)>(a.value + b.value), tag};
  }
};

template <class T>
T plus_on_host(const T& a, const T& b) {
  return T{static_cast<decltype(T::value)>(a.value + b.value), a.tag};
}

int sm_count() {
  int device = 0, count = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  PSCAN_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

// n - 1 and n + 1 for each tile boundary n of the chained and multi-pass kernels over A, in the
// tuning of the build the device runs.
template <class A>
std::vector<std::int64_t> sizes_around_tiles() {
  return pscan::cuda_common::with_build([](auto build) {
    using chained = pscan::cuda_chained_backend::tuning<A, decltype(build)::target>;
    using multipass = pscan::cuda_multipass_backend::tuning<A, decltype(build)::target>;
    const std::int64_t one_block = chained::register_tile_items;
    const std::int64_t half = std::int64_t{chained::scan_threads} * chained::half_register_items;
    const std::int64_t clusters = chained::max_cluster_tiles;
    const std::int64_t small = chained::small_tile_items;
    const std::int64_t large = chained::tile_items;
    // Small chained tiles while they number at most one per SM; past that, large ones.
    const std::int64_t small_tiles =
        std::max<std::int64_t>(sm_count() / 2, clusters * one_block / small + 2);
    const std::int64_t large_tiles = sm_count() * small / large + 8;
    const std::int64_t boundaries[] = {
        // the one-block kernel
        one_block,
        // the cluster, in half-size tiles and in full ones
        5 * half, clusters * half, (clusters / 2 + 1) * one_block, clusters * one_block,
        // small chained tiles; large ones, with a 2-level and a 3-level deterministic tree
        small_tiles * small, large_tiles * large, 1025 * large,
        // the multi-pass scan with 2 levels, and at the step from 2 to 3
        7 * multipass::tile_items, std::int64_t{multipass::tile_items} * multipass::tile_items};
    std::vector<std::int64_t> sizes = {65537, 4194309};
    for (std::int64_t b : boundaries) {
      sizes.push_back(b - 1);
      sizes.push_back(b + 1);
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    std::vector<std::int64_t> capped;
    for (std::int64_t n : sizes) {
      if (n >= 0 && n <= conformance::size_cap()) capped.push_back(n);
    }
    return capped;
  });
}

// One case's data: the values, head flags, keys and offsets every algorithm reads.
template <class T>
struct case_data {
  typename tag_checking_plus<T>::tag_type tag;
  T init;
  std::vector<T> values;
  std::vector<std::uint8_t> flags;    // flags[i] != 0: a segment starts at i
  std::vector<std::int32_t> keys;     // runs of equal keys, the same segments as the flags
  std::vector<std::int64_t> offsets;  // segmented_reduce's segments, empty ones included
};

template <class T>
case_data<T> make_case(conformance::random_source& random, std::int64_t n) {
  case_data<T> d;
  d.tag = static_cast<decltype(d.tag)>(random.between(1, 0xffff));
  d.init = T{static_cast<decltype(T::value)>(random.next()), d.tag};
  d.values.resize(static_cast<std::size_t>(n));
  d.flags.resize(d.values.size());
  d.keys.resize(d.values.size());
  std::int32_t key = 0;
  for (std::size_t i = 0; i < d.values.size(); ++i) {
    d.values[i] = T{static_cast<decltype(T::value)>(random.next()), d.tag};
    d.flags[i] = random.one_in(8) ? static_cast<std::uint8_t>(random.between(1, 255)) : 0;
    key += d.flags[i] != 0;
    d.keys[i] = key;
  }
  // Segment lengths around the segment reduction's warp and step of merged items (in the tuning
  // of the build the device runs), and empty segments.
  const auto [warp, block] = pscan::cuda_common::with_build([](auto build) {
    using cfg =
        pscan::cuda_common::segmented_reduce_tuning<T, decltype(build)::target>;
    return std::pair<std::int64_t, std::int64_t>{32 * cfg::items, cfg::block_threads * cfg::items};
  });
  const std::int64_t lengths[] = {0,        0,        1,         2,         31,           33,
                                  warp - 1, warp + 1, block - 1, block + 1, 3 * block + 1};
  d.offsets.push_back(0);
  for (std::int64_t at = 0; at < n;) {
    at = std::min(n, at + lengths[random.between(0, std::size(lengths) - 1)]);
    d.offsets.push_back(at);
  }
  return d;
}

// The references: plain loops over the host data.
template <class T>
std::vector<T> inclusive_reference(const std::vector<T>& in, const std::vector<bool>& heads,
                                   const T* init = nullptr) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const bool starts = i == 0 || heads[i];
    out[i] = starts ? (init ? plus_on_host(*init, in[i]) : in[i]) : plus_on_host(out[i - 1], in[i]);
  }
  return out;
}

template <class T>
std::vector<T> exclusive_reference(const std::vector<T>& in, const std::vector<bool>& heads,
                                   const T& init) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const bool starts = i == 0 || heads[i];
    out[i] = starts ? init : plus_on_host(out[i - 1], in[i - 1]);
  }
  return out;
}

template <class T>
std::int64_t first_mismatch(const std::vector<T>& want, const std::vector<T>& got) {
  if (want.size() != got.size()) return 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!(want[i] == got[i])) return static_cast<std::int64_t>(i);
  }
  return -1;
}

template <class Fixture, class T>
void check_every_algorithm(const case_data<T>& d) {
  const auto p = Fixture::policy();
  const auto n = static_cast<std::int64_t>(d.values.size());
  device_buffer<unsigned long long> strays(1);
  const tag_checking_plus<T> op{strays.begin(), d.tag};
  const auto values = Fixture::upload(d.values);
  const auto flags = Fixture::upload(d.flags);
  const auto keys = Fixture::upload(d.keys);
  const auto offsets = Fixture::upload(d.offsets);
  device_buffer<T> out(d.values.size());

  const std::vector<bool> no_heads(d.values.size(), false);
  std::vector<bool> heads(d.values.size());
  for (std::size_t i = 0; i < heads.size(); ++i) heads[i] = d.flags[i] != 0;

  // Runs `call`, then checks the stray count and, where given, the output against `want`.
  const auto expect = [&](const std::string& algorithm, auto&& call, const std::vector<T>& want) {
    INFO(algorithm, ", n = ", n, ", ", sizeof(T), "-byte values");
    PSCAN_CUDA_CHECK(cudaMemsetAsync(strays.begin(), 0, sizeof(unsigned long long), test_stream()));
    call();
    const std::vector<unsigned long long> count = Fixture::download(strays);
    CHECK_MESSAGE(count[0] == 0, count[0], " calls of op saw a value not derived from the input");
    if (!want.empty()) CHECK(first_mismatch(want, Fixture::download(out)) == -1);
  };

  expect(
      "inclusive_scan",
      [&] { pscan::inclusive_scan(p, values.begin(), values.end(), out.begin(), op); },
      inclusive_reference(d.values, no_heads));
  expect(
      "inclusive_scan with init",
      [&] { pscan::inclusive_scan(p, values.begin(), values.end(), out.begin(), op, d.init); },
      inclusive_reference(d.values, no_heads, &d.init));
  expect(
      "exclusive_scan",
      [&] { pscan::exclusive_scan(p, values.begin(), values.end(), out.begin(), d.init, op); },
      exclusive_reference(d.values, no_heads, d.init));
  expect(
      "segmented_inclusive_scan",
      [&] {
        pscan::segmented_inclusive_scan(p, values.begin(), values.end(), flags.begin(), out.begin(),
                                        op);
      },
      inclusive_reference(d.values, heads));
  expect(
      "segmented_exclusive_scan",
      [&] {
        pscan::segmented_exclusive_scan(p, values.begin(), values.end(), flags.begin(), out.begin(),
                                        d.init, op);
      },
      exclusive_reference(d.values, heads, d.init));
  expect(
      "inclusive_scan_by_key",
      [&] {
        pscan::inclusive_scan_by_key(p, keys.begin(), keys.end(), values.begin(), out.begin(), op);
      },
      inclusive_reference(d.values, heads));
  expect(
      "exclusive_scan_by_key",
      [&] {
        pscan::exclusive_scan_by_key(p, keys.begin(), keys.end(), values.begin(), out.begin(),
                                     d.init, op);
      },
      exclusive_reference(d.values, heads, d.init));

  T total = d.init;
  for (const T& v : d.values) total = plus_on_host(total, v);
  expect("reduce",
         [&] { CHECK(pscan::reduce(p, values.begin(), values.end(), d.init, op) == total); }, {});

  const std::size_t segments = d.offsets.size() - 1;
  std::vector<T> sums(segments, d.init);
  for (std::size_t s = 0; s < segments; ++s) {
    for (std::int64_t i = d.offsets[s]; i < d.offsets[s + 1]; ++i) {
      sums[s] = plus_on_host(sums[s], d.values[static_cast<std::size_t>(i)]);
    }
  }
  device_buffer<T> sums_out(segments);
  expect("segmented_reduce",
         [&] {
           pscan::segmented_reduce(p, values.begin(), offsets.begin(), offsets.end(),
                                   sums_out.begin(), d.init, op);
           CHECK(first_mismatch(sums, Fixture::download(sums_out)) == -1);
         },
         {});
}

template <class Fixture, class T>
void check_sizes(const std::vector<std::int64_t>& sizes) {
  CONFORMANCE_SEEDED_RANDOM(random);
  for (std::int64_t n : sizes) check_every_algorithm<Fixture>(make_case<T>(random, n));
}

}  // namespace

TEST_CASE_TEMPLATE("op sees only input elements, init and its own results", Fixture,
                   CUDA_FIXTURES) {
  using pscan::detail::flagged;
  for (const auto& sizes :
       {sizes_around_tiles<tagged8>(), sizes_around_tiles<flagged<tagged8>>()}) {
    check_sizes<Fixture, tagged8>(sizes);
  }
  for (const auto& sizes :
       {sizes_around_tiles<tagged16>(), sizes_around_tiles<flagged<tagged16>>()}) {
    check_sizes<Fixture, tagged16>(sizes);
  }
}
