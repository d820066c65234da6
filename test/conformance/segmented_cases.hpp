#pragma once
// Conformance: segmented_inclusive_scan and segmented_exclusive_scan (head flags), and
// inclusive_scan_by_key / exclusive_scan_by_key (default and custom KeyEq), at every segment
// density. Instantiate with CONFORMANCE_SEGMENTED_CASES(fixtures...).

#include "reference.hpp"
#include "segments.hpp"
#include "value_kinds.hpp"

namespace conformance {

// Calls fn(kind, n, rate) for every kind, size and head rate (see head_rates_for).
template <class Fn>
void for_each_segmentation(Fn&& fn) {
  const std::vector<std::int64_t> sizes = boundary_sizes();
  for_each_kind_and_size(all_kinds{}, sizes, [&](auto kind, std::int64_t n) {
    const std::size_t index = std::size_t(std::find(sizes.begin(), sizes.end(), n) - sizes.begin());
    for (std::uint64_t rate : head_rates_for(index, n)) {
      INFO("a segment starts at each position with probability 1/", rate, " (0: never)");
      fn(kind, n, rate);
    }
  });
}

// For every segmentation, on fresh random values and head flags and a randomly filled output:
// scan(in, heads, out, op, kind) returns out.end() and writes expected(input, heads, op, kind)
// (heads: the segment starts, as heads_from_flags gives them).
template <class F, class Random, class Scan, class Expected>
void check_flag_scan(Random& random, Scan scan, Expected expected) {
  for_each_segmentation([&](auto kind, std::int64_t n, std::uint64_t rate) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    const auto flags = make_head_flags(random, n, rate);
    auto in = F::upload(input);
    auto heads = F::upload(flags);
    auto out = F::upload(make_values<K>(random, n));
    CHECK(scan(in, heads, out, op, kind) == out.end());
    check_equal(expected(input, heads_from_flags(flags), op, kind), F::download(out));
  });
}

// For every segmentation, fresh random values and keys whose runs start at its rate, uploaded:
// fn(kind, input, key_values, in, keys) (the host vectors and the policy's buffers).
template <class F, class Random, class Fn>
void for_each_keyed_input(Random& random, Fn&& fn) {
  for_each_segmentation([&](auto kind, std::int64_t n, std::uint64_t rate) {
    const auto input = make_values<decltype(kind)>(random, n);
    const auto key_values = make_keys(random, n, rate);
    auto in = F::upload(input);
    auto keys = F::upload(key_values);
    fn(kind, input, key_values, in, keys);
  });
}

}  // namespace conformance

TEST_CASE_TEMPLATE_DEFINE("segmented_inclusive_scan", F, segmented_inclusive_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  check_flag_scan<F>(
      random,
      [](auto& in, auto& heads, auto& out, auto op, auto) {
        return pscan::segmented_inclusive_scan(F::policy(), in.begin(), in.end(), heads.begin(),
                                               out.begin(), op);
      },
      [](const auto& input, const auto& heads, auto op, auto) {
        return expected_segmented_inclusive_scan(input, heads, op);
      });
}

TEST_CASE_TEMPLATE_DEFINE("segmented_exclusive_scan", F, segmented_exclusive_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  check_flag_scan<F>(
      random,
      [](auto& in, auto& heads, auto& out, auto op, auto kind) {
        return pscan::segmented_exclusive_scan(F::policy(), in.begin(), in.end(), heads.begin(),
                                               out.begin(), decltype(kind)::init(), op);
      },
      [](const auto& input, const auto& heads, auto op, auto kind) {
        return expected_segmented_exclusive_scan(input, heads, decltype(kind)::init(), op);
      });
}

TEST_CASE_TEMPLATE_DEFINE("inclusive_scan_by_key", F, inclusive_by_key_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_keyed_input<F>(random, [&](auto kind, const auto& input, const auto& key_values,
                                     auto& in, auto& keys) {
    using K = decltype(kind);
    const typename K::op_type op{};
    auto out = F::upload(make_values<K>(random, std::int64_t(input.size())));
    CHECK(pscan::inclusive_scan_by_key(F::policy(), keys.begin(), keys.end(), in.begin(),
                                       out.begin(), op) == out.end());
    const auto heads = heads_from_keys(key_values, pscan::equal_to<>{});
    check_equal(expected_segmented_inclusive_scan(input, heads, op), F::download(out));

    INFO("custom KeyEq");
    pscan::inclusive_scan_by_key(F::policy(), keys.begin(), keys.end(), in.begin(), out.begin(), op,
                                 same_bucket{});
    const auto bucket_heads = heads_from_keys(key_values, same_bucket{});
    check_equal(expected_segmented_inclusive_scan(input, bucket_heads, op), F::download(out));
  });
}

TEST_CASE_TEMPLATE_DEFINE("exclusive_scan_by_key", F, exclusive_by_key_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_keyed_input<F>(random, [&](auto kind, const auto& input, const auto& key_values,
                                     auto& in, auto& keys) {
    using K = decltype(kind);
    const typename K::op_type op{};
    auto out = F::upload(make_values<K>(random, std::int64_t(input.size())));
    CHECK(pscan::exclusive_scan_by_key(F::policy(), keys.begin(), keys.end(), in.begin(),
                                       out.begin(), K::init(), op) == out.end());
    const auto heads = heads_from_keys(key_values, pscan::equal_to<>{});
    check_equal(expected_segmented_exclusive_scan(input, heads, K::init(), op), F::download(out));

    INFO("custom KeyEq");
    pscan::exclusive_scan_by_key(F::policy(), keys.begin(), keys.end(), in.begin(), out.begin(),
                                 K::init(), op, same_bucket{});
    const auto bucket_heads = heads_from_keys(key_values, same_bucket{});
    check_equal(expected_segmented_exclusive_scan(input, bucket_heads, K::init(), op),
                F::download(out));
  });
}

TEST_CASE_TEMPLATE_DEFINE("segmented scans in place", F, segmented_in_place_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(all_kinds{}, sample_sizes(), [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    const auto flags = make_head_flags(random, n, 16);
    auto heads = F::upload(flags);
    auto data = F::upload(input);
    pscan::segmented_inclusive_scan(F::policy(), data.begin(), data.end(), heads.begin(),
                                    data.begin(), op);
    check_equal(expected_segmented_inclusive_scan(input, heads_from_flags(flags), op),
                F::download(data));

    const auto key_values = make_keys(random, n, 16);
    auto keys = F::upload(key_values);
    data = F::upload(input);
    pscan::exclusive_scan_by_key(F::policy(), keys.begin(), keys.end(), data.begin(), data.begin(),
                                 K::init(), op);
    const auto key_heads = heads_from_keys(key_values, pscan::equal_to<>{});
    check_equal(expected_segmented_exclusive_scan(input, key_heads, K::init(), op),
                F::download(data));
  });
}

#define CONFORMANCE_SEGMENTED_CASES(...)                            \
  TEST_CASE_TEMPLATE_INVOKE(segmented_inclusive_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(segmented_exclusive_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(inclusive_by_key_case, __VA_ARGS__);    \
  TEST_CASE_TEMPLATE_INVOKE(exclusive_by_key_case, __VA_ARGS__);    \
  TEST_CASE_TEMPLATE_INVOKE(segmented_in_place_case, __VA_ARGS__)
