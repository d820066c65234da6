#pragma once
// Conformance: inputs of 2^24+5 elements (many tiles, several levels of any recursion), int32 and
// plus only to keep the run time down. Instantiate with CONFORMANCE_LARGE_CASES(fixtures...).

#include "reference.hpp"
#include "segments.hpp"
#include "value_kinds.hpp"

TEST_CASE_TEMPLATE_DEFINE("large inputs", F, large_case) {
  using namespace conformance;
  if (large_size > size_cap()) {
    skip_case("PSCAN_TEST_MAX_N is below " + std::to_string(large_size));
  }
  CONFORMANCE_SEEDED_RANDOM(random);
  using K = int32_plus;
  const pscan::plus<> op{};
  const auto input = make_values<K>(random, large_size);
  auto in = F::upload(input);
  auto out = F::upload(std::vector<std::int32_t>(input.size()));
  {
    INFO("inclusive_scan");
    pscan::inclusive_scan(F::policy(), in.begin(), in.end(), out.begin(), op);
    check_equal(expected_inclusive_scan(input, op), F::download(out));
  }
  {
    INFO("exclusive_scan");
    pscan::exclusive_scan(F::policy(), in.begin(), in.end(), out.begin(), K::init(), op);
    check_equal(expected_exclusive_scan(input, K::init(), op), F::download(out));
  }
  {
    INFO("reduce");
    CHECK(pscan::reduce(F::policy(), in.begin(), in.end(), K::init(), op) ==
          expected_reduce(input, K::init(), op));
  }
  {
    INFO("segmented_inclusive_scan");
    const auto flags = make_head_flags(random, large_size, 100000);
    auto heads = F::upload(flags);
    pscan::segmented_inclusive_scan(F::policy(), in.begin(), in.end(), heads.begin(), out.begin(),
                                    op);
    check_equal(expected_segmented_inclusive_scan(input, heads_from_flags(flags), op),
                F::download(out));
  }
  {
    INFO("segmented_reduce");
    const auto offsets = make_offsets<std::int64_t>(random, large_size, offsets_layout::mixed);
    auto offs = F::upload(offsets);
    auto sums = F::upload(std::vector<std::int32_t>(offsets.size() - 1));
    pscan::segmented_reduce(F::policy(), in.begin(), offs.begin(), offs.end(), sums.begin(),
                            K::init(), op);
    check_equal(expected_segmented_reduce(input, offsets, K::init(), op), F::download(sums));
  }
}

#define CONFORMANCE_LARGE_CASES(...) TEST_CASE_TEMPLATE_INVOKE(large_case, __VA_ARGS__)
