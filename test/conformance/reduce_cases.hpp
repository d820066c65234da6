#pragma once
// Conformance: reduce, reduce_into and segmented_reduce (offsets of any layout, including empty
// and single-element segments). Instantiate with CONFORMANCE_REDUCE_CASES(fixtures...).

#include "reference.hpp"
#include "segments.hpp"
#include "value_kinds.hpp"

TEST_CASE_TEMPLATE_DEFINE("reduce", F, reduce_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(all_kinds{}, boundary_sizes(), [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    auto in = F::upload(input);
    const auto total = pscan::reduce(F::policy(), in.begin(), in.end(), K::init(), op);
    check_equal(std::vector{expected_reduce(input, K::init(), op)}, std::vector{total});
  });
}

// reduce_into writes the value reduce returns to *result; for n == 0, init.
TEST_CASE_TEMPLATE_DEFINE("reduce_into", F, reduce_into_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(all_kinds{}, boundary_sizes(), [&](auto kind, std::int64_t n) {
    using K = decltype(kind);
    const typename K::op_type op{};
    const auto input = make_values<K>(random, n);
    auto in = F::upload(input);
    auto result = F::upload(make_values<K>(random, 1));
    pscan::reduce_into(F::policy(), in.begin(), in.end(), result.begin(), K::init(), op);
    check_equal(std::vector{expected_reduce(input, K::init(), op)}, F::download(result));
  });
}

namespace conformance {

template <class F, class K, class Off>
void check_segmented_reduce(random_source& random, std::int64_t n, offsets_layout layout) {
  const std::string layout_name = name_of(layout);  // doctest prints a char* as a pointer
  INFO("offsets: ", layout_name);
  const typename K::op_type op{};
  const auto values = make_values<K>(random, n);
  const auto offsets = make_offsets<Off>(random, n, layout);
  const auto segments = static_cast<std::int64_t>(offsets.size()) - 1;
  auto in = F::upload(values);
  auto offs = F::upload(offsets);
  auto out = F::upload(make_values<K>(random, segments));
  CHECK(pscan::segmented_reduce(F::policy(), in.begin(), offs.begin(), offs.end(), out.begin(),
                                K::init(), op) == out.end());
  check_equal(expected_segmented_reduce(values, offsets, K::init(), op), F::download(out));
}

}  // namespace conformance

TEST_CASE_TEMPLATE_DEFINE("segmented_reduce", F, segmented_reduce_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(all_kinds{}, boundary_sizes(), [&](auto kind, std::int64_t n) {
    for (offsets_layout layout : all_layouts) {
      check_segmented_reduce<F, decltype(kind), std::int64_t>(random, n, layout);
    }
  });
}

TEST_CASE_TEMPLATE_DEFINE("segmented_reduce with int32 offsets", F, segmented_reduce_int32_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(all_kinds{}, sample_sizes(), [&](auto kind, std::int64_t n) {
    check_segmented_reduce<F, decltype(kind), std::int32_t>(random, n, offsets_layout::mixed);
  });
}

// Fewer than two offsets describe no segment: nothing is written.
TEST_CASE_TEMPLATE_DEFINE("segmented_reduce without segments", F, segmented_reduce_none_case) {
  using namespace conformance;
  auto values = F::upload(std::vector<std::int32_t>{1, 2, 3});
  auto out = F::upload(std::vector<std::int32_t>{-5});
  for (const std::size_t count : {std::size_t{0}, std::size_t{1}}) {
    INFO(count, " offsets");
    auto offsets = F::upload(std::vector<std::int64_t>(count, 1));
    CHECK(pscan::segmented_reduce(F::policy(), values.begin(), offsets.begin(), offsets.end(),
                                  out.begin(), 7) == out.begin());
    CHECK(F::download(out) == std::vector<std::int32_t>{-5});
  }
}

#define CONFORMANCE_REDUCE_CASES(...)                                  \
  TEST_CASE_TEMPLATE_INVOKE(reduce_case, __VA_ARGS__);                 \
  TEST_CASE_TEMPLATE_INVOKE(reduce_into_case, __VA_ARGS__);            \
  TEST_CASE_TEMPLATE_INVOKE(segmented_reduce_case, __VA_ARGS__);       \
  TEST_CASE_TEMPLATE_INVOKE(segmented_reduce_int32_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(segmented_reduce_none_case, __VA_ARGS__)
