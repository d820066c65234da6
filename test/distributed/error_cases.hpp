#pragma once
// Distributed: a bad argument on one rank throws pscan::invalid_argument on every rank, naming
// that rank, before any rank writes (outputs filled with a sentinel are compared after), and the
// ranks go on in step. Instantiate with DISTRIBUTED_ERROR_CASES(fixtures...).

#include <set>
#include <type_traits>

#include "conformance/error_cases.hpp"
#include "support.hpp"

namespace distributed_test {

// Every rank runs call(bad) and must catch pscan::invalid_argument whose message names the
// algorithm and the bad rank, and on the bad rank also the argument.
template <class Call>
void check_agreed(Call&& call, int bad, const char* algorithm, const char* argument) {
  const place where = world();
  const std::string bad_rank = "rank " + std::to_string(bad) + " of " + std::to_string(where.size);
  if (where.rank == bad) {
    check_rejected([&] { call(bad); }, {algorithm, argument, bad_rank.c_str()});
  } else {
    check_rejected([&] { call(bad); }, {algorithm, bad_rank.c_str()});
  }
}

// The ranks that take turns passing the bad argument: the first, the middle and the last.
inline std::set<int> bad_ranks() {
  const place where = world();
  return {0, where.size / 2, where.size - 1};
}

}  // namespace distributed_test

TEST_CASE_TEMPLATE_DEFINE("distributed: a reversed range on one rank is rejected on every rank", F,
                          distributed_reversed_range_case) {
  using namespace distributed_test;
  const std::vector<std::int32_t> untouched(64, sentinel);
  auto in = F::upload(std::vector<std::int32_t>(64, 1));
  auto flags = F::upload(std::vector<std::uint8_t>(64, 0));
  auto offsets = F::upload(std::vector<std::int64_t>{0, 8, 16});
  auto out = F::upload(untouched);
  auto keys_out = F::upload(untouched);
  auto runs_out = F::upload(std::vector<std::int64_t>{sentinel});
  const auto p = distributed_policy<F>();
  const pscan::plus<> op{};
  // On the bad rank last < first; on the others [0, 32), and all three offsets.
  const auto first = [&](int bad) { return in.begin() + (world().rank == bad ? 8 : 0); };
  const auto last = [&](int bad) { return in.begin() + (world().rank == bad ? 0 : 32); };
  const auto offsets_first = [&](int bad) {
    return offsets.begin() + (world().rank == bad ? 2 : 0);
  };
  const auto offsets_last = [&](int bad) {
    return offsets.begin() + (world().rank == bad ? 0 : 3);
  };

  for (const int bad : bad_ranks()) {
    INFO("bad rank ", bad);
    check_agreed([&](int b) { pscan::inclusive_scan(p, first(b), last(b), out.begin()); }, bad,
                 "inclusive_scan", "last");
    check_agreed([&](int b) { pscan::inclusive_scan(p, first(b), last(b), out.begin(), op, 7); },
                 bad, "inclusive_scan", "last");
    check_agreed([&](int b) { pscan::scan(p, first(b), last(b), out.begin()); }, bad,
                 "inclusive_scan", "last");
    check_agreed([&](int b) { pscan::exclusive_scan(p, first(b), last(b), out.begin(), 7); }, bad,
                 "exclusive_scan", "last");
    check_agreed([&](int b) { pscan::reduce(p, first(b), last(b), 7); }, bad, "reduce", "last");
    check_agreed([&](int b) { pscan::reduce_into(p, first(b), last(b), out.begin(), 7); }, bad,
                 "reduce_into", "last");
    check_agreed(
        [&](int b) {
          pscan::segmented_inclusive_scan(p, first(b), last(b), flags.begin(), out.begin());
        },
        bad, "segmented_inclusive_scan", "last");
    check_agreed(
        [&](int b) {
          pscan::segmented_exclusive_scan(p, first(b), last(b), flags.begin(), out.begin(), 7);
        },
        bad, "segmented_exclusive_scan", "last");
    check_agreed(
        [&](int b) { pscan::inclusive_scan_by_key(p, first(b), last(b), in.begin(), out.begin()); },
        bad, "inclusive_scan_by_key", "keys_last");
    check_agreed(
        [&](int b) {
          pscan::exclusive_scan_by_key(p, first(b), last(b), in.begin(), out.begin(), 7);
        },
        bad, "exclusive_scan_by_key", "keys_last");
    check_agreed(
        [&](int b) {
          pscan::segmented_reduce(p, in.begin(), offsets_first(b), offsets_last(b), out.begin(), 7);
        },
        bad, "segmented_reduce", "offsets_last");
    check_agreed(
        [&](int b) {
          pscan::reduce_by_key(p, first(b), last(b), in.begin(), keys_out.begin(), out.begin());
        },
        bad, "reduce_by_key", "keys_last");
    check_agreed(
        [&](int b) {
          pscan::reduce_by_key_into(p, first(b), last(b), in.begin(), keys_out.begin(),
                                    out.begin(), runs_out.begin());
        },
        bad, "reduce_by_key_into", "keys_last");
    std::int64_t* const runs = &*runs_out.begin();
    using local_policy = std::decay_t<decltype(F::policy())>;
    if constexpr (pscan::detail::adl_check_iterator::available<local_policy, const char*,
                                                               const char*, std::int64_t*,
                                                               std::int64_t>) {
      // A policy that checks its pointers (the CUDA ones) rejects a null count.
      check_agreed(
          [&](int b) {
            pscan::reduce_by_key_into(p, in.begin(), in.begin() + 32, in.begin(),
                                      keys_out.begin(), out.begin(),
                                      world().rank == b ? nullptr : runs);
          },
          bad, "reduce_by_key_into", "runs_out");
    }
    CHECK(F::download(out) == untouched);
    CHECK(F::download(keys_out) == untouched);
    CHECK(F::download(runs_out)[0] == sentinel);
  }
  // The ranks are still in step: a call with good arguments everywhere works.
  CHECK(pscan::reduce(p, in.begin(), in.begin() + 32, 0) == 32 * world().size);
}

