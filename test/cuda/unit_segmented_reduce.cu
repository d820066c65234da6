// segmented_reduce balanced by merged items (cuda_common/algorithms/segmented_reduce.cuh): a tile
// is a fixed number of segment ends and elements together. The layouts put the merged count one
// short of, on and one past tile boundaries, with the tile edges falling inside long segments,
// between single elements and inside runs of empty segments; one segment spans more tiles than
// the join pass takes in one chunk. Every value kind (non-commutative and padded ones among them)
// against a host loop, on every CUDA policy.

#include "device_fixture.cuh"

#include <cuda_common/algorithms/segmented_reduce.cuh>

#include "conformance/reference.hpp"
#include "conformance/value_kinds.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using conformance::random_source;

enum class layout { singles, one_segment, empty_runs, long_and_short, many_tiles };

const char* name_of(layout l) {
  switch (l) {
    case layout::singles:
      return "single elements";
    case layout::one_segment:
      return "one segment after an empty one";
    case layout::empty_runs:
      return "runs of empty segments across tile edges";
    case layout::long_and_short:
      return "segments of 1 .. 3 tiles between short ones";
    case layout::many_tiles:
      return "one segment over more tiles than a join chunk";
  }
  return "?";
}

// Offsets whose segments + elements come to `merged` (>= 2) items: (segments, elements) chosen by
// the layout; offsets start past 0 so that the first offset is honoured.
std::vector<std::int64_t> make_offsets(random_source& random, layout l, std::int64_t merged,
                                       std::int64_t tile) {
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
        for (std::int64_t i = random.between(tile / 2, 2 * tile); i > 0 && left > 0; --i) close(0);
        if (left > 0) close(random.between(1, tile));
        break;
      case layout::long_and_short:
        close(random.one_in(3) ? random.between(tile, 3 * tile) : random.between(0, 5));
        break;
      case layout::many_tiles:
        close(random.between(0, 2));
        if (left > 0) close(left - 3);
        break;
    }
  }
  return offsets;
}

template <class Fixture, class K>
void check_layout(random_source& random, layout l, std::int64_t merged, std::int64_t tile) {
  const std::string layout_name = name_of(l);
  INFO("layout: ", layout_name, ", merged items: ", merged);
  const typename K::op_type op{};
  const std::vector<std::int64_t> offsets = make_offsets(random, l, merged, tile);
  const auto values = conformance::make_values<K>(random, offsets.back() + random.between(0, 2));
  const auto segments = static_cast<std::int64_t>(offsets.size()) - 1;
  REQUIRE(segments + offsets.back() - offsets.front() == merged);
  auto in = Fixture::upload(values);
  auto offs = Fixture::upload(offsets);
  auto out = Fixture::upload(conformance::make_values<K>(random, segments));
  pscan::segmented_reduce(Fixture::policy(), in.begin(), offs.begin(), offs.end(), out.begin(),
                          K::init(), op);
  conformance::check_equal(conformance::expected_segmented_reduce(values, offsets, K::init(), op),
                           Fixture::download(out));
}

}  // namespace

TEST_CASE_TEMPLATE("segmented_reduce tiles of merged items", Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  conformance::for_each_kind_and_size(
      conformance::all_kinds{}, {1, 2, 3}, [&](auto kind, std::int64_t tiles) {
        using K = decltype(kind);
        // The same on every target.
        using cfg = pscan::cuda::segmented_reduce_tuning<typename K::value_type,
                                                         pscan::cuda::target::sm90>;
        const std::int64_t tile = std::int64_t{cfg::block_threads} * cfg::items;
        for (layout l : {layout::singles, layout::one_segment, layout::empty_runs,
                         layout::long_and_short}) {
          for (std::int64_t merged : {tiles * tile - 1, tiles * tile, tiles * tile + 1}) {
            if (merged <= conformance::size_cap()) {
              check_layout<Fixture, K>(random, l, merged, tile);
            }
          }
        }
      });
}

// More tiles than one join chunk unless PSCAN_TEST_MAX_N caps the size (then a few tiles).
TEST_CASE_TEMPLATE("segmented_reduce of one segment over many tiles", Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  using K = conformance::affine_chain;
  // The same on every target.
  using cfg = pscan::cuda::segmented_reduce_tuning<K::value_type, pscan::cuda::target::sm90>;
  const std::int64_t tile = std::int64_t{cfg::block_threads} * cfg::items;
  const std::int64_t chunk_tiles = std::int64_t{cfg::join_threads} * cfg::join_items;
  check_layout<Fixture, K>(random, layout::many_tiles,
                           conformance::capped(tile * (chunk_tiles + 3) + 1), tile);
}
