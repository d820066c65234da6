#pragma once
// Shared pieces of the conformance suite: seeds, sizes, a cheap generator, result comparison.
// A backend fixture F (see conformance_host.cpp, cuda/device_fixture.cuh) gives the cases:
//   F::policy()        the policy under test
//   F::upload(vector)  a buffer the policy can use, with begin()/end() (raw pointers)
//   F::download(buf)   its contents as a std::vector, after the policy's work has finished

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <pscan/pscan.hpp>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__CUDACC__)
#define CONFORMANCE_HD __host__ __device__
#else
#define CONFORMANCE_HD
#endif

namespace conformance {

// A fresh seed per test case, unless PSCAN_TEST_SEED pins it to reproduce a failure.
inline std::uint64_t fresh_seed() {
  if (const char* pinned = std::getenv("PSCAN_TEST_SEED")) return std::strtoull(pinned, nullptr, 0);
  std::random_device device;
  return (std::uint64_t{device()} << 32) ^ device();
}

// splitmix64: cheap, so generating data never dominates a Debug+ASan run.
class random_source {
 public:
  explicit random_source(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi]; the modulo bias is irrelevant for test data.
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool one_in(std::uint64_t k) { return next() % k == 0; }

 private:
  std::uint64_t state_;
};

// Declares `name`, a random_source seeded freshly, with the seed in every failure message.
#define CONFORMANCE_SEEDED_RANDOM(name)                          \
  const std::uint64_t name##_seed = ::conformance::fresh_seed(); \
  INFO("rerun with PSCAN_TEST_SEED=", name##_seed);              \
  ::conformance::random_source name(name##_seed)

// Ends a case that cannot run here as skipped: exit code 77, the SKIP_RETURN_CODE of every test.
// The CMake files register each case that may skip as a CTest test of its own.
[[noreturn]] inline void skip_case(const std::string& reason) {
  std::cout << "skipped: " << reason << std::endl;
  std::exit(77);
}

// PSCAN_TEST_MAX_N caps the sizes (the sanitizer runs use it to stay within minutes).
inline std::int64_t size_cap() {
  const char* cap = std::getenv("PSCAN_TEST_MAX_N");
  return cap ? std::strtoll(cap, nullptr, 0) : std::numeric_limits<std::int64_t>::max();
}

// Empty and tiny inputs, primes, and 2^k-1 / 2^k / 2^k+1 around warp, block and tile sizes.
inline std::vector<std::int64_t> boundary_sizes() {
  static const std::int64_t all[] = {
      0,      1,      2,     3,     5,     7,     13,    31,    32,     33,     61,
      97,     127,    128,   129,   255,   256,   257,   509,   1021,   1023,   1024,
      1025,   2039,   2047,  2048,  2049,  3071,  3073,  4093,  4095,   4096,   4097,
      6143,   8191,   8192,  8193,  12289, 16383, 16384, 16385, 32767,  32768,  32769,
      49157,  65535,  65536, 65537, 196613, 786433, 1048575, 1048577};
  std::vector<std::int64_t> sizes;
  for (std::int64_t n : all) {
    if (n <= size_cap()) sizes.push_back(n);
  }
  return sizes;
}

// Fewer sizes where a case multiplies them by many variants (in place, segment densities).
inline std::vector<std::int64_t> sample_sizes() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n : {1, 2, 33, 257, 1025, 4097, 65537, 1048577}) {
    if (n <= size_cap()) sizes.push_back(n);
  }
  return sizes;
}

// n, or the cap when it is lower.
inline std::int64_t capped(std::int64_t n) { return n < size_cap() ? n : size_cap(); }

inline constexpr std::int64_t large_size = (std::int64_t{1} << 24) + 5;

template <class K>
std::vector<typename K::value_type> make_values(random_source& random, std::int64_t n) {
  std::vector<typename K::value_type> values(static_cast<std::size_t>(n));
  for (auto& v : values) v = K::make(random);
  return values;
}

// Floats are compared bit for bit: the test values keep every association order exact.
template <class T>
bool same_value(const T& a, const T& b) {
  return a == b;
}
inline bool same_value(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Only the tainted type (value_kinds.hpp) can tell a value not derived from the input.
template <class T>
bool is_poisoned(const T&) {
  return false;
}

template <class T>
std::string show(const T& v) {
  std::ostringstream text;
  if constexpr (sizeof(T) == 1 && std::is_integral_v<T>) {
    text << static_cast<int>(v);
  } else {
    text << v;
  }
  return text.str();
}

// The first `count` elements of v (count <= v.size()).
template <class T>
std::vector<T> leading(std::vector<T> v, std::int64_t count) {
  REQUIRE(count <= static_cast<std::int64_t>(v.size()));
  v.resize(static_cast<std::size_t>(count));
  return v;
}

template <class T>
void check_equal(const std::vector<T>& expected, const std::vector<T>& actual) {
  REQUIRE(actual.size() == expected.size());
  std::size_t mismatches = 0, first = 0, poisoned = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    poisoned += is_poisoned(actual[i]);
    if (!same_value(expected[i], actual[i]) && mismatches++ == 0) first = i;
  }
  CHECK_MESSAGE(poisoned == 0, poisoned,
                " outputs come from an operator call on a value that was "
                "not derived from the input");
  if (mismatches == 0) return;
  const std::string where = "first at [" + std::to_string(first) + "]: expected " +
                            show(expected[first]) + ", got " + show(actual[first]);
  CHECK_MESSAGE(mismatches == 0, mismatches, " of ", actual.size(), " outputs differ; ", where);
}

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
