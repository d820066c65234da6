// The conformance suite on the CPU policies, over host memory: the scans, reductions, transforms,
// bad input and large inputs (the segmented families are in conformance_host_segmented.cpp and
// conformance_host_offsets_reduce_by_key.cpp: the translation units compile in parallel).

#include "conformance/error_cases.hpp"
#include "conformance/large_cases.hpp"
#include "conformance/reduce_cases.hpp"
#include "conformance/scan_cases.hpp"
#include "conformance/transform_cases.hpp"
#include "host_memory.hpp"

#include <cmath>
#include <cstring>
#include <vector>

// The fixtures of the policies the CPU backends list (test/CMakeLists.txt writes it).
#include "host_fixtures.hpp"

CONFORMANCE_SCAN_CASES(HOST_FIXTURES);
CONFORMANCE_REDUCE_CASES(HOST_FIXTURES);
CONFORMANCE_TRANSFORM_CASES(HOST_FIXTURES);
CONFORMANCE_ERROR_CASES(HOST_FIXTURES);
CONFORMANCE_LARGE_CASES(HOST_FIXTURES);

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
