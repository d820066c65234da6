// segmented_reduce balanced by merged items (cuda_common/algorithms/segmented_reduce.cuh): each
// warp of a block walks its part of the block's stretch of segment ends and elements together,
// its elements in chunks aligned to the values' index and its ends 32 at a time. The layouts put
// the merged count one short of, on and one past the boundaries of a chunk of every warp, with
// the chunk edges falling inside long segments, between single elements (32 ends and more a
// chunk) and inside runs of empty segments longer than 32; one segment spans more blocks than
// the last block finishes in one chunk, and then more chunks than one a block. Every value kind
// (non-commutative and padded ones among them) against a host loop, on every CUDA policy. Long
// segments whose whole chunks skip shared memory end on a chunk edge or one off it, the values
// 16-byte aligned or not. Bad
// offsets anywhere among many blocks are reported by synchronize() naming the first (the values
// buffer ends where the offsets say, so that compute-sanitizer sees any read past it), and the
// call captures into a graph that replays. The scans by offsets that return nothing, which check
// their offsets the same way where the backend sizes them on the
// device (cuda_chained: offsets_scan.cuh), likewise: around the sizes where its stretches change
// shape, with one segment over every stretch, bad offsets among many blocks, in a graph.

#include "device_fixture.cuh"
#include "stream_support.cuh"

#include <pscan/policies/cuda_chained/tuning.cuh>
#include <pscan/policies/cuda_common/algorithms/segmented_reduce.cuh>

#include "conformance/reference.hpp"
#include "conformance/value_kinds.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using conformance::random_source;

enum class layout { singles, one_segment, empty_runs, long_and_short, many_blocks, chunk_edges };

const char* name_of(layout l) {
  switch (l) {
    case layout::singles:
      return "single elements";
    case layout::one_segment:
      return "one segment after an empty one";
    case layout::empty_runs:
      return "runs of empty segments across chunk edges";
    case layout::long_and_short:
      return "segments of 1 .. 3 chunks between short ones";
    case layout::many_blocks:
      return "one segment over many blocks";
    case layout::chunk_edges:
      return "segments of 2 .. 5 chunks, ending on a chunk edge or one off";
  }
  return "?";
}

// Offsets whose segments + elements come to `merged` (>= 2) items: (segments, elements) chosen by
// the layout; offsets start past 0 so that the first offset is honoured.
std::vector<std::int64_t> make_offsets(random_source& random, layout l, std::int64_t merged,
                                       std::int64_t stretch) {
  const std::int64_t start = random.between(0, 3);
  std::vector<std::int64_t> offsets = {start};
  std::int64_t left = merged;  // merged items still to place: an element or a segment end each
  std::int64_t at = start;
  const auto close = [&](std::int64_t length) {  // a segment of `length` elements, then its end
    length = std::max<std::int64_t>(0, std::min(length, left - 1));
    at += length;
    offsets.push_back(at);
    left -= length + 1;
  };
  while (left > 0) {
    switch (l) {
      case layout::singles:
        close(left == 1 ? 0 : 1);
        break;
      case layout::one_segment:
        close(0);
        close(left - 1);
        break;
      case layout::empty_runs:
        for (std::int64_t i = random.between(stretch / 2, 2 * stretch); i > 0 && left > 0; --i) {
          close(0);
        }
        if (left > 0) close(random.between(1, stretch));
        break;
      case layout::long_and_short:
        close(random.one_in(3) ? random.between(stretch, 3 * stretch) : random.between(0, 5));
        break;
      case layout::many_blocks:
        close(random.between(0, 2));
        if (left > 0) close(left - 3);
        break;
      case layout::chunk_edges:  // stretch: a warp's chunk
        close(random.between(0, 2));
        if (left > 0) close(random.between(2, 5) * stretch + random.between(-1, 1));
        break;
    }
  }
  return offsets;
}

// `shift`: the values start that many elements into their buffer (1: not 16-byte aligned).
template <class Fixture, class K>
void check_layout(random_source& random, layout l, std::int64_t merged, std::int64_t stretch,
                  std::int64_t shift = 0) {
  const std::string layout_name = name_of(l);
  INFO("layout: ", layout_name, ", merged items: ", merged, ", values shifted by ", shift);
  const typename K::op_type op{};
  const std::vector<std::int64_t> offsets = make_offsets(random, l, merged, stretch);
  const auto buffer =
      conformance::make_values<K>(random, shift + offsets.back() + random.between(0, 2));
  const std::vector<typename K::value_type> values(buffer.begin() + shift, buffer.end());
  const auto segments = static_cast<std::int64_t>(offsets.size()) - 1;
  REQUIRE(segments + offsets.back() - offsets.front() == merged);
  auto in = Fixture::upload(buffer);
  auto offs = Fixture::upload(offsets);
  auto out = Fixture::upload(conformance::make_values<K>(random, segments));
  pscan::segmented_reduce(Fixture::policy(), in.begin() + shift, offs.begin(), offs.end(),
                          out.begin(), K::init(), op);
  conformance::check_equal(conformance::expected_segmented_reduce(values, offsets, K::init(), op),
                           Fixture::download(out));
}

