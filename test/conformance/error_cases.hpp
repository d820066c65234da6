#pragma once
// Conformance: bad input throws pscan::invalid_argument naming the argument, before any write
// (the output, filled with a sentinel, is compared after), null pointers included;
// segmented_reduce's offsets that only the device holds, when the CUDA policies' synchronize()
// reports them, or before any write in their checked mode (the returning scans by offsets always
// check them first; those returning nothing as segmented_reduce where the policy sizes them on
// the device).
// Instantiate with CONFORMANCE_ERROR_CASES(fixtures...).

#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support.hpp"

namespace conformance {

inline constexpr std::int32_t sentinel = -123456;

// Whether P checks offsets in the same pass that uses them (the CUDA policies): it then reports
// bad ones at P::synchronize(), and throws before any write only in P::checked() mode.
template <class P, class = void>
inline constexpr bool reports_offsets_later_v = false;
template <class P>
inline constexpr bool reports_offsets_later_v<P, std::void_t<decltype(std::declval<P>().checked())>> =
    true;

// Whether P's scans by offsets returning nothing check the offsets as they scan (reporting bad
// ones at synchronize()) rather than first.
template <class P, class = void>
inline constexpr bool scans_offsets_unwaited_v = false;
template <class P>
inline constexpr bool
    scans_offsets_unwaited_v<P, std::void_t<decltype(P::sizes_offsets_on_device)>> =
        P::sizes_offsets_on_device;

struct twice_value {
  CONFORMANCE_HD std::int32_t operator()(std::int32_t x) const { return 2 * x; }
};

}  // namespace conformance

TEST_CASE_TEMPLATE_DEFINE("reversed ranges are rejected before any write", F, reversed_range_case) {
  using namespace conformance;
  const std::vector<std::int32_t> untouched(64, sentinel);
  auto in = F::upload(std::vector<std::int32_t>(64, 1));
  auto flags = F::upload(std::vector<std::uint8_t>(64, 0));
  auto offsets = F::upload(std::vector<std::int64_t>{0, 8, 16});
  auto out = F::upload(untouched);
  const auto p = F::policy();
  const auto first = in.begin() + 8, last = in.begin();  // last < first
  const pscan::plus<> op{};

  check_rejected([&] { pscan::inclusive_scan(p, first, last, out.begin()); },
                 {"inclusive_scan", "last"});
  check_rejected([&] { pscan::inclusive_scan(p, first, last, out.begin(), op, 7); },
                 {"inclusive_scan", "last"});
  check_rejected([&] { pscan::scan(p, first, last, out.begin()); }, {"last"});
  check_rejected([&] { pscan::exclusive_scan(p, first, last, out.begin(), 7); },
                 {"exclusive_scan", "last"});
  check_rejected([&] { pscan::reduce(p, first, last, 7); }, {"reduce", "last"});
  check_rejected([&] { pscan::reduce_into(p, first, last, out.begin(), 7); },
                 {"reduce_into", "last"});
  check_rejected(
      [&] { pscan::segmented_inclusive_scan(p, first, last, flags.begin(), out.begin()); },
      {"segmented_inclusive_scan", "last"});
  check_rejected(
      [&] { pscan::segmented_exclusive_scan(p, first, last, flags.begin(), out.begin(), 7); },
      {"segmented_exclusive_scan", "last"});
  check_rejected([&] { pscan::inclusive_scan_by_key(p, first, last, in.begin(), out.begin()); },
                 {"inclusive_scan_by_key", "keys_last"});
  check_rejected([&] { pscan::exclusive_scan_by_key(p, first, last, in.begin(), out.begin(), 7); },
                 {"exclusive_scan_by_key", "keys_last"});
  check_rejected(
      [&] { pscan::reduce_by_key(p, first, last, in.begin(), out.begin(), out.begin()); },
      {"reduce_by_key", "keys_last"});
  check_rejected(
      [&] {
        pscan::reduce_by_key_into(p, first, last, in.begin(), out.begin(), out.begin(),
                                  out.begin());
      },
      {"reduce_by_key_into", "keys_last"});
  check_rejected(
      [&] {
        pscan::segmented_reduce(p, in.begin(), offsets.begin() + 2, offsets.begin(), out.begin(),
                                7);
      },
      {"segmented_reduce", "offsets_last"});
  const auto reversed_offsets = [&](auto scan) { scan(offsets.begin() + 2, offsets.begin()); };
  check_rejected(
      [&] {
        reversed_offsets([&](auto from, auto to) {
          pscan::inclusive_scan_by_offsets(p, in.begin(), from, to, out.begin());
        });
      },
      {"inclusive_scan_by_offsets", "offsets_last"});
  check_rejected(
      [&] {
        reversed_offsets([&](auto from, auto to) {
          pscan::exclusive_scan_by_offsets(p, in.begin(), from, to, out.begin(), 7);
        });
      },
      {"exclusive_scan_by_offsets", "offsets_last"});
  CHECK(F::download(out) == untouched);
}

