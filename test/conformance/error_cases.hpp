#pragma once
// Conformance: bad input throws pscan::invalid_argument naming the argument, before any write
// (the output, filled with a sentinel, is compared after). Instantiate with
// CONFORMANCE_ERROR_CASES(fixtures...).

#include <initializer_list>
#include <string>

#include "support.hpp"

namespace conformance {

inline constexpr std::int32_t sentinel = -123456;

// call() must throw pscan::invalid_argument whose message contains every word.
template <class Call>
void check_rejected(Call&& call, std::initializer_list<const char*> words) {
  try {
    call();
    FAIL_CHECK("no pscan::invalid_argument was thrown");
  } catch (const pscan::invalid_argument& e) {
    const std::string message = e.what();  // doctest prints a char* as a pointer
    for (const std::string word : words) {
      CHECK_MESSAGE(message.find(word) != std::string::npos, "the message \"", message,
                    "\" does not name ", word);
    }
  } catch (const std::exception& e) {
    FAIL_CHECK("expected pscan::invalid_argument, got another exception: ", std::string(e.what()));
  }
}

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
      [&] {
        pscan::segmented_reduce(p, in.begin(), offsets.begin() + 2, offsets.begin(), out.begin(),
                                7);
      },
      {"segmented_reduce", "offsets_last"});
  CHECK(F::download(out) == untouched);
}

TEST_CASE_TEMPLATE_DEFINE("bad offsets are rejected before any write", F, bad_offsets_case) {
  using namespace conformance;
  const std::vector<std::int32_t> untouched(4, sentinel);
  auto values = F::upload(std::vector<std::int32_t>(64, 1));
  auto out = F::upload(untouched);
  const std::vector<std::vector<std::int64_t>> bad = {
      {0, 5, 3, 8},    // decreasing
      {0, 8, 16, 15},  // decreasing at the end
      {-1, 3, 8},      // negative first offset
  };
  for (const auto& offsets : bad) {
    INFO("offsets ", offsets[0], ", ", offsets[1], ", ", offsets[2], ", ...");
    auto offs = F::upload(offsets);
    check_rejected(
        [&] {
          pscan::segmented_reduce(F::policy(), values.begin(), offs.begin(), offs.end(),
                                  out.begin(), 7);
        },
        {"segmented_reduce", "offsets"});
    CHECK(F::download(out) == untouched);
  }
}

#define CONFORMANCE_ERROR_CASES(...)                           \
  TEST_CASE_TEMPLATE_INVOKE(reversed_range_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(bad_offsets_case, __VA_ARGS__)