// Merged items of a chunk of every warp of a block (the least a block's stretch holds), in the
// tuning of the build the device runs.
template <class T>
std::int64_t least_stretch() {
  return pscan::cuda_common::with_build([](auto build) {
    using cfg =
        pscan::cuda_common::segmented_reduce_tuning<T, decltype(build)::target>;
    return std::int64_t{cfg::block_threads} * cfg::items;
  });
}

// The current device's SMs.
std::int64_t sm_count() {
  int device = 0, count = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  PSCAN_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

// Elements of a warp's chunk, in the tuning of the build the device runs.
template <class T>
std::int64_t warp_chunk() {
  return pscan::cuda_common::with_build([](auto build) {
    using cfg = pscan::cuda_common::segmented_reduce_tuning<T, decltype(build)::target>;
    return std::int64_t{32} * cfg::items;
  });
}

}  // namespace

TEST_CASE_TEMPLATE("segmented_reduce chunks of merged items", Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  conformance::for_each_kind_and_size(
      conformance::all_kinds{}, {1, 2, 3}, [&](auto kind, std::int64_t chunks) {
        using K = decltype(kind);
        const std::int64_t stretch = least_stretch<typename K::value_type>();
        for (layout l : {layout::singles, layout::one_segment, layout::empty_runs,
                         layout::long_and_short}) {
          for (std::int64_t merged :
               {chunks * stretch - 1, chunks * stretch, chunks * stretch + 1}) {
            if (merged <= conformance::size_cap()) {
              check_layout<Fixture, K>(random, l, merged, stretch);
            }
          }
        }
      });
}

// Long segments: the whole chunks before a segment's end skip shared memory (read straight into
// registers, vectorized where the values are 16-byte aligned); the chunk after them, holding the
// end, takes the shared-memory walk.
TEST_CASE_TEMPLATE("segmented_reduce of long segments ending at chunk edges, values aligned or not",
                   Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  // A full wave of blocks with several chunks a warp: fewer leave each warp one chunk or none.
  const std::int64_t blocks = sm_count() * 2048 / 256;
  conformance::for_each_kind_and_size(
      conformance::kind_list<conformance::float_plus, conformance::affine_chain,
                             conformance::vec3_sum>{},
      {0, 1}, [&](auto kind, std::int64_t shift) {
        using K = decltype(kind);
        const std::int64_t stretch = least_stretch<typename K::value_type>();
        const std::int64_t chunk = warp_chunk<typename K::value_type>();
        for (std::int64_t waves : {4, 7}) {
          check_layout<Fixture, K>(random, layout::chunk_edges,
                                   conformance::capped(waves * blocks * stretch + 5), chunk,
                                   shift);
        }
      });
}

// More blocks (a chunk a warp each) than the last block finishes in one round (its 256 threads:
// affine maps take blocks of 256), then several chunks a warp of a full wave (at most 2048
// threads an SM), unless PSCAN_TEST_MAX_N caps the size.
TEST_CASE_TEMPLATE("segmented_reduce of one segment over many blocks", Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  using K = conformance::affine_chain;
  const std::int64_t stretch = least_stretch<K::value_type>();
  const std::int64_t wave = sm_count() * 2048 / 256;
  for (std::int64_t merged : {stretch * 259 + 1, 3 * wave * stretch + 7}) {
    check_layout<Fixture, K>(random, layout::many_blocks, conformance::capped(merged), stretch);
  }
}

namespace {

// Offsets of `segments` segments of 0 .. 2*mean elements, from 0.
std::vector<std::int64_t> random_offsets(random_source& random, std::int64_t segments,
                                         std::int64_t mean) {
  std::vector<std::int64_t> offsets = {0};
  for (std::int64_t i = 0; i < segments; ++i) {
    offsets.push_back(offsets.back() + random.between(0, 2 * mean));
  }
  return offsets;
}

}  // namespace