TEST_CASE_TEMPLATE_DEFINE("bad offsets are rejected, named by their first bad index", F,
                          bad_offsets_case) {
  using namespace conformance;
  const std::vector<std::int32_t> untouched(4, sentinel);
  auto values = F::upload(std::vector<std::int32_t>(64, 1));
  struct bad_case {
    std::vector<std::int64_t> offsets;
    const char* first_bad;
  };
  const std::vector<bad_case> bad = {
      {{0, 5, 3, 8}, "offsets[2]"},         // decreasing
      {{0, 8, 16, 15}, "offsets[3]"},       // decreasing at the end
      {{-1, 3, 8}, "offsets[0]"},           // negative first offset
      {{0, 9, 2, 70, 1}, "offsets[2]"},     // more than one: the first is named
      {{40, 30, 20, 10, 0}, "offsets[1]"},  // last below first: no element is read
  };
  for (const auto& c : bad) {
    INFO("offsets ", c.offsets[0], ", ", c.offsets[1], ", ", c.offsets[2], ", ...");
    auto offs = F::upload(c.offsets);
    auto out = F::upload(untouched);
    const auto call = [&](const auto& p) {
      pscan::segmented_reduce(p, values.begin(), offs.begin(), offs.end(), out.begin(), 7);
    };
    if constexpr (reports_offsets_later_v<decltype(F::policy())>) {
      check_rejected([&] { call(F::policy().checked()); },
                     {"segmented_reduce", "offsets", c.first_bad});
      CHECK(F::download(out) == untouched);
      call(F::policy());  // returns before the check has run
      check_rejected([&] { F::policy().synchronize(); },
                     {"synchronize", "segmented_reduce", "offsets", c.first_bad});
      F::policy().synchronize();  // the report is taken once
    } else {
      check_rejected([&] { call(F::policy()); }, {"segmented_reduce", "offsets", c.first_bad});
      CHECK(F::download(out) == untouched);
    }
    // The scans by offsets check them before they start, on every policy.
    auto scan_out = F::upload(std::vector<std::int32_t>(80, sentinel));
    check_rejected(
        [&] {
          pscan::inclusive_scan_by_offsets(F::policy(), values.begin(), offs.begin(), offs.end(),
                                           scan_out.begin());
        },
        {"inclusive_scan_by_offsets", "offsets", c.first_bad});
    check_rejected(
        [&] {
          pscan::exclusive_scan_by_offsets(F::policy(), values.begin(), offs.begin(), offs.end(),
                                           scan_out.begin(), 7);
        },
        {"exclusive_scan_by_offsets", "offsets", c.first_bad});
    CHECK(F::download(scan_out) == std::vector<std::int32_t>(80, sentinel));
    // Those returning nothing: checked as they scan where the policy sizes them on the device
    // (reported by synchronize(), or before any write when checked), else first.
    using P = std::decay_t<decltype(F::policy())>;
    const auto inclusive_into = [&](const auto& p) {
      pscan::inclusive_scan_by_offsets_into(p, values.begin(), offs.begin(), offs.end(),
                                            scan_out.begin());
    };
    const auto exclusive_into = [&](const auto& p) {
      pscan::exclusive_scan_by_offsets_into(p, values.begin(), offs.begin(), offs.end(),
                                            scan_out.begin(), 7);
    };
    if constexpr (reports_offsets_later_v<P>) {
      check_rejected([&] { inclusive_into(F::policy().checked()); },
                     {"inclusive_scan_by_offsets_into", "offsets", c.first_bad});
      check_rejected([&] { exclusive_into(F::policy().checked()); },
                     {"exclusive_scan_by_offsets_into", "offsets", c.first_bad});
      CHECK(F::download(scan_out) == std::vector<std::int32_t>(80, sentinel));
    }
    if constexpr (scans_offsets_unwaited_v<P>) {
      inclusive_into(F::policy());
      check_rejected([&] { F::policy().synchronize(); }, {"synchronize", "offsets", c.first_bad});
      exclusive_into(F::policy());
      check_rejected([&] { F::policy().synchronize(); }, {"synchronize", "offsets", c.first_bad});
      F::policy().synchronize();  // the report is taken once
    } else {
      check_rejected([&] { inclusive_into(F::policy()); }, {"scan_by_offsets", c.first_bad});
      check_rejected([&] { exclusive_into(F::policy()); }, {"scan_by_offsets", c.first_bad});
      CHECK(F::download(scan_out) == std::vector<std::int32_t>(80, sentinel));
    }
  }
}