TEST_CASE_TEMPLATE_DEFINE("distributed: bad offsets on one rank are rejected on every rank", F,
                          distributed_bad_offsets_case) {
  using namespace distributed_test;
  const std::vector<std::int32_t> untouched(4, sentinel);
  auto values = F::upload(std::vector<std::int32_t>(64, 1));
  auto out = F::upload(untouched);
  auto good = F::upload(std::vector<std::int64_t>{0, 3, 8, 8});
  const std::vector<std::int32_t> scan_untouched(64, sentinel);
  auto scan_out = F::upload(scan_untouched);
  const std::vector<std::vector<std::int64_t>> bad_offsets = {
      {0, 5, 3, 8},    // decreasing
      {0, 8, 16, 15},  // decreasing at the end
      {-1, 3, 8},      // negative first offset
  };
  const auto p = distributed_policy<F>();
  for (const auto& offsets : bad_offsets) {
    auto bad_offs = F::upload(offsets);
    for (const int bad : bad_ranks()) {
      INFO("bad rank ", bad, ", offsets ", offsets[0], ", ", offsets[1], ", ", offsets[2], ", ...");
      check_agreed(
          [&](int b) {
            auto& offs = world().rank == b ? bad_offs : good;
            pscan::segmented_reduce(p, values.begin(), offs.begin(), offs.end(), out.begin(), 7);
          },
          bad, "segmented_reduce", "offsets");
      check_agreed(
          [&](int b) {
            auto& offs = world().rank == b ? bad_offs : good;
            pscan::inclusive_scan_by_offsets(p, values.begin(), offs.begin(), offs.end(),
                                             scan_out.begin());
          },
          bad, "inclusive_scan_by_offsets", "offsets");
      check_agreed(
          [&](int b) {
            auto& offs = world().rank == b ? bad_offs : good;
            pscan::exclusive_scan_by_offsets(p, values.begin(), offs.begin(), offs.end(),
                                             scan_out.begin(), 7);
          },
          bad, "exclusive_scan_by_offsets", "offsets");
      CHECK(F::download(out) == untouched);
      CHECK(F::download(scan_out) == scan_untouched);
    }
  }
}

#define DISTRIBUTED_ERROR_CASES(...)                                       \
  TEST_CASE_TEMPLATE_INVOKE(distributed_reversed_range_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(distributed_bad_offsets_case, __VA_ARGS__)
