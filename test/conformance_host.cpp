// The CPU policies' own conformance case, over host memory: the same bits from every run. The
// suite's cases (test/conformance/*_cases.hpp) run on them through the translation units
// pscan_conformance_sources writes (test/CMakeLists.txt).

#include "conformance/support.hpp"
#include "host_memory.hpp"

#include <cmath>
#include <cstring>
#include <vector>

// The fixtures of the policies the CPU backends list (test/CMakeLists.txt writes it).
#include "host_fixtures.hpp"

// Floats of mixed magnitudes round differently under different groupings: each host policy
// groups by its thread count alone, never by timing, so a call gives the same bits every time.
TEST_CASE_TEMPLATE("the same bits run to run", F, HOST_FIXTURES) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  std::vector<float> input(static_cast<std::size_t>(capped((1 << 20) + 3)));
  for (float& v : input) {
    v = std::ldexp(float(random.between(1, 1 << 23)), int(random.between(-40, 0)));
  }
  const auto p = F::policy();
  std::vector<float> first(input.size()), second(input.size());
  pscan::inclusive_scan(p, input.begin(), input.end(), first.begin());
  pscan::inclusive_scan(p, input.begin(), input.end(), second.begin());
  CHECK(std::memcmp(first.data(), second.data(), first.size() * sizeof(float)) == 0);
  const float total = pscan::reduce(p, input.begin(), input.end(), 0.0f);
  const float again = pscan::reduce(p, input.begin(), input.end(), 0.0f);
  CHECK(std::memcmp(&total, &again, sizeof total) == 0);
}

namespace runs_as_test {

// A backend with one algorithm of its own, an inclusive scan that counts its calls; it runs
// every other algorithm as pscan::seq (the runs_as hook of detail/dispatch.hpp).
struct policy : pscan::execution_policy_base {
  int* own_calls;
};
template <class InIt, class OutIt, class Op>
void inclusive_scan(const policy& p, InIt first, InIt last, OutIt out, Op op) {
  ++*p.own_calls;
  auto sum = *first;
  for (*out++ = sum; ++first != last;) *out++ = sum = op(sum, *first);
}
inline auto runs_as(const policy&) { return pscan::seq; }

}  // namespace runs_as_test

TEST_CASE("a policy runs the algorithms its backend lacks as the policy runs_as returns") {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  int own_calls = 0;
  const runs_as_test::policy p{{}, &own_calls};
  const std::int64_t n = random.between(2, 1000);
  std::vector<std::int64_t> in(static_cast<std::size_t>(n)), out(in.size()), want(in.size());
  for (auto& v : in) v = random.between(-1000, 1000);
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < in.size(); ++i) want[i] = sum += in[i];

  pscan::inclusive_scan(p, in.begin(), in.end(), out.begin());
  CHECK(out == want);
  CHECK(own_calls == 1);
  CHECK(pscan::reduce(p, in.begin(), in.end(), std::int64_t{7}) == want.back() + 7);
  const std::vector<std::int64_t> offsets = {0, n / 2, n};
  std::vector<std::int64_t> sums(2);
  pscan::segmented_reduce(p, in.begin(), offsets.begin(), offsets.end(), sums.begin(),
                          std::int64_t{0});
  CHECK(sums[0] == want[std::size_t(n / 2) - 1]);
  CHECK(sums[0] + sums[1] == want.back());
  CHECK(own_calls == 1);
}
