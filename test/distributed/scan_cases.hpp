#pragma once
// Distributed: inclusive_scan (with and without init), exclusive_scan, scan, reduce and
// reduce_into, and their transform_ forms, over every split of the data over the ranks and every
// value kind, in place, and the accumulator type across ranks. Instantiate with DISTRIBUTED_SCAN_CASES(fixtures...).

#include "support.hpp"

namespace distributed_test {

// For every kind, split and size, on this rank's random input and a randomly filled output:
// scan(policy, in, out, op, init) returns out.end() and writes this rank's slice of what
// scan(pscan::seq, ...) gives over the gathered global input.
template <class F, class Scan>
void check_scan(random_source& random, Scan scan) {
  for_each_kind_and_split(kinds_of_t<F>{}, [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    const auto all = gather(input);
    auto expected = all.global;
    scan(pscan::seq, all.global.begin(), all.global.end(), expected.begin(), op, K::init());
    auto in = F::upload(input);
    auto out = F::upload(make_values<K>(random, n));
    CHECK(scan(distributed_policy<F>(), in.begin(), in.end(), out.begin(), op, K::init()) ==
          out.end());
    check_equal(all.slice(expected, input.size()), F::download(out));
  });
}

}  // namespace distributed_test

TEST_CASE_TEMPLATE_DEFINE("distributed inclusive_scan", F, distributed_inclusive_scan_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  check_scan<F>(random, [](const auto& p, auto first, auto last, auto out, auto op, auto) {
    return pscan::inclusive_scan(p, first, last, out, op);
  });
}

TEST_CASE_TEMPLATE_DEFINE("distributed inclusive_scan with init", F,
                          distributed_inclusive_scan_init_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  check_scan<F>(random, [](const auto& p, auto first, auto last, auto out, auto op, auto init) {
    return pscan::inclusive_scan(p, first, last, out, op, init);
  });
}

TEST_CASE_TEMPLATE_DEFINE("distributed exclusive_scan", F, distributed_exclusive_scan_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  check_scan<F>(random, [](const auto& p, auto first, auto last, auto out, auto op, auto init) {
    return pscan::exclusive_scan(p, first, last, out, init, op);
  });
}

TEST_CASE_TEMPLATE_DEFINE("distributed scan is inclusive_scan", F, distributed_scan_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  check_scan<F>(random, [](const auto& p, auto first, auto last, auto out, auto op, auto) {
    return pscan::scan(p, first, last, out, op);
  });
}

// Every rank returns init op (all elements of all ranks, in rank order).
TEST_CASE_TEMPLATE_DEFINE("distributed reduce", F, distributed_reduce_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  for_each_kind_and_split(kinds_of_t<F>{}, [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    const auto all = gather(input);
    auto in = F::upload(input);
    const auto total = pscan::reduce(distributed_policy<F>(), in.begin(), in.end(), K::init(), op);
    check_equal(
        std::vector{pscan::reduce(pscan::seq, all.global.begin(), all.global.end(), K::init(), op)},
        std::vector{total});
  });
}

// Every rank writes that value to its own *result (init where every range is empty).
TEST_CASE_TEMPLATE_DEFINE("distributed reduce_into", F, distributed_reduce_into_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  for_each_kind_and_split(kinds_of_t<F>{}, [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    const auto all = gather(input);
    auto in = F::upload(input);
    auto result = F::upload(make_values<K>(random, 1));
    pscan::reduce_into(distributed_policy<F>(), in.begin(), in.end(), result.begin(), K::init(),
                       op);
    check_equal(
        std::vector{pscan::reduce(pscan::seq, all.global.begin(), all.global.end(), K::init(), op)},
        F::download(result));
  });
}

// The transform_ algorithms, with each kind's own transform (x op x).
TEST_CASE_TEMPLATE_DEFINE("distributed transform scans", F, distributed_transform_scans_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  check_scan<F>(random, [](const auto& p, auto first, auto last, auto out, auto op, auto) {
    return pscan::transform_inclusive_scan(p, first, last, out, op,
                                           conformance::self_combined<decltype(op)>{op});
  });
  check_scan<F>(random, [](const auto& p, auto first, auto last, auto out, auto op, auto init) {
    return pscan::transform_inclusive_scan(p, first, last, out, op,
                                           conformance::self_combined<decltype(op)>{op}, init);
  });
  check_scan<F>(random, [](const auto& p, auto first, auto last, auto out, auto op, auto init) {
    return pscan::transform_exclusive_scan(p, first, last, out, init, op,
                                           conformance::self_combined<decltype(op)>{op});
  });
}

