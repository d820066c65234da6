#pragma once
// Conformance: inputs of 2^24+5 elements (many tiles, several levels of any recursion), int32 and
// plus only to keep the run time down, and one exact_plus scan of them as double. Instantiate with CONFORMANCE_LARGE_CASES(fixtures...).

#include "reference.hpp"
#include "segments.hpp"
#include "value_kinds.hpp"

namespace conformance {
struct as_double {
  CONFORMANCE_HD double operator()(std::int32_t x) const { return x; }
};
}  // namespace conformance

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
    INFO("transform_inclusive_scan with exact_plus (the values as double: sums below 2^53)");
    std::vector<double> expected(input.size());
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < input.size(); ++i) expected[i] = static_cast<double>(sum += input[i]);
    auto sums = F::upload(std::vector<double>(input.size()));
    pscan::transform_inclusive_scan(F::policy(), in.begin(), in.end(), sums.begin(),
                                    pscan::exact_plus<>{}, as_double{});
    check_equal(expected, F::download(sums));
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

    INFO("inclusive_scan_by_offsets");
    const auto before = F::download(out);
    CHECK(pscan::inclusive_scan_by_offsets(F::policy(), in.begin(), offs.begin(), offs.end(),
                                           out.begin(), op) == out.begin() + offsets.back());
    check_equal(expected_scan_by_offsets<false>(input, offsets, before, K::init(), op),
                F::download(out));
  }
  {
    INFO("reduce_by_key");
    const auto keys = make_keys(random, large_size, 100000);
    auto key_values = F::upload(keys);
    auto run_keys = F::upload(std::vector<std::int32_t>(input.size()));
    auto run_values = F::upload(std::vector<std::int32_t>(input.size()));
    const auto ends = pscan::reduce_by_key(F::policy(), key_values.begin(), key_values.end(),
                                           in.begin(), run_keys.begin(), run_values.begin(),
                                           pscan::equal_to<>{}, op);
    const auto expected = expected_runs(keys, input, op, pscan::equal_to<>{});
    const auto runs = static_cast<std::int64_t>(expected.first.size());
    CHECK(ends.first == run_keys.begin() + runs);
    CHECK(ends.second == run_values.begin() + runs);
    check_equal(expected.first, leading(F::download(run_keys), runs));
    check_equal(expected.second, leading(F::download(run_values), runs));
  }
}

#define CONFORMANCE_LARGE_CASES(...) TEST_CASE_TEMPLATE_INVOKE(large_case, __VA_ARGS__)
