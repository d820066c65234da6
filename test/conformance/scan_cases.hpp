#pragma once
// Conformance: inclusive_scan (with and without init), exclusive_scan, scan, in place, and the
// accumulator type rules. Instantiate with CONFORMANCE_SCAN_CASES(fixtures...).

#include "reference.hpp"
#include "value_kinds.hpp"

namespace conformance {

// For every value kind at every size, on fresh random input and a randomly filled output:
// scan(in, out, op, kind) returns out.end() and writes expected(input, op, kind).
template <class F, class Random, class Scan, class Expected>
void check_scan(Random& random, const std::vector<std::int64_t>& sizes, Scan scan,
                Expected expected) {
  for_each_kind_and_size(all_kinds{}, sizes, [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    auto in = F::upload(input);
    auto out = F::upload(make_values<K>(random, n));
    CHECK(scan(in, out, op, kind) == out.end());
    check_equal(expected(input, op, kind), F::download(out));
  });
}

}  // namespace conformance

TEST_CASE_TEMPLATE_DEFINE("inclusive_scan", F, inclusive_scan_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  check_scan<F>(
      random, boundary_sizes(),
      [](auto& in, auto& out, auto op, auto) {
        return pscan::inclusive_scan(F::policy(), in.begin(), in.end(), out.begin(), op);
      },
      [](const auto& input, auto op, auto) { return expected_inclusive_scan(input, op); });
}

TEST_CASE_TEMPLATE_DEFINE("inclusive_scan with init", F, inclusive_scan_init_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  check_scan<F>(
      random, boundary_sizes(),
      [](auto& in, auto& out, auto op, auto kind) {
        return pscan::inclusive_scan(F::policy(), in.begin(), in.end(), out.begin(), op,
                                     decltype(kind)::init());
      },
      [](const auto& input, auto op, auto kind) {
        return expected_inclusive_scan(input, op, decltype(kind)::init());
      });
}

TEST_CASE_TEMPLATE_DEFINE("exclusive_scan", F, exclusive_scan_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  check_scan<F>(
      random, boundary_sizes(),
      [](auto& in, auto& out, auto op, auto kind) {
        return pscan::exclusive_scan(F::policy(), in.begin(), in.end(), out.begin(),
                                     decltype(kind)::init(), op);
      },
      [](const auto& input, auto op, auto kind) {
        return expected_exclusive_scan(input, decltype(kind)::init(), op);
      });
}

TEST_CASE_TEMPLATE_DEFINE("scan is inclusive_scan", F, scan_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  check_scan<F>(
      random, sample_sizes(),
      [](auto& in, auto& out, auto op, auto) {
        return pscan::scan(F::policy(), in.begin(), in.end(), out.begin(), op);
      },
      [](const auto& input, auto op, auto) { return expected_inclusive_scan(input, op); });
}

TEST_CASE_TEMPLATE_DEFINE("scans in place", F, scans_in_place_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(all_kinds{}, sample_sizes(), [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    auto data = F::upload(input);
    pscan::inclusive_scan(F::policy(), data.begin(), data.end(), data.begin(), op);
    check_equal(expected_inclusive_scan(input, op), F::download(data));

    data = F::upload(input);
    pscan::inclusive_scan(F::policy(), data.begin(), data.end(), data.begin(), op, K::init());
    check_equal(expected_inclusive_scan(input, op, K::init()), F::download(data));

    data = F::upload(input);
    pscan::exclusive_scan(F::policy(), data.begin(), data.end(), data.begin(), K::init(), op);
    check_equal(expected_exclusive_scan(input, K::init(), op), F::download(data));
  });
}

// Without init the accumulator is the input's value type, even when op returns a wider type;
// with init it is init's type.
TEST_CASE_TEMPLATE_DEFINE("scan accumulator types", F, accumulator_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for (std::int64_t n : sample_sizes()) {
    INFO("n = ", n);
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n));
    for (auto& b : bytes) b = static_cast<std::uint8_t>(random.next());
    const auto wrapped = expected_inclusive_scan(bytes, pscan::plus<std::uint8_t>{});
    auto in_bytes = F::upload(bytes);
    auto out_ints = F::upload(std::vector<std::int32_t>(bytes.size(), -1));
    pscan::inclusive_scan(F::policy(), in_bytes.begin(), in_bytes.end(), out_ints.begin(),
                          pscan::plus<>{});
    check_equal(std::vector<std::int32_t>(wrapped.begin(), wrapped.end()), F::download(out_ints));

    // Sums of values near 2^30 leave int32 after two elements: only an int64 accumulator holds
    // them.
    std::vector<std::int32_t> big(static_cast<std::size_t>(n));
    for (auto& v : big) v = static_cast<std::int32_t>(random.between((1 << 30) - 100, 1 << 30));
    const std::int64_t init = 7;
    auto in_big = F::upload(big);
    auto out_wide = F::upload(std::vector<std::int64_t>(big.size(), -1));
    pscan::inclusive_scan(F::policy(), in_big.begin(), in_big.end(), out_wide.begin(),
                          pscan::plus<>{}, init);
    check_equal(expected_inclusive_scan(big, pscan::plus<>{}, init), F::download(out_wide));
    pscan::exclusive_scan(F::policy(), in_big.begin(), in_big.end(), out_wide.begin(), init);
    check_equal(expected_exclusive_scan(big, init, pscan::plus<>{}), F::download(out_wide));
    CHECK(pscan::reduce(F::policy(), in_big.begin(), in_big.end(), init) ==
          expected_reduce(big, init, pscan::plus<>{}));
  }
}

#define CONFORMANCE_SCAN_CASES(...)                                 \
  TEST_CASE_TEMPLATE_INVOKE(inclusive_scan_case, __VA_ARGS__);      \
  TEST_CASE_TEMPLATE_INVOKE(inclusive_scan_init_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(exclusive_scan_case, __VA_ARGS__);      \
  TEST_CASE_TEMPLATE_INVOKE(scan_case, __VA_ARGS__);                \
  TEST_CASE_TEMPLATE_INVOKE(scans_in_place_case, __VA_ARGS__);      \
  TEST_CASE_TEMPLATE_INVOKE(accumulator_case, __VA_ARGS__)
