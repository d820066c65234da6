// The dispatch layer's hooks (include/pscan/detail/dispatch.hpp) on a backend of the test's own:
// runs_as, through which a backend runs the algorithms it lacks as another policy.

#include "conformance/support.hpp"

#include <pscan/pscan.hpp>

#include <cstdint>
#include <vector>

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
