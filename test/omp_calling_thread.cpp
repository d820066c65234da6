// pscan::omp's two ways through a call: chunks shared by a team (each reduced, its prefix
// published, then rescanned), and every chunk on the calling thread alone while regions are
// contended (one pass, each chunk's carry known). Both must give the same bits, for operators
// that only associate (float sums, affine maps) as for integer ones, in every algorithm built on
// the scan: plain, segmented, by key, reduce_by_key.

#include <pscan/pscan.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

namespace omp_detail = pscan::openmp_backend::detail;

// Runs f with the process's regions marked contended, so that every call runs alone.
template <class F>
void alone(F&& f) {
  omp_detail::contended_until_ns.store(std::numeric_limits<std::int64_t>::max());
  f();
  omp_detail::contended_until_ns.store(0);
}

// Runs f with a team (after the team's first region, which judges nothing).
template <class F>
void in_a_team(F&& f) {
  omp_detail::contended_until_ns.store(0);
  f();
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

struct affine {
  double a, b;  // x -> a x + b
};
struct then {  // f, then g: not commutative, associative up to rounding
  affine operator()(const affine& f, const affine& g) const {
    return {g.a * f.a, g.a * f.b + g.b};
  }
};

// Values over many magnitudes, so that any other grouping of a float sum shows in its bits.
std::vector<float> floats(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-20, 20);
  std::vector<float> v(n);
  for (float& x : v) x = std::ldexp(mantissa(rng), exponent(rng));
  return v;
}

// Heads with probability 1/mean (position 0 always); keys that change there.
std::vector<int> heads(std::size_t n, double mean, std::mt19937_64& rng) {
  std::bernoulli_distribution starts(1.0 / mean);
  std::vector<int> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = i == 0 || starts(rng);
  return h;
}
std::vector<int> keys_of(const std::vector<int>& h) {
  std::vector<int> k(h.size());
  int key = 0;
  for (std::size_t i = 0; i < h.size(); ++i) k[i] = key += h[i];
  return k;
}

// Sizes around the chunks (at least 1024 elements, at most 128 KiB, n / threads), the stretches
// (8 or 4 of at least 64 elements) and the team's smallest share.
const std::size_t sizes[] = {0, 1, 1000, 20000, 24577, 65536 + 3, 300007, (1u << 20) + 17};
const auto policy = pscan::omp.threads(3);

}  // namespace

TEST_CASE("omp scans: the calling thread alone gives the team's bits") {
  std::mt19937_64 rng(20261128);
  for (const std::size_t n : sizes) {
    INFO("n = ", n);
    const std::vector<float> x = floats(n, rng);
    std::vector<float> team(n), one(n);
    in_a_team([&] { pscan::inclusive_scan(policy, x.begin(), x.end(), team.begin()); });
    alone([&] { pscan::inclusive_scan(policy, x.begin(), x.end(), one.begin()); });
    CHECK(same_bits(team, one));
    std::vector<float> in_place_team = x, in_place_one = x;  // each output over its element
    in_a_team([&] {
      pscan::inclusive_scan(policy, in_place_team.begin(), in_place_team.end(),
                            in_place_team.begin());
    });
    alone([&] {
      pscan::inclusive_scan(policy, in_place_one.begin(), in_place_one.end(),
                            in_place_one.begin());
    });
    CHECK(same_bits(in_place_team, team));
    CHECK(same_bits(in_place_one, team));
    in_a_team([&] { pscan::exclusive_scan(policy, x.begin(), x.end(), team.begin(), 0.5f); });
    alone([&] { pscan::exclusive_scan(policy, x.begin(), x.end(), one.begin(), 0.5f); });
    CHECK(same_bits(team, one));

    std::vector<double> wide(n), wide_one(n);  // double accumulator over float input
    in_a_team([&] {
      pscan::inclusive_scan(policy, x.begin(), x.end(), wide.begin(), pscan::plus<>{}, 1.0);
    });
    alone([&] {
      pscan::inclusive_scan(policy, x.begin(), x.end(), wide_one.begin(), pscan::plus<>{}, 1.0);
    });
    CHECK(same_bits(wide, wide_one));

    std::vector<affine> maps(n), maps_team(n), maps_one(n);
    for (std::size_t i = 0; i < n; ++i) maps[i] = {1.0 + x[i] * 1e-3, x[i]};
    in_a_team([&] {
      pscan::inclusive_scan(policy, maps.begin(), maps.end(), maps_team.begin(), then{});
    });
    alone([&] {
      pscan::inclusive_scan(policy, maps.begin(), maps.end(), maps_one.begin(), then{});
    });
    CHECK(same_bits(maps_team, maps_one));

    std::vector<std::uint64_t> ints(n), ints_team(n), ints_one(n);  // sums wrap, defined
    for (std::size_t i = 0; i < n; ++i) ints[i] = rng();
    in_a_team([&] { pscan::inclusive_scan(policy, ints.begin(), ints.end(), ints_team.begin()); });
    alone([&] { pscan::inclusive_scan(policy, ints.begin(), ints.end(), ints_one.begin()); });
    CHECK(same_bits(ints_team, ints_one));
  }
}

TEST_CASE("omp segmented scans and reduce_by_key: the calling thread alone gives the team's bits") {
  std::mt19937_64 rng(11282026);
  for (const double mean : {3.0, 1000.0, 1e9}) {
    for (const std::size_t n : sizes) {
      INFO("n = ", n, ", mean segment ", mean);
      const std::vector<float> x = floats(n, rng);
      const std::vector<int> h = heads(n, mean, rng);
      const std::vector<int> k = keys_of(h);
      std::vector<float> team(n), one(n);
      in_a_team([&] {
        pscan::segmented_inclusive_scan(policy, x.begin(), x.end(), h.begin(), team.begin());
      });
      alone([&] {
        pscan::segmented_inclusive_scan(policy, x.begin(), x.end(), h.begin(), one.begin());
      });
      CHECK(same_bits(team, one));
      in_a_team([&] {
        pscan::exclusive_scan_by_key(policy, k.begin(), k.end(), x.begin(), team.begin(), 0.25f);
      });
      alone([&] {
        pscan::exclusive_scan_by_key(policy, k.begin(), k.end(), x.begin(), one.begin(), 0.25f);
      });
      CHECK(same_bits(team, one));

      std::vector<int> keys_team(n), keys_one(n);
      std::vector<double> sums_team(n), sums_one(n);
      std::vector<double> wide(x.begin(), x.end());
      std::size_t runs_team = 0, runs_one = 0;
      in_a_team([&] {
        runs_team = pscan::reduce_by_key(policy, k.begin(), k.end(), wide.begin(),
                                         keys_team.begin(), sums_team.begin())
                        .first -
                    keys_team.begin();
      });
      alone([&] {
        runs_one = pscan::reduce_by_key(policy, k.begin(), k.end(), wide.begin(),
                                        keys_one.begin(), sums_one.begin())
                       .first -
                   keys_one.begin();
      });
      REQUIRE(runs_team == runs_one);
      keys_team.resize(runs_team), keys_one.resize(runs_one);
      sums_team.resize(runs_team), sums_one.resize(runs_one);
      CHECK(same_bits(keys_team, keys_one));
      CHECK(same_bits(sums_team, sums_one));
    }
  }
}