TEST_CASE_TEMPLATE("segmented_reduce reports the first bad offset, reading nothing past the values",
                   Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  using K = conformance::int32_plus;
  const typename K::op_type op{};
  for (std::int64_t mean : {1, 40, 3000}) {
    const std::int64_t segments =
        std::max<std::int64_t>(2, conformance::capped(4'000'000) / (mean + 1));
    const std::vector<std::int64_t> good = random_offsets(random, segments, mean);
    auto values = Fixture::upload(conformance::make_values<K>(random, good.back()));
    auto out = Fixture::upload(std::vector<std::int32_t>(static_cast<std::size_t>(segments)));
    const auto p = Fixture::policy();
    const auto reduce = [&](const std::vector<std::int64_t>& offsets) {
      auto offs = Fixture::upload(offsets);
      pscan::segmented_reduce(p, values.begin(), offs.begin(), offs.end(), out.begin(), K::init(),
                              op);
      p.synchronize();
    };
    const auto at = [&] { return random.between(1, segments); };
    struct fault {
      const char* what;
      std::vector<std::int64_t> offsets;
      std::int64_t first_bad;
    };
    std::vector<fault> faults;
    {  // one offset a little below the one before
      fault f{"a dip", good, at()};
      f.offsets[f.first_bad] = f.offsets[f.first_bad - 1] - 1;
      faults.push_back(f);
    }
    {  // one far past every element, so the one after it is bad
      fault f{"a jump", good, at()};
      f.first_bad = std::min(f.first_bad, segments - 1) + 1;
      f.offsets[f.first_bad - 1] = std::int64_t{1} << 40;
      faults.push_back(f);
    }
    {  // one negative, far before the values
      fault f{"a negative offset", good, at()};
      f.offsets[f.first_bad] = -(std::int64_t{1} << 40);
      faults.push_back(f);
    }
    {  // two dips: the lower index is named
      fault f{"two dips", good, at()};
      const std::int64_t later = std::min(segments, f.first_bad + random.between(1, 1000));
      f.offsets[later] = -1;
      f.offsets[f.first_bad] = f.offsets[f.first_bad - 1] - 1;
      faults.push_back(f);
    }
    faults.push_back({"a negative first offset", good, 0});
    faults.back().offsets[0] = -3;
    for (const fault& f : faults) {
      INFO("mean ", mean, ", ", f.what, " at ", f.first_bad);
      const std::string named = "offsets[" + std::to_string(f.first_bad) + "]";
      conformance::check_rejected([&] { reduce(f.offsets); }, {"segmented_reduce", named.c_str()});
      CHECK_NOTHROW(reduce(good));  // the report was taken, and good offsets add none
    }
  }
}

TEST_CASE_TEMPLATE("segmented_reduce captured into a graph replays, reporting bad offsets",
                   Fixture, CUDA_FIXTURES) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  using K = affine_chain;
  using T = K::value_type;
  const K::op_type op{};
  const std::vector<std::int64_t> offsets = random_offsets(random, capped(20000), 50);
  const std::size_t segments = offsets.size() - 1;
  owned_stream stream;
  device_buffer<T> values(static_cast<std::size_t>(offsets.back())), out(segments);
  device_buffer<std::int64_t> offs(offsets.size());
  copy_to_device(offs.begin(), offsets, stream.get());
  const auto p = Fixture::policy().on(stream.get());
  const captured_graph graph(stream.get(), [&] {
    pscan::segmented_reduce(p, values.begin(), offs.begin(), offs.end(), out.begin(), K::init(),
                            op);
    check_rejected([&] { p.synchronize(); }, {"capturing"});
    check_rejected(
        [&] {
          pscan::segmented_reduce(p.checked(), values.begin(), offs.begin(), offs.end(),
                                  out.begin(), K::init(), op);
        },
        {"segmented_reduce", "checked", "graph"});
  });
  CHECK(graph.kernel_nodes() == 1);
  for (int replay = 0; replay < 2; ++replay) {
    INFO("replay ", replay);
    const auto input = make_values<K>(random, offsets.back());
    copy_to_device(values.begin(), input, stream.get());
    graph.launch(stream.get());
    check_equal(expected_segmented_reduce(input, offsets, K::init(), op),
                copy_to_host(out.begin(), segments, stream.get()));
    CHECK_NOTHROW(p.synchronize());
  }
  std::vector<std::int64_t> bad = offsets;
  const std::int64_t first_bad = random.between(1, static_cast<std::int64_t>(segments));
  bad[first_bad] = bad[first_bad - 1] - 1;
  copy_to_device(offs.begin(), bad, stream.get());
  graph.launch(stream.get());
  const std::string named = "offsets[" + std::to_string(first_bad) + "]";
  check_rejected([&] { p.synchronize(); }, {"segmented_reduce", named.c_str()});
}

