#pragma once
// Distributed: segmented scans by head flags and by key (default and custom KeyEq) with segments
// that span ranks, in place, and segmented_reduce with rank-local offsets. Instantiate with
// DISTRIBUTED_SEGMENTED_CASES(fixtures...).

#include "support.hpp"

namespace distributed_test {

// Calls fn(kind, n, rate) for every kind, split, base size and head-rate variant (one variant,
// rotating, for the largest size), n and rate being this rank's.
template <class Kinds, class Fn>
void for_each_segmentation(Kinds kinds, Fn&& fn) {
  std::uint64_t rotation = 0;
  for (const split l : all_splits) {
    const std::string split_name = name_of(l);
    INFO("split over the ranks: ", split_name);
    for_each_kind_and_size(kinds, base_sizes(), [&](auto kind, std::int64_t base) {
      const bool every_variant = base < base_sizes().back();
      const std::uint64_t first = every_variant ? 0 : rotation++ % head_rate_variants;
      const std::uint64_t last = every_variant ? head_rate_variants : first + 1;
      for (std::uint64_t variant = first; variant < last; ++variant) {
        const std::uint64_t rate = head_rate(variant, world());
        INFO("head rate variant ", variant, ": on this rank a head with probability 1/", rate,
             " (0: never)");
        fn(kind, local_size(l, world(), base), rate);
      }
    });
  }
}

// For every segmentation: scan(policy, in, flags, out, op, init) returns out.end() and writes
// this rank's slice of what scan(pscan::seq, ...) gives over the gathered global input and flags
// (as pointers: the generic segmented path's functors are host-device code, fine on pointers).
template <class F, class Scan>
void check_flag_scan(random_source& random, Scan scan) {
  for_each_segmentation(kinds_of_t<F>{}, [&](auto kind, std::int64_t n, std::uint64_t rate) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    const auto flags = make_rank_flags(random, n, rate);
    const auto all = gather(input);
    const auto all_flags = gather(flags).global;
    auto expected = all.global;
    scan(pscan::seq, all.global.data(), all.global.data() + all.global.size(), all_flags.data(),
         expected.data(), op, K::init());
    auto in = F::upload(input);
    auto heads = F::upload(flags);
    auto out = F::upload(make_values<K>(random, n));
    CHECK(scan(distributed_policy<F>(), in.begin(), in.end(), heads.begin(), out.begin(), op,
               K::init()) == out.end());
    check_equal(all.slice(expected, input.size()), F::download(out));
  });
}

// For every segmentation, this rank's fresh random values and keys, gathered and uploaded:
// fn(kind, input, all (the gathered values), all_keys, in, keys).
template <class F, class Fn>
void for_each_keyed_input(random_source& random, Fn&& fn) {
  for_each_segmentation(kinds_of_t<F>{}, [&](auto kind, std::int64_t n, std::uint64_t rate) {
    const auto input = make_values<decltype(kind)>(random, n);
    const auto key_values = make_rank_keys(random, n, rate);
    const auto all = gather(input);
    const auto all_keys = gather(key_values).global;
    auto in = F::upload(input);
    auto keys = F::upload(key_values);
    fn(kind, input, all, all_keys, in, keys);
  });
}

// The same by key: scan(policy, keys_first, keys_last, values, out, op, init, eq), with the
// default KeyEq and with one that puts keys in buckets of 4.
template <class F, class Scan>
void check_key_scan(random_source& random, Scan scan) {
  for_each_keyed_input<F>(random, [&](auto kind, const auto& input, const auto& all,
                                     const auto& all_keys, auto& in, auto& keys) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto check = [&](auto eq) {
      auto expected = all.global;
      scan(pscan::seq, all_keys.data(), all_keys.data() + all_keys.size(), all.global.data(),
           expected.data(), op, K::init(), eq);
      auto out = F::upload(make_values<K>(random, std::int64_t(input.size())));
      CHECK(scan(distributed_policy<F>(), keys.begin(), keys.end(), in.begin(), out.begin(), op,
                 K::init(), eq) == out.end());
      check_equal(all.slice(expected, input.size()), F::download(out));
    };
    check(pscan::equal_to<>{});
    INFO("custom KeyEq");
    check(same_bucket{});
  });
}

}  // namespace distributed_test

TEST_CASE_TEMPLATE_DEFINE("distributed segmented_inclusive_scan", F,
                          distributed_segmented_inclusive_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  check_flag_scan<F>(random,
                     [](const auto& p, auto first, auto last, auto flags, auto out, auto op, auto) {
                       return pscan::segmented_inclusive_scan(p, first, last, flags, out, op);
                     });
}

TEST_CASE_TEMPLATE_DEFINE("distributed segmented_exclusive_scan", F,
                          distributed_segmented_exclusive_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  check_flag_scan<F>(
      random, [](const auto& p, auto first, auto last, auto flags, auto out, auto op, auto init) {
        return pscan::segmented_exclusive_scan(p, first, last, flags, out, init, op);
      });
}

TEST_CASE_TEMPLATE_DEFINE("distributed inclusive_scan_by_key", F,
                          distributed_inclusive_by_key_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  check_key_scan<F>(random, [](const auto& p, auto keys_first, auto keys_last, auto values,
                               auto out, auto op, auto, auto eq) {
    return pscan::inclusive_scan_by_key(p, keys_first, keys_last, values, out, op, eq);
  });
}

