#pragma once
// Distributed: reduce_by_key and reduce_by_key_into with runs that span ranks (default and custom
// KeyEq). A run belongs to the rank where it ends. Instantiate with
// DISTRIBUTED_REDUCE_BY_KEY_CASES(fixtures...).

#include "segmented_cases.hpp"
#include "support.hpp"

namespace distributed_test {

// The runs of the global keys (pscan::seq over the gathered sequence) that end in this rank's
// range [offset, offset + n): the first keys and the values this rank must hold.
template <class V, class Op, class KeyEq>
std::pair<std::vector<std::int32_t>, std::vector<V>> expected_own_runs(
    const std::vector<std::int32_t>& keys, const std::vector<V>& values, std::size_t offset,
    std::size_t n, Op op, KeyEq eq) {
  std::vector<std::int32_t> run_keys(keys.size());
  std::vector<V> run_values(values.size());
  const auto runs = pscan::reduce_by_key(pscan::seq, keys.begin(), keys.end(), values.begin(),
                                         run_keys.begin(), run_values.begin(), eq, op)
                        .first -
                    run_keys.begin();
  // Run r ends at the r-th position i with i + 1 == size or a new run at i + 1.
  std::size_t before = 0, own = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i + 1 < keys.size() && eq(keys[i], keys[i + 1])) continue;  // not a run's last
    if (i < offset) {
      ++before;
    } else if (i < offset + n) {
      ++own;
    }
  }
  CHECK(before + own <= static_cast<std::size_t>(runs));
  const auto first = static_cast<std::ptrdiff_t>(before), last = first + std::ptrdiff_t(own);
  return {std::vector<std::int32_t>(run_keys.begin() + first, run_keys.begin() + last),
          std::vector<V>(run_values.begin() + first, run_values.begin() + last)};
}

}  // namespace distributed_test

TEST_CASE_TEMPLATE_DEFINE("distributed reduce_by_key", F, distributed_reduce_by_key_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  for_each_keyed_input<F>(random, [&](auto kind, const auto& input, const auto& all,
                                     const auto& all_keys, auto& in, auto& keys) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto n = std::int64_t(input.size());
    // Each call is two MPI_Allgathers: the custom KeyEq checks only reduce_by_key.
    const auto check = [&](auto eq, bool into) {
      const auto [want_keys, want_values] =
          expected_own_runs(all_keys, all.global, all.offset, input.size(), op, eq);
      const auto runs = static_cast<std::int64_t>(want_keys.size());
      auto keys_out = F::upload(std::vector<std::int32_t>(std::size_t(n), -1));
      auto values_out = F::upload(make_values<K>(random, n));
      const auto ends = pscan::reduce_by_key(distributed_policy<F>(), keys.begin(), keys.end(),
                                             in.begin(), keys_out.begin(), values_out.begin(), eq,
                                             op);
      CHECK(ends.first - keys_out.begin() == runs);
      CHECK(ends.second - values_out.begin() == runs);
      check_equal(want_keys, conformance::leading(F::download(keys_out), runs));
      check_equal(want_values, conformance::leading(F::download(values_out), runs));

      if (!into) return;
      INFO("reduce_by_key_into");
      auto runs_out = F::upload(std::vector<std::int64_t>{-1});
      pscan::reduce_by_key_into(distributed_policy<F>(), keys.begin(), keys.end(), in.begin(),
                                keys_out.begin(), values_out.begin(), runs_out.begin(), eq, op);
      CHECK(F::download(runs_out)[0] == runs);
      check_equal(want_values, conformance::leading(F::download(values_out), runs));
    };
    check(pscan::equal_to<>{}, true);
    INFO("custom KeyEq");
    check(same_bucket{}, false);
  });
}

#define DISTRIBUTED_REDUCE_BY_KEY_CASES(...) \
  TEST_CASE_TEMPLATE_INVOKE(distributed_reduce_by_key_case, __VA_ARGS__)
