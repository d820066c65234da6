#pragma once
// Conformance: inclusive_scan_by_offsets and exclusive_scan_by_offsets over every offsets layout
// (one segment, single elements, empty segments only, mixed lengths with empty segments and
// elements outside the offsets, which keep what they held); in place and the _into forms over the
// mixed layout; with 64- and 32-bit offsets, and with fewer than two offsets. Instantiate with
// CONFORMANCE_OFFSETS_SCAN_CASES(fixtures...).

#include "reference.hpp"
#include "segments.hpp"
#include "value_kinds.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace conformance {

template <bool Exclusive, class P, class In, class Off, class Out, class T, class Op>
auto scan_by_offsets(const P& policy, In values, Off offsets_first, Off offsets_last, Out out,
                     T init, Op op) {
  if constexpr (Exclusive) {
    return pscan::exclusive_scan_by_offsets(policy, values, offsets_first, offsets_last, out, init,
                                            op);
  } else {
    return pscan::inclusive_scan_by_offsets(policy, values, offsets_first, offsets_last, out, op);
  }
}

// On fresh values, offsets of the layout and a randomly filled output; then, with the mixed
// layout (every kind of segment in one call), in place and in the form returning nothing.
template <bool Exclusive, class F, class K, class Off>
void check_scan_by_offsets(random_source& random, std::int64_t n, offsets_layout layout) {
  const std::string layout_name = name_of(layout);  // doctest prints a char* as a pointer
  INFO("offsets: ", layout_name);
  const typename K::op_type op{};
  const auto values = make_values<K>(random, n);
  const auto offsets = make_offsets<Off>(random, n, layout);
  const auto before = make_values<K>(random, n);
  const auto end = static_cast<std::int64_t>(offsets.back());
  auto in = F::upload(values);
  auto offs = F::upload(offsets);
  auto out = F::upload(before);
  CHECK(scan_by_offsets<Exclusive>(F::policy(), in.begin(), offs.begin(), offs.end(), out.begin(),
                                   K::init(), op) == out.begin() + end);
  check_equal(expected_scan_by_offsets<Exclusive>(values, offsets, before, K::init(), op),
              F::download(out));
  if (layout != offsets_layout::mixed) return;
  INFO("in place");
  CHECK(scan_by_offsets<Exclusive>(F::policy(), in.begin(), offs.begin(), offs.end(), in.begin(),
                                   K::init(), op) == in.begin() + end);
  check_equal(expected_scan_by_offsets<Exclusive>(values, offsets, values, K::init(), op),
              F::download(in));
  INFO("the form returning nothing");
  auto fresh = F::upload(values);
  auto into = F::upload(before);
  if constexpr (Exclusive) {
    pscan::exclusive_scan_by_offsets_into(F::policy(), fresh.begin(), offs.begin(), offs.end(),
                                          into.begin(), K::init(), op);
  } else {
    pscan::inclusive_scan_by_offsets_into(F::policy(), fresh.begin(), offs.begin(), offs.end(),
                                          into.begin(), op);
  }
  check_equal(expected_scan_by_offsets<Exclusive>(values, offsets, before, K::init(), op),
              F::download(into));
}

}  // namespace conformance

TEST_CASE_TEMPLATE_DEFINE("inclusive_scan_by_offsets", F, inclusive_by_offsets_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(all_kinds{}, boundary_sizes(), [&](auto kind, std::int64_t n) {
    for (offsets_layout layout : all_layouts) {
      check_scan_by_offsets<false, F, decltype(kind), std::int64_t>(random, n, layout);
    }
  });
}

TEST_CASE_TEMPLATE_DEFINE("exclusive_scan_by_offsets", F, exclusive_by_offsets_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(all_kinds{}, boundary_sizes(), [&](auto kind, std::int64_t n) {
    for (offsets_layout layout : all_layouts) {
      check_scan_by_offsets<true, F, decltype(kind), std::int64_t>(random, n, layout);
    }
  });
}

TEST_CASE_TEMPLATE_DEFINE("scans by offsets with int32 offsets", F, by_offsets_int32_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(all_kinds{}, sample_sizes(), [&](auto kind, std::int64_t n) {
    check_scan_by_offsets<false, F, decltype(kind), std::int32_t>(random, n,
                                                                  offsets_layout::mixed);
    check_scan_by_offsets<true, F, decltype(kind), std::int32_t>(random, n,
                                                                 offsets_layout::mixed);
  });
}

// Fewer than two offsets describe no segment: nothing is written, out is returned.
TEST_CASE_TEMPLATE_DEFINE("scans by offsets without segments", F, by_offsets_none_case) {
  using namespace conformance;
  auto values = F::upload(std::vector<std::int32_t>{1, 2, 3});
  auto out = F::upload(std::vector<std::int32_t>{-5, -5, -5});
  for (const std::size_t count : {std::size_t{0}, std::size_t{1}}) {
    INFO(count, " offsets");
    auto offsets = F::upload(std::vector<std::int64_t>(count, 1));
    CHECK(pscan::inclusive_scan_by_offsets(F::policy(), values.begin(), offsets.begin(),
                                           offsets.end(), out.begin()) == out.begin());
    CHECK(pscan::exclusive_scan_by_offsets(F::policy(), values.begin(), offsets.begin(),
                                           offsets.end(), out.begin(), 7) == out.begin());
    pscan::inclusive_scan_by_offsets_into(F::policy(), values.begin(), offsets.begin(),
                                          offsets.end(), out.begin());
    pscan::exclusive_scan_by_offsets_into(F::policy(), values.begin(), offsets.begin(),
                                          offsets.end(), out.begin(), 7);
    CHECK(F::download(out) == std::vector<std::int32_t>{-5, -5, -5});
  }
}

#define CONFORMANCE_OFFSETS_SCAN_CASES(...)                          \
  TEST_CASE_TEMPLATE_INVOKE(inclusive_by_offsets_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(exclusive_by_offsets_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(by_offsets_int32_case, __VA_ARGS__);     \
  TEST_CASE_TEMPLATE_INVOKE(by_offsets_none_case, __VA_ARGS__)
