// The fused segmented scans (cuda_common/tile/segmented_tile_scan.cuh) and reduce_by_key
// (tile/reduce_by_key_tile.cuh, tiles of their own): segment (run) heads on, one before and one
// after every tile edge, of small and of large tiles; tiles without a head (segments over many
// tiles); every item a head. Head flags of 1-byte, bool and int type, keys of int32, int64 and of
// a padded 16-byte struct with its own KeyEq, values, flags and keys off 16-byte alignment; every
// value kind (non-commutative and tainted ones among them) against a host loop, on every CUDA
// policy.

#include "device_fixture.cuh"

#include <pscan/policies/cuda_chained/kernels/scan_kernels.cuh>
#include <pscan/policies/cuda_chained/tuning.cuh>
#include <pscan/runtime/device_info.cuh>

#include "conformance/reference.hpp"
#include "conformance/value_kinds.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

using conformance::random_source;

enum class layout { tile_edges, one_segment, all_heads };

const char* name_of(layout l) {
  switch (l) {
    case layout::tile_edges:
      return "heads on, before and after tile edges";
    case layout::one_segment:
      return "one segment";
    case layout::all_heads:
      return "every item a head";
  }
  return "?";
}

std::vector<char> make_heads(random_source& random, layout l, std::int64_t n, std::int64_t tile) {
  std::vector<char> heads(static_cast<std::size_t>(n), l == layout::all_heads);
  heads[0] = 1;
  if (l == layout::tile_edges) {
    for (std::int64_t edge = tile; edge - 1 < n; edge += tile) {
      const std::int64_t at = edge + random.between(-1, 1);
      if (at < n) heads[static_cast<std::size_t>(at)] = 1;
    }
  }
  return heads;
}

// A 16-byte key with 4 bytes of padding; keys are equal when their two fields are.
struct wide_key {
  std::int64_t major;
  std::int32_t minor;
};
struct same_wide_key {
  CONFORMANCE_HD bool operator()(const wide_key& a, const wide_key& b) const {
    return a.major == b.major && a.minor == b.minor;
  }
};

// Flags of type F (any non-zero value starts a segment; position 0 starts one whatever its flag)
// and keys of both kinds for `heads`.
template <class F>
std::vector<F> flags_of(random_source& random, const std::vector<char>& heads) {
  std::vector<F> flags(heads.size());
  for (std::size_t i = 0; i < heads.size(); ++i) {
    flags[i] = heads[i] && (i > 0 || random.one_in(2)) ? F(random.between(1, 3)) : F(0);
  }
  return flags;
}
template <class Key>
std::vector<Key> integer_keys(const std::vector<char>& heads) {
  std::vector<Key> keys(heads.size());
  Key key = -5;
  for (std::size_t i = 0; i < heads.size(); ++i) keys[i] = key += heads[i] ? 3 : 0;
  return keys;
}
std::vector<wide_key> wide_keys(const std::vector<char>& heads) {
  std::vector<wide_key> keys(heads.size());
  std::memset(keys.data(), 0xA5, keys.size() * sizeof(wide_key));  // padding that differs
  std::int64_t segment = 0;
  for (std::size_t i = 0; i < heads.size(); ++i) {
    segment += heads[i];
    keys[i].major = segment / 2;
    keys[i].minor = static_cast<std::int32_t>(segment % 2);
  }
  return keys;
}

// v uploaded one element into its buffer when skew is 1: off 16-byte alignment.
template <class Fixture, class V>
auto upload_skewed(V v, int skew) {
  if (skew) v.insert(v.begin(), v.front());
  return Fixture::upload(v);
}