TEST_CASE_TEMPLATE_DEFINE("distributed transform_reduce", F, distributed_transform_reduce_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  for_each_kind_and_split(kinds_of_t<F>{}, [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const conformance::self_combined<typename K::op_type> f{op};
    const auto input = make_values<K>(random, n);
    const auto all = gather(input);
    auto in = F::upload(input);
    const auto total =
        pscan::transform_reduce(distributed_policy<F>(), in.begin(), in.end(), K::init(), op, f);
    check_equal(std::vector{pscan::transform_reduce(pscan::seq, all.global.begin(),
                                                    all.global.end(), K::init(), op, f)},
                std::vector{total});
  });
}

TEST_CASE_TEMPLATE_DEFINE("distributed scans in place", F, distributed_scans_in_place_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  for_each_kind_and_split(kinds_of_t<F>{}, [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    const auto all = gather(input);
    auto expected = all.global;
    const auto p = distributed_policy<F>();

    auto data = F::upload(input);
    pscan::inclusive_scan(p, data.begin(), data.end(), data.begin(), op);
    pscan::inclusive_scan(pscan::seq, expected.begin(), expected.end(), expected.begin(), op);
    check_equal(all.slice(expected, input.size()), F::download(data));

    data = F::upload(input);
    expected = all.global;
    pscan::exclusive_scan(p, data.begin(), data.end(), data.begin(), K::init(), op);
    pscan::exclusive_scan(pscan::seq, expected.begin(), expected.end(), expected.begin(), K::init(),
                          op);
    check_equal(all.slice(expected, input.size()), F::download(data));
  });
}

// The carry-in has the accumulator's type: without init the input's (uint8 sums wrap across
// ranks as within one), with init init's.
TEST_CASE_TEMPLATE_DEFINE("distributed scan accumulator types", F, distributed_accumulator_case) {
  using namespace distributed_test;
  DISTRIBUTED_SEEDED_RANDOM(random);
  for (const split l : all_splits) {
    for (const std::int64_t base : base_sizes()) {
      const std::int64_t n = local_size(l, world(), base);
      std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n));
      for (auto& b : bytes) b = static_cast<std::uint8_t>(random.next());
      const auto all = gather(bytes);
      const auto p = distributed_policy<F>();
      auto in = F::upload(bytes);
      auto out = F::upload(std::vector<std::int32_t>(bytes.size(), -1));
      std::vector<std::int32_t> expected(all.global.size());

      pscan::inclusive_scan(p, in.begin(), in.end(), out.begin(), pscan::plus<>{});
      pscan::inclusive_scan(pscan::seq, all.global.begin(), all.global.end(), expected.begin(),
                            pscan::plus<>{});
      check_equal(all.slice(expected, bytes.size()), F::download(out));

      pscan::exclusive_scan(p, in.begin(), in.end(), out.begin(), std::int32_t{7});
      pscan::exclusive_scan(pscan::seq, all.global.begin(), all.global.end(), expected.begin(),
                            std::int32_t{7});
      check_equal(all.slice(expected, bytes.size()), F::download(out));
    }
  }
}

#define DISTRIBUTED_SCAN_CASES(...)                                             \
  TEST_CASE_TEMPLATE_INVOKE(distributed_inclusive_scan_case, __VA_ARGS__);      \
  TEST_CASE_TEMPLATE_INVOKE(distributed_inclusive_scan_init_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(distributed_exclusive_scan_case, __VA_ARGS__);      \
  TEST_CASE_TEMPLATE_INVOKE(distributed_scan_case, __VA_ARGS__);                \
  TEST_CASE_TEMPLATE_INVOKE(distributed_reduce_case, __VA_ARGS__);              \
  TEST_CASE_TEMPLATE_INVOKE(distributed_reduce_into_case, __VA_ARGS__);         \
  TEST_CASE_TEMPLATE_INVOKE(distributed_scans_in_place_case, __VA_ARGS__);      \
  TEST_CASE_TEMPLATE_INVOKE(distributed_accumulator_case, __VA_ARGS__);         \
  TEST_CASE_TEMPLATE_INVOKE(distributed_transform_scans_case, __VA_ARGS__);     \
  TEST_CASE_TEMPLATE_INVOKE(distributed_transform_reduce_case, __VA_ARGS__)