TEST_CASE_TEMPLATE_DEFINE("null pointers are rejected before any write unless n is 0", F,
                          null_pointer_case) {
  using namespace conformance;
  const std::vector<std::int32_t> untouched(64, sentinel);
  auto values = F::upload(std::vector<std::int32_t>(64, 1));
  auto flags = F::upload(std::vector<std::uint8_t>(64, 0));
  auto offsets = F::upload(std::vector<std::int64_t>{0, 8, 64});
  auto out = F::upload(untouched);
  const auto p = F::policy();
  std::int32_t* const null = nullptr;
  std::uint8_t* const null_flags = nullptr;
  const auto first = values.begin(), last = values.end();
  const pscan::plus<> op{};
  const twice_value twice{};

  check_rejected([&] { pscan::inclusive_scan(p, first, last, null); }, {"inclusive_scan", "out"});
  check_rejected([&] { pscan::exclusive_scan(p, first, last, null, 7); },
                 {"exclusive_scan", "out"});
  check_rejected([&] { pscan::transform_inclusive_scan(p, first, last, null, op, twice); },
                 {"transform_inclusive_scan", "out"});
  check_rejected([&] { pscan::transform_exclusive_scan(p, first, last, null, 7, op, twice); },
                 {"transform_exclusive_scan", "out"});
  // reduce_into writes *result even for n == 0 (init): a null result is never valid.
  check_rejected([&] { pscan::reduce_into(p, first, last, null, 7); }, {"reduce_into", "result"});
  check_rejected([&] { pscan::reduce_into(p, null, null, null, 7); }, {"reduce_into", "result"});
  check_rejected([&] { pscan::segmented_inclusive_scan(p, first, last, null_flags, out.begin()); },
                 {"segmented_inclusive_scan", "head_flags"});
  check_rejected(
      [&] { pscan::segmented_exclusive_scan(p, first, last, flags.begin(), null, 7); },
      {"segmented_exclusive_scan", "out"});
  check_rejected([&] { pscan::inclusive_scan_by_key(p, first, last, null, out.begin()); },
                 {"inclusive_scan_by_key", "values"});
  check_rejected([&] { pscan::exclusive_scan_by_key(p, first, last, first, null, 7); },
                 {"exclusive_scan_by_key", "out"});
  check_rejected(
      [&] { pscan::segmented_reduce(p, null, offsets.begin(), offsets.end(), out.begin(), 7); },
      {"segmented_reduce", "values"});
  check_rejected(
      [&] { pscan::segmented_reduce(p, first, offsets.begin(), offsets.end(), null, 7); },
      {"segmented_reduce", "out"});
  check_rejected(
      [&] {
        pscan::inclusive_scan_by_offsets(p, null, offsets.begin(), offsets.end(), out.begin());
      },
      {"inclusive_scan_by_offsets", "values"});
  check_rejected(
      [&] { pscan::exclusive_scan_by_offsets(p, first, offsets.begin(), offsets.end(), null, 7); },
      {"exclusive_scan_by_offsets", "out"});
  check_rejected([&] { pscan::reduce_by_key(p, first, last, first, null, out.begin()); },
                 {"reduce_by_key", "keys_out"});
  check_rejected([&] { pscan::reduce_by_key(p, first, last, first, out.begin(), null); },
                 {"reduce_by_key", "values_out"});
  check_rejected(
      [&] {
        pscan::reduce_by_key_into(p, first, last, first, out.begin(), out.begin(),
                                  static_cast<std::int64_t*>(nullptr));
      },
      {"reduce_by_key_into", "runs_out"});
  CHECK(F::download(out) == untouched);

  INFO("null pointers with n == 0 are valid");
  CHECK_NOTHROW(pscan::inclusive_scan(p, null, null, null));
  CHECK(pscan::reduce(p, null, null, 7) == 7);
  CHECK_NOTHROW(pscan::exclusive_scan(p, null, null, null, 7));
  CHECK_NOTHROW(pscan::segmented_inclusive_scan(p, null, null, null_flags, null));
}

#define CONFORMANCE_ERROR_CASES(...)                           \
  TEST_CASE_TEMPLATE_INVOKE(reversed_range_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(bad_offsets_case, __VA_ARGS__);    \
  TEST_CASE_TEMPLATE_INVOKE(null_pointer_case, __VA_ARGS__)