// reduce_by_key_into of the keys (uploaded at d_keys + skew) and values at `in`, into outputs
// filled with other keys and random values, off 16-byte alignment when skew is, against a host
// loop.
template <class Fixture, class Kind, class Key, class DeviceKeys, class KeyEq>
void check_runs(random_source& random, const char* what, const std::vector<Key>& keys,
                const DeviceKeys& d_keys, const std::vector<typename Kind::value_type>& values,
                const typename Kind::value_type* in, int skew, KeyEq eq) {
  using T = typename Kind::value_type;
  INFO(std::string(what));
  const typename Kind::op_type op{};
  const auto [want_keys, want_values] = conformance::expected_runs(keys, values, op, eq);
  const auto n = static_cast<std::int64_t>(keys.size());
  const auto runs = static_cast<std::int64_t>(want_keys.size());
  std::vector<Key> no_keys(keys.size() + skew);
  std::memset(no_keys.data(), 0xA5, no_keys.size() * sizeof(Key));  // equal to none of keys
  auto keys_out = Fixture::upload(no_keys);
  auto values_out = Fixture::upload(conformance::make_values<Kind>(random, n + skew));
  auto runs_out = Fixture::upload(std::vector<std::int64_t>{-1});
  pscan::reduce_by_key_into(Fixture::policy(), d_keys.begin() + skew, d_keys.begin() + skew + n,
                            in, keys_out.begin() + skew, values_out.begin() + skew,
                            runs_out.begin(), eq, op);
  REQUIRE(Fixture::download(runs_out)[0] == runs);
  const auto got_values = Fixture::download(values_out);
  conformance::check_equal(want_values, std::vector<T>(got_values.begin() + skew,
                                                       got_values.begin() + skew + runs));
  const auto got_keys = Fixture::download(keys_out);
  std::int64_t wrong_keys = 0;
  for (std::int64_t r = 0; r < runs; ++r) {
    wrong_keys += !eq(got_keys[static_cast<std::size_t>(skew + r)],
                      want_keys[static_cast<std::size_t>(r)]);
  }
  CHECK(wrong_keys == 0);
}

// Every call on `heads`, with values, flags or keys and output 16-byte aligned (cudaMalloc), and
// again one element into buffers one element longer, off that alignment.
template <class Fixture, class K>
void check_variants(random_source& random, const std::vector<char>& heads) {
  using T = typename K::value_type;
  const typename K::op_type op{};
  const auto n = static_cast<std::int64_t>(heads.size());
  const auto values = conformance::make_values<K>(random, n);
  const auto inclusive = conformance::expected_segmented_inclusive_scan(values, heads, op);
  const auto exclusive =
      conformance::expected_segmented_exclusive_scan(values, heads, K::init(), op);
  const auto bytes = flags_of<std::uint8_t>(random, heads);
  const auto ints = flags_of<int>(random, heads);
  const auto keys = integer_keys<std::int64_t>(heads);
  const auto wide = wide_keys(heads);
  const auto p = Fixture::policy();
  for (int skew : {0, 1}) {
    INFO(std::string(skew ? "one element off 16-byte alignment" : "aligned"));
    const auto upload = [&](const auto& v) { return upload_skewed<Fixture>(v, skew); };
    auto in = upload(values);
    auto out = Fixture::upload(conformance::make_values<K>(random, n + skew));
    auto d_bytes = upload(bytes);
    auto d_ints = upload(ints);
    auto d_keys = upload(keys);
    auto d_wide = upload(wide);
    const T* i = in.begin() + skew;
    T* o = out.begin() + skew;
    const auto check = [&](const char* what, const std::vector<T>& expected, auto call) {
      INFO(std::string(what));
      call();
      const auto got = Fixture::download(out);
      conformance::check_equal(expected, std::vector<T>(got.begin() + skew, got.end()));
    };
    check("uint8 flags, inclusive", inclusive, [&] {
      pscan::segmented_inclusive_scan(p, i, i + n, d_bytes.begin() + skew, o, op);
    });
    check("int flags, exclusive", exclusive, [&] {
      pscan::segmented_exclusive_scan(p, i, i + n, d_ints.begin() + skew, o, K::init(), op);
    });
    check("int64 keys, exclusive", exclusive, [&] {
      pscan::exclusive_scan_by_key(p, d_keys.begin() + skew, d_keys.end(), i, o, K::init(), op);
    });
    check("16-byte keys, inclusive", inclusive, [&] {
      pscan::inclusive_scan_by_key(p, d_wide.begin() + skew, d_wide.end(), i, o, op,
                                   same_wide_key{});
    });
  }
}

