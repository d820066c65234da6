#pragma once
// Conformance: reduce_by_key and reduce_by_key_into at every run density, with pscan::equal_to
// and with a KeyEq under which unequal keys share a run (the run's first key is the one written).
// Instantiate with CONFORMANCE_REDUCE_BY_KEY_CASES(fixtures...).

#include "reference.hpp"
#include "segmented_cases.hpp"
#include "segments.hpp"
#include "value_kinds.hpp"

#include <cstdint>
#include <utility>
#include <vector>

TEST_CASE_TEMPLATE_DEFINE("reduce_by_key", F, reduce_by_key_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_keyed_input<F>(random, [&](auto kind, const auto& input, const auto& key_values,
                                     auto& in, auto& keys) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto n = std::int64_t(input.size());
    auto check = [&](auto eq) {
      const auto [want_keys, want_values] = expected_runs(key_values, input, op, eq);
      const auto runs = static_cast<std::int64_t>(want_keys.size());
      auto keys_out = F::upload(std::vector<std::int32_t>(std::size_t(n), -1));
      auto values_out = F::upload(make_values<K>(random, n));
      const auto ends = pscan::reduce_by_key(F::policy(), keys.begin(), keys.end(), in.begin(),
                                             keys_out.begin(), values_out.begin(), eq, op);
      CHECK(ends.first - keys_out.begin() == runs);
      CHECK(ends.second - values_out.begin() == runs);
      check_equal(want_keys, leading(F::download(keys_out), runs));
      check_equal(want_values, leading(F::download(values_out), runs));

      INFO("reduce_by_key_into");
      auto runs_out = F::upload(std::vector<std::int64_t>{-1});
      keys_out = F::upload(std::vector<std::int32_t>(std::size_t(n), -1));
      values_out = F::upload(make_values<K>(random, n));
      pscan::reduce_by_key_into(F::policy(), keys.begin(), keys.end(), in.begin(),
                                keys_out.begin(), values_out.begin(), runs_out.begin(), eq, op);
      CHECK(F::download(runs_out)[0] == runs);
      check_equal(want_keys, leading(F::download(keys_out), runs));
      check_equal(want_values, leading(F::download(values_out), runs));
    };
    {
      INFO("pscan::equal_to");
      check(pscan::equal_to<>{});
    }
    {
      INFO("same_bucket: unequal keys in one run");
      check(same_bucket{});
    }
  });
}

#define CONFORMANCE_REDUCE_BY_KEY_CASES(...) \
  TEST_CASE_TEMPLATE_INVOKE(reduce_by_key_case, __VA_ARGS__)