namespace {

// Whether the policy's scans by offsets returning nothing are sized on the device (no wait).
template <class Fixture>
constexpr bool sized_on_device() {
  return std::decay_t<decltype(Fixture::policy())>::sizes_offsets_on_device;
}

// Whether P asks for bitwise reproducible results (cuda_chained.deterministic()).
template <class P, class = void>
inline constexpr bool asks_determinism = false;
template <class P>
inline constexpr bool asks_determinism<P, std::void_t<decltype(P::is_deterministic)>> =
    P::is_deterministic;

// Elements of the chained backend's tile, in the tuning of the build the device runs.
template <class T>
std::int64_t chained_tile_items() {
  return pscan::cuda_common::with_build([](auto build) {
    using cfg = pscan::cuda_chained_backend::tuning<T, decltype(build)::target>;
    return std::int64_t{cfg::tile_items};
  });
}

// Both scans by offsets returning nothing, on fresh values, against a host loop.
template <class Fixture, class K>
void check_scans_into(random_source& random, const std::vector<std::int64_t>& offsets) {
  const typename K::op_type op{};
  const auto values = conformance::make_values<K>(random, offsets.back());
  const auto before = conformance::make_values<K>(random, offsets.back());
  auto in = Fixture::upload(values);
  auto offs = Fixture::upload(offsets);
  auto out = Fixture::upload(before);
  pscan::inclusive_scan_by_offsets_into(Fixture::policy(), in.begin(), offs.begin(), offs.end(),
                                        out.begin(), op);
  conformance::check_equal(
      conformance::expected_scan_by_offsets<false>(values, offsets, before, K::init(), op),
      Fixture::download(out));
  auto exclusive_out = Fixture::upload(before);
  pscan::exclusive_scan_by_offsets_into(Fixture::policy(), in.begin(), offs.begin(), offs.end(),
                                        exclusive_out.begin(), K::init(), op);
  conformance::check_equal(
      conformance::expected_scan_by_offsets<true>(values, offsets, before, K::init(), op),
      Fixture::download(exclusive_out));
}

}  // namespace

// A tile one short, on and one past; stretches of warps' shares of a tile; then more tiles than a
// wave of blocks holds (stretches of several tiles, a tail reduced first), for short segments,
// long ones and one segment over all.
TEST_CASE_TEMPLATE("scans by offsets returning nothing, across the shapes of their stretches",
                   Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  const auto run = [&](auto kind) {
    using K = decltype(kind);
    const std::int64_t tile = chained_tile_items<typename K::value_type>();
    // A wave holds at most 8 blocks an SM (2048 threads of 256).
    const std::int64_t wave_tiles = sm_count() * 8;
    for (std::int64_t n : {tile - 1, tile, tile + 1, 37 * tile + 5, wave_tiles * tile + 1,
                           3 * wave_tiles * tile + 7}) {
      if (n > conformance::size_cap()) continue;
      for (std::int64_t mean : {std::int64_t{9}, std::int64_t{1000}, n}) {
        INFO("n ", n, ", mean segment ", mean);
        std::vector<std::int64_t> offsets = {random.between(0, 3)};
        while (offsets.back() < n) {
          offsets.push_back(std::min(n, offsets.back() + random.between(0, 2 * mean)));
        }
        check_scans_into<Fixture, K>(random, offsets);
      }
    }
  };
  run(conformance::int32_plus{});
  run(conformance::affine_chain{});
}