// reduce_by_key_into on `heads` as keys of type Key, aligned and one element off 16-byte
// alignment.
template <class Fixture, class K, class Key, class KeyEq>
void check_run_variants(random_source& random, const char* what, const std::vector<Key>& keys,
                        KeyEq eq) {
  const auto n = static_cast<std::int64_t>(keys.size());
  const auto values = conformance::make_values<K>(random, n);
  for (int skew : {0, 1}) {
    INFO(std::string(skew ? "one element off 16-byte alignment" : "aligned"));
    auto in = upload_skewed<Fixture>(values, skew);
    auto d_keys = upload_skewed<Fixture>(keys, skew);
    check_runs<Fixture, K>(random, what, keys, d_keys, values, in.begin() + skew, skew, eq);
  }
}

// reduce_by_key's tiles for keys Key and values T: the chained kernel's small and large ones (the
// multi-pass kernels' are the large ones).
template <class Key, class T, class Build>
std::pair<std::int64_t, std::int64_t> run_tiles(Build) {
  namespace chained = pscan::cuda_chained_backend;
  using input = chained::chained_input<Build::target, pscan::detail::counted<T>,
                                       pscan::cuda_common::run_input<const Key*, const T*, pscan::equal_to<>>>;
  constexpr std::int64_t threads = chained::tuning<T, Build::target>::scan_threads;
  return {threads * input::small_items, threads * input::items};
}

}  // namespace

TEST_CASE_TEMPLATE("segmented scans across tile edges", Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  conformance::for_each_kind_and_size(
      conformance::all_kinds{}, {3, 40}, [&](auto kind, std::int64_t tiles) {
        using K = decltype(kind);
        pscan::cuda_common::with_build([&](auto build) {
          using cfg =
              pscan::cuda_chained_backend::tuning<typename K::value_type, decltype(build)::target>;
          // 3 small tiles, or 40 large ones: more than the small tiles' limit on any GPU here.
          const std::int64_t tile = tiles == 3 ? cfg::small_tile_items : cfg::tile_items;
          for (layout l : {layout::tile_edges, layout::one_segment, layout::all_heads}) {
            for (std::int64_t n : {tiles * tile - 1, tiles * tile, tiles * tile + 1}) {
              if (n > conformance::size_cap()) continue;
              INFO("layout: ", std::string(name_of(l)), ", n = ", n);
              check_variants<Fixture, K>(random, make_heads(random, l, n, tile));
            }
          }
        });
      });
}

TEST_CASE_TEMPLATE("reduce_by_key across its tile edges", Fixture, CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  const std::int64_t sms = pscan::runtime::current_device_info().sm_count;
  conformance::for_each_kind_and_size(
      conformance::all_kinds{}, {3, 0}, [&](auto kind, std::int64_t tiles) {
        using K = decltype(kind);
        using T = typename K::value_type;
        const auto check_key = [&](auto key, const char* what, auto make_keys, auto eq) {
          pscan::cuda_common::with_build([&](auto build) {
            const auto [small_tile, large_tile] = run_tiles<decltype(key), T>(build);
            // 3 small tiles, or large ones beyond what the device takes in small tiles.
            const std::int64_t tile = tiles == 3 ? small_tile : large_tile;
            const std::int64_t count =
                tiles == 3 ? 3 : pscan::cuda_common::ceil_div(sms * small_tile, large_tile) + 2;
            for (layout l : {layout::tile_edges, layout::one_segment, layout::all_heads}) {
              for (std::int64_t n : {count * tile - 1, count * tile, count * tile + 1}) {
                if (n > conformance::size_cap()) continue;
                INFO("layout: ", std::string(name_of(l)), ", n = ", n);
                check_run_variants<Fixture, K>(random, what,
                                               make_keys(make_heads(random, l, n, tile)), eq);
              }
            }
          });
        };
        check_key(std::int32_t{}, "int32 keys", integer_keys<std::int32_t>, pscan::equal_to<>{});
        check_key(std::int64_t{}, "int64 keys", integer_keys<std::int64_t>, pscan::equal_to<>{});
        check_key(wide_key{}, "16-byte keys", wide_keys, same_wide_key{});
      });
}