TEST_CASE_TEMPLATE_DEFINE("distributed exclusive_scan_by_key", F,
                          distributed_exclusive_by_key_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  check_key_scan<F>(random, [](const auto& p, auto keys_first, auto keys_last, auto values,
                               auto out, auto op, auto init, auto eq) {
    return pscan::exclusive_scan_by_key(p, keys_first, keys_last, values, out, init, op, eq);
  });
}

TEST_CASE_TEMPLATE_DEFINE("distributed segmented scans in place", F,
                          distributed_segmented_in_place_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  for_each_segmentation(kinds_of_t<F>{}, [&](auto kind, std::int64_t n, std::uint64_t rate) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    const auto flags = make_rank_flags(random, n, rate);
    const auto key_values = make_rank_keys(random, n, rate);
    const auto all = gather(input);
    const auto all_flags = gather(flags).global;
    const auto all_keys = gather(key_values).global;
    const auto p = distributed_policy<F>();

    auto heads = F::upload(flags);
    auto data = F::upload(input);
    auto expected = all.global;
    pscan::segmented_inclusive_scan(p, data.begin(), data.end(), heads.begin(), data.begin(), op);
    pscan::segmented_inclusive_scan(pscan::seq, expected.data(), expected.data() + expected.size(),
                                    all_flags.data(), expected.data(), op);
    check_equal(all.slice(expected, input.size()), F::download(data));

    auto keys = F::upload(key_values);
    data = F::upload(input);
    expected = all.global;
    pscan::exclusive_scan_by_key(p, keys.begin(), keys.end(), data.begin(), data.begin(), K::init(),
                                 op);
    pscan::exclusive_scan_by_key(pscan::seq, all_keys.data(), all_keys.data() + all_keys.size(),
                                 expected.data(), expected.data(), K::init(), op);
    check_equal(all.slice(expected, input.size()), F::download(data));
  });
}

// Offsets are rank-local: each rank's results are pscan::seq's over its own values and offsets
// (the scans by offsets leave positions outside them untouched). Empty ranks pass offsets of
// every shape over no values, and no offsets at all.
TEST_CASE_TEMPLATE_DEFINE("distributed segmented_reduce and scans by offsets", F,
                          distributed_segmented_reduce_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  for_each_kind_and_split(kinds_of_t<F>{}, [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    auto values = F::upload(input);
    for (const offsets_layout offsets_shape : conformance::all_layouts) {
      const std::string shape_name = conformance::name_of(offsets_shape);
      INFO("offsets: ", shape_name);
      const auto offsets = n == 0 && offsets_shape == offsets_layout::mixed
                               ? std::vector<std::int64_t>{}
                               : make_offsets<std::int64_t>(random, n, offsets_shape);
      const std::size_t segments = offsets.empty() ? 0 : offsets.size() - 1;
      std::vector<typename K::value_type> expected(segments);
      pscan::segmented_reduce(pscan::seq, input.begin(), offsets.begin(), offsets.end(),
                              expected.begin(), K::init(), op);
      auto offs = F::upload(offsets);
      auto out = F::upload(make_values<K>(random, std::int64_t(segments)));
      CHECK(pscan::segmented_reduce(distributed_policy<F>(), values.begin(), offs.begin(),
                                    offs.end(), out.begin(), K::init(), op) == out.end());
      check_equal(expected, F::download(out));

      const std::int64_t end = segments == 0 ? 0 : offsets.back();
      const auto before = make_values<K>(random, n);
      auto scanned = before;
      pscan::inclusive_scan_by_offsets(pscan::seq, input.begin(), offsets.begin(), offsets.end(),
                                       scanned.begin(), op);
      auto scan_out = F::upload(before);
      CHECK(pscan::inclusive_scan_by_offsets(distributed_policy<F>(), values.begin(),
                                             offs.begin(), offs.end(), scan_out.begin(),
                                             op) == scan_out.begin() + end);
      check_equal(scanned, F::download(scan_out));
      scanned = before;
      pscan::exclusive_scan_by_offsets(pscan::seq, input.begin(), offsets.begin(), offsets.end(),
                                       scanned.begin(), K::init(), op);
      scan_out = F::upload(before);
      CHECK(pscan::exclusive_scan_by_offsets(distributed_policy<F>(), values.begin(),
                                             offs.begin(), offs.end(), scan_out.begin(), K::init(),
                                             op) == scan_out.begin() + end);
      check_equal(scanned, F::download(scan_out));
    }
  });
}

#define DISTRIBUTED_SEGMENTED_CASES(...)                                        \
  TEST_CASE_TEMPLATE_INVOKE(distributed_segmented_inclusive_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(distributed_segmented_exclusive_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(distributed_inclusive_by_key_case, __VA_ARGS__);    \
  TEST_CASE_TEMPLATE_INVOKE(distributed_exclusive_by_key_case, __VA_ARGS__);    \
  TEST_CASE_TEMPLATE_INVOKE(distributed_segmented_in_place_case, __VA_ARGS__);  \
  TEST_CASE_TEMPLATE_INVOKE(distributed_segmented_reduce_case, __VA_ARGS__)
