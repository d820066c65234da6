#pragma once
// Conformance: transform_inclusive_scan (with and without init), transform_exclusive_scan and
// transform_reduce, against the plain loops over the transformed input, and their accumulator
// types. Instantiate with CONFORMANCE_TRANSFORM_CASES(fixtures...).

#include "reference.hpp"
#include "scan_cases.hpp"
#include "value_kinds.hpp"

namespace conformance {

template <class T, class F>
std::vector<T> transformed_on_host(const std::vector<T>& in, F f) {
  std::vector<T> out;
  out.reserve(in.size());
  for (const T& x : in) out.push_back(f(x));
  return out;
}

// Widens an int32 past int32's range: the accumulator of a transform scan without init is f's
// result type (<numeric>), so the sums hold.
struct times_three_billion {
  CONFORMANCE_HD std::int64_t operator()(std::int32_t x) const {
    return std::int64_t{x} * 3'000'000'000;
  }
};

}  // namespace conformance

TEST_CASE_TEMPLATE_DEFINE("transform_inclusive_scan", F, transform_inclusive_scan_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  check_scan<F>(
      random, boundary_sizes(),
      [](auto& in, auto& out, auto op, auto) {
        return pscan::transform_inclusive_scan(F::policy(), in.begin(), in.end(), out.begin(), op,
                                               self_combined<decltype(op)>{op});
      },
      [](const auto& input, auto op, auto) {
        return expected_inclusive_scan(transformed_on_host(input, self_combined<decltype(op)>{op}),
                                       op);
      });
}

TEST_CASE_TEMPLATE_DEFINE("transform_inclusive_scan with init", F,
                          transform_inclusive_scan_init_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  check_scan<F>(
      random, boundary_sizes(),
      [](auto& in, auto& out, auto op, auto kind) {
        return pscan::transform_inclusive_scan(F::policy(), in.begin(), in.end(), out.begin(), op,
                                               self_combined<decltype(op)>{op},
                                               decltype(kind)::init());
      },
      [](const auto& input, auto op, auto kind) {
        return expected_inclusive_scan(transformed_on_host(input, self_combined<decltype(op)>{op}),
                                       op, decltype(kind)::init());
      });
}

TEST_CASE_TEMPLATE_DEFINE("transform_exclusive_scan", F, transform_exclusive_scan_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  check_scan<F>(
      random, boundary_sizes(),
      [](auto& in, auto& out, auto op, auto kind) {
        return pscan::transform_exclusive_scan(F::policy(), in.begin(), in.end(), out.begin(),
                                               decltype(kind)::init(), op,
                                               self_combined<decltype(op)>{op});
      },
      [](const auto& input, auto op, auto kind) {
        return expected_exclusive_scan(transformed_on_host(input, self_combined<decltype(op)>{op}),
                                       decltype(kind)::init(), op);
      });
}

TEST_CASE_TEMPLATE_DEFINE("transform_reduce", F, transform_reduce_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(all_kinds{}, boundary_sizes(), [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const self_combined<typename K::op_type> f{op};
    const auto input = make_values<K>(random, n);
    auto in = F::upload(input);
    const auto total = pscan::transform_reduce(F::policy(), in.begin(), in.end(), K::init(), op, f);
    check_equal(std::vector{expected_reduce(transformed_on_host(input, f), K::init(), op)},
                std::vector{total});
  });
}

// Without init the accumulator is f's result type; with init, init's type.
TEST_CASE_TEMPLATE_DEFINE("transform accumulator types", F, transform_accumulator_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  const times_three_billion f{};
  for (std::int64_t n : sample_sizes()) {
    INFO("n = ", n);
    std::vector<std::int32_t> small(static_cast<std::size_t>(n));
    for (auto& v : small) v = static_cast<std::int32_t>(random.between(-1000, 1000));
    std::vector<std::int64_t> wide(small.size());
    for (std::size_t i = 0; i < small.size(); ++i) wide[i] = f(small[i]);
    auto in = F::upload(small);
    auto out = F::upload(std::vector<std::int64_t>(small.size(), -1));
    pscan::transform_inclusive_scan(F::policy(), in.begin(), in.end(), out.begin(),
                                    pscan::plus<>{}, f);
    check_equal(expected_inclusive_scan(wide, pscan::plus<>{}), F::download(out));
    const std::int64_t init = 7;
    pscan::transform_exclusive_scan(F::policy(), in.begin(), in.end(), out.begin(), init,
                                    pscan::plus<>{}, f);
    check_equal(expected_exclusive_scan(wide, init, pscan::plus<>{}), F::download(out));
    CHECK(pscan::transform_reduce(F::policy(), in.begin(), in.end(), init, pscan::plus<>{}, f) ==
          expected_reduce(wide, init, pscan::plus<>{}));
  }
}

#define CONFORMANCE_TRANSFORM_CASES(...)                                      \
  TEST_CASE_TEMPLATE_INVOKE(transform_inclusive_scan_case, __VA_ARGS__);      \
  TEST_CASE_TEMPLATE_INVOKE(transform_inclusive_scan_init_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(transform_exclusive_scan_case, __VA_ARGS__);      \
  TEST_CASE_TEMPLATE_INVOKE(transform_reduce_case, __VA_ARGS__);              \
  TEST_CASE_TEMPLATE_INVOKE(transform_accumulator_case, __VA_ARGS__)
