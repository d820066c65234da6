// segmented_reduce balanced by merged items (cuda_common/algorithms/segmented_reduce.cuh): a block
// walks its stretch of segment ends and elements together in steps of a fixed number of them. The
// layouts put the merged count one short of, on and one past step boundaries, with the step edges
// falling inside long segments, between single elements and inside runs of empty segments; one
// segment spans more blocks than the last block finishes in one chunk, and then more steps than
// one a block. Every value kind (non-commutative and padded ones among them) against a host loop,
// on every CUDA policy.

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

enum class layout { singles, one_segment, empty_runs, long_and_short, many_blocks };

const char* name_of(layout l) {
  switch (l) {
    case layout::singles:
      return "single elements";
    case layout::one_segment:
      return "one segment after an empty one";
    case layout::empty_runs:
      return "runs of empty segments across step edges";
    case layout::long_and_short:
      return "segments of 1 .. 3 steps between short ones";
    case layout::many_blocks:
      return "one segment over many blocks";
  }
  return "?";
}

// Offsets whose segments + elements come to `merged` (>= 2) items: (segments, elements) chosen by
// the layout; offsets start past 0 so that the first offset is honoured.
std::vector<std::int64_t> make_offsets(random_source& random, layout l, std::int64_t merged,
                                       std::int64_t step) {
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
        for (std::int64_t i = random.between(step / 2, 2 * step); i > 0 && left > 0; --i) close(0);
        if (left > 0) close(random.between(1, step));
        break;
      case layout::long_and_short:
        close(random.one_in(3) ? random.between(step, 3 * step) : random.between(0, 5));
        break;
      case layout::many_blocks:
        close(random.between(0, 2));
        if (left > 0) close(left - 3);
        break;
    }
  }
  return offsets;
}

template <class Fixture, class K>
void check_layout(random_source& random, layout l, std::int64_t merged, std::int64_t step) {
  const std::string layout_name = name_of(l);
  INFO("layout: ", layout_name, ", merged items: ", merged);
  const typename K::op_type op{};
  const std::vector<std::int64_t> offsets = make_offsets(random, l, merged, step);
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

// Merged items a step, in the tuning of the build the device runs.
template <class T>
std::int64_t step_items() {
  return pscan::cuda::with_build([](auto build) {
    using cfg = pscan::cuda::segmented_reduce_tuning<T, decltype(build)::target>;
    return std::int64_t{cfg::block_threads} * cfg::items;
  });
}

}  // namespace

TEST_CASE_TEMPLATE("segmented_reduce steps of merged items", Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  conformance::for_each_kind_and_size(
      conformance::all_kinds{}, {1, 2, 3}, [&](auto kind, std::int64_t steps) {
        using K = decltype(kind);
        const std::int64_t step = step_items<typename K::value_type>();
        for (layout l : {layout::singles, layout::one_segment, layout::empty_runs,
                         layout::long_and_short}) {
          for (std::int64_t merged : {steps * step - 1, steps * step, steps * step + 1}) {
            if (merged <= conformance::size_cap()) {
              check_layout<Fixture, K>(random, l, merged, step);
            }
          }
        }
      });
}

// More blocks (a step each) than the last block finishes in one chunk (its 256 threads: affine
// maps take blocks of 256), then several steps a block of a full wave (at most 2048 threads an
// SM), unless PSCAN_TEST_MAX_N caps the size.
TEST_CASE_TEMPLATE("segmented_reduce of one segment over many blocks", Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  using K = conformance::affine_chain;
  const std::int64_t step = step_items<K::value_type>();
  int device = 0, sm_count = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  PSCAN_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  const std::int64_t wave = std::int64_t{sm_count} * 2048 / 256;
  for (std::int64_t merged : {step * 259 + 1, 3 * wave * step + 7}) {
    check_layout<Fixture, K>(random, layout::many_blocks, conformance::capped(merged), step);
  }
}