TEST_CASE_TEMPLATE("scans by offsets returning nothing report the first bad offset", Fixture,
                   CUDA_FIXTURES) {
  if constexpr (sized_on_device<Fixture>()) {
    CONFORMANCE_SEEDED_RANDOM(random);
    using K = conformance::int32_plus;
    for (std::int64_t mean : {1, 40, 3000}) {
      for (std::int64_t elements : {std::int64_t{100'000}, std::int64_t{12'000'000}}) {
        const std::int64_t segments =
            std::max<std::int64_t>(2, conformance::capped(elements) / (mean + 1));
        const std::vector<std::int64_t> good = random_offsets(random, segments, mean);
        auto values = Fixture::upload(conformance::make_values<K>(random, good.back()));
        auto out =
            Fixture::upload(std::vector<std::int32_t>(static_cast<std::size_t>(good.back())));
        const auto p = Fixture::policy();
        const auto scan = [&](const std::vector<std::int64_t>& offsets) {
          auto offs = Fixture::upload(offsets);
          pscan::inclusive_scan_by_offsets_into(p, values.begin(), offs.begin(), offs.end(),
                                                out.begin());
          p.synchronize();
        };
        for (int fault = 0; fault < 4; ++fault) {
          std::vector<std::int64_t> bad = good;
          std::int64_t first_bad = random.between(1, segments);
          if (fault == 0) {  // a dip
            bad[first_bad] = bad[first_bad - 1] - 1;
          } else if (fault == 1) {  // far past every element: the one after it is bad
            first_bad = std::min(first_bad, segments - 1) + 1;
            bad[first_bad - 1] = std::int64_t{1} << 40;
          } else if (fault == 2) {  // two dips: the lower index is named
            const std::int64_t later = std::min(segments, first_bad + random.between(1, 1000));
            bad[later] = -1;
            bad[first_bad] = bad[first_bad - 1] - 1;
          } else {  // a negative first offset: nothing is read
            first_bad = 0;
            bad[0] = -3;
          }
          INFO("mean ", mean, ", ", elements, " elements, fault ", fault, " at ", first_bad);
          const std::string named = "offsets[" + std::to_string(first_bad) + "]";
          conformance::check_rejected([&] { scan(bad); }, {"synchronize", named.c_str()});
          CHECK_NOTHROW(scan(good));  // the report was taken, and good offsets add none
        }
      }
    }
  }
}

TEST_CASE_TEMPLATE("scans by offsets returning nothing captured into a graph replay", Fixture,
                   CUDA_FIXTURES) {
  if constexpr (sized_on_device<Fixture>()) {
    using namespace conformance;
    CONFORMANCE_SEEDED_RANDOM(random);
    using K = affine_chain;
    using T = K::value_type;
    const K::op_type op{};
    const std::vector<std::int64_t> offsets = random_offsets(random, capped(20000), 50);
    const auto n = static_cast<std::size_t>(offsets.back());
    owned_stream stream;
    device_buffer<T> values(n), out(n), exclusive_out(n);
    device_buffer<std::int64_t> offs(offsets.size());
    copy_to_device(offs.begin(), offsets, stream.get());
    const auto p = Fixture::policy().on(stream.get());
    if constexpr (asks_determinism<std::decay_t<decltype(p)>>) {
      // Floating-point affine maps in a fixed order: the scan sized on the host, which waits.
      owned_stream capturing;
      check_rejected(
          [&] {
            const captured_graph refused(capturing.get(), [&] {
              pscan::inclusive_scan_by_offsets_into(p.on(capturing.get()), values.begin(),
                                                    offs.begin(), offs.end(), out.begin(), op);
            });
          },
          {"inclusive_scan_by_offsets_into", "graph"});
      return;
    }
    const captured_graph graph(stream.get(), [&] {
      pscan::inclusive_scan_by_offsets_into(p, values.begin(), offs.begin(), offs.end(),
                                            out.begin(), op);
      pscan::exclusive_scan_by_offsets_into(p, values.begin(), offs.begin(), offs.end(),
                                            exclusive_out.begin(), K::init(), op);
      check_rejected(
          [&] {
            pscan::inclusive_scan_by_offsets(p, values.begin(), offs.begin(), offs.end(),
                                             out.begin(), op);
          },
          {"inclusive_scan_by_offsets", "graph", "_into"});
    });
    CHECK(graph.kernel_nodes() == 2);
    const std::vector<T> before(n);  // every position lies in a segment: all overwritten
    for (int replay = 0; replay < 2; ++replay) {
      INFO("replay ", replay);
      const auto input = make_values<K>(random, offsets.back());
      copy_to_device(values.begin(), input, stream.get());
      graph.launch(stream.get());
      check_equal(expected_scan_by_offsets<false>(input, offsets, before, K::init(), op),
                  copy_to_host(out.begin(), n, stream.get()));
      check_equal(expected_scan_by_offsets<true>(input, offsets, before, K::init(), op),
                  copy_to_host(exclusive_out.begin(), n, stream.get()));
      CHECK_NOTHROW(p.synchronize());
    }
    std::vector<std::int64_t> bad = offsets;
    const std::int64_t first_bad = random.between(1, static_cast<std::int64_t>(offsets.size()) - 1);
    bad[first_bad] = bad[first_bad - 1] - 1;
    copy_to_device(offs.begin(), bad, stream.get());
    graph.launch(stream.get());
    const std::string named = "offsets[" + std::to_string(first_bad) + "]";
    check_rejected([&] { p.synchronize(); }, {"synchronize", named.c_str()});
  }
}
