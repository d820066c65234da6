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
