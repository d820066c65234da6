// cuda_chained's tile state and look-backs, on hand-built states: tag/value packing, epoch
// rejection, and both look-backs with a non-commutative operator that detects any value
// combined out of order or twice (intervals that only join when adjacent).

#include "device_fixture.cuh"
#include "unit_support.cuh"

#include <pscan/policies/cuda_chained/grid/tile_state.cuh>
#include <pscan/policies/cuda_chained/warp/warp_lookback.cuh>
#include <pscan/policies/cuda_chained/warp/warp_tree_lookback.cuh>

#include <cstdint>
#include <utility>
#include <vector>

namespace {

using conformance::device_buffer;
using pscan::cuda_chained_backend::backoff;
using pscan::cuda_chained_backend::tile_state;
using pscan::cuda_chained_backend::tile_status;

using unit_support::interval;
using unit_support::is;
using unit_support::join;
using unit_support::make_interval;
using small_interval = interval<std::uint16_t>;     // 4 bytes: one tagged word
using wide_interval = interval<std::int32_t>;       // 8 bytes: two tagged words
using odd_interval = interval<std::int32_t, true>;  // 12 bytes: three
using huge_interval = interval<std::int64_t>;       // 16 bytes: four

// Owns a zeroed tile-state buffer of `entries` entries.
template <class T>
struct state_buffer {
  explicit state_buffer(std::uint64_t entries) : bytes(tile_state<T>::buffer_bytes(entries)) {
    PSCAN_CUDA_CHECK(cudaMalloc(&data, bytes));
    PSCAN_CUDA_CHECK(cudaMemset(data, 0, bytes));
  }
  ~state_buffer() { cudaFree(data); }
  tile_state<T> view(std::uint32_t epoch) const { return tile_state<T>(data, epoch); }
  std::size_t bytes;
  void* data = nullptr;
};

template <class T>
__global__ void publish_all(tile_state<T> state, const T* values, const tile_status* statuses,
                            int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count && statuses[i] != tile_status::empty) state.publish(i, values[i], statuses[i]);
}

template <class T>
__global__ void poll_all(tile_state<T> state, int count, tile_status* statuses, T* values) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const auto seen = state.poll(i);
  statuses[i] = seen.status(state.epoch());
  if (statuses[i] != tile_status::empty) values[i] = seen.value();
}

// Block b (one warp) looks back from tile first_tile + b into prefixes[b].
template <int K, class T>
__global__ void lookback_each(tile_state<T> state, std::uint32_t first_tile, T* prefixes) {
  const T prefix = pscan::cuda_chained_backend::decoupled_lookback<K>(
      state, first_tile + blockIdx.x, join{}, backoff{32, 256});
  if (threadIdx.x == 0) prefixes[blockIdx.x] = prefix;
}

// The look-back protocol alone, one warp per tile, tile ids from the ticket counter: the
// decoupled look-back (TreeLevels 0) or the tree of TreeLevels levels.
template <class T, int TreeLevels>
__global__ void chained_warps(tile_state<T> state, std::uint32_t tiles, T* prefixes,
                              std::uint8_t* has) {
  __shared__ std::uint32_t tile;
  if (threadIdx.x == 0) tile = state.draw_ticket(tiles);
  __syncwarp();
  const T aggregate = make_interval<T>(tile, tile);
  const backoff wait{32, 256};
  T prefix = aggregate;
  bool has_prefix = tile > 0;
  if constexpr (TreeLevels > 0) {
    if (threadIdx.x == 0) state.publish(tile, aggregate, tile_status::aggregate);  // node (0, tile)
    has_prefix = pscan::cuda_chained_backend::tree_lookback<TreeLevels>(state, tile, tiles, join{},
                                                                        wait, prefix);
  } else if (tile == 0) {
    if (threadIdx.x == 0) state.publish(0, aggregate, tile_status::prefix);
  } else {
    if (threadIdx.x == 0) state.publish(tile, aggregate, tile_status::aggregate);
    prefix = pscan::cuda_chained_backend::decoupled_lookback<4>(state, tile, join{}, wait);
    if (threadIdx.x == 0) state.publish(tile, join{}(prefix, aggregate), tile_status::prefix);
  }
  if (threadIdx.x == 0) {
    prefixes[tile] = prefix;
    has[tile] = has_prefix;
  }
}

template <class T>
std::vector<T> download(const device_buffer<T>& buffer) {
  std::vector<T> values(buffer.size());
  PSCAN_CUDA_CHECK(cudaDeviceSynchronize());
  PSCAN_CUDA_CHECK(
      cudaMemcpy(values.data(), buffer.begin(), values.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return values;
}

template <class T>
device_buffer<T> upload(const std::vector<T>& values) {
  device_buffer<T> buffer(values.size());
  PSCAN_CUDA_CHECK(
      cudaMemcpy(buffer.begin(), values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice));
  return buffer;
}

template <class T>
void publish(const state_buffer<T>& buffer, std::uint32_t epoch, const std::vector<T>& values,
             const std::vector<tile_status>& statuses) {
  const auto v = upload(values);
  const auto s = upload(statuses);
  const int count = static_cast<int>(values.size());
  publish_all<<<(count + 255) / 256, 256>>>(buffer.view(epoch), v.begin(), s.begin(), count);
  PSCAN_CUDA_CHECK(cudaGetLastError());
  PSCAN_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class T>
std::pair<std::vector<tile_status>, std::vector<T>> poll(const state_buffer<T>& buffer,
                                                         std::uint32_t epoch, int count) {
  device_buffer<tile_status> statuses(count);
  device_buffer<T> values(count);
  poll_all<<<(count + 255) / 256, 256>>>(buffer.view(epoch), count, statuses.begin(),
                                         values.begin());
  PSCAN_CUDA_CHECK(cudaGetLastError());
  return {download(statuses), download(values)};
}

// Tile 0 holds its inclusive prefix [0, 0]; tile i > 0 its prefix [0, i] where prefix_here(i),
// else its aggregate [i, i].
template <class T, class PrefixHere>
void publish_plan(const state_buffer<T>& buffer, std::uint32_t epoch, int tiles,
                  PrefixHere prefix_here) {
  std::vector<T> values(tiles);
  std::vector<tile_status> statuses(tiles);
  for (int i = 0; i < tiles; ++i) {
    const bool p = i == 0 || prefix_here(i);
    values[i] = make_interval<T>(p ? 0 : i, i);
    statuses[i] = p ? tile_status::prefix : tile_status::aggregate;
  }
  publish(buffer, epoch, values, statuses);
}

}  // namespace

TEST_CASE_TEMPLATE("tile state: values come back with their status, only in their epoch", T,
                   small_interval, wide_interval, odd_interval, huge_interval) {
  constexpr int count = 1000;
  state_buffer<T> buffer(count);
  // One 8-byte word per 4-byte chunk, each entry on its own 128-byte line(s).
  CHECK(tile_state<T>::entry_stride % 128 == 0);
  CHECK(tile_state<T>::entry_stride >= 8 * ((sizeof(T) + 3) / 4));
  CHECK(tile_state<T>::entry_stride < 8 * ((sizeof(T) + 3) / 4) + 128);
  std::vector<T> values(count);
  std::vector<tile_status> statuses(count);
  for (int i = 0; i < count; ++i) {
    values[i] = make_interval<T>(i, i + i % 5);
    statuses[i] = static_cast<tile_status>(i % 3);  // empty, aggregate, prefix
  }
  const std::uint32_t epoch =
      pscan::runtime::max_scratch_epoch;  // the largest tag must work
  SUBCASE("a cleared buffer is empty") {
    for (auto s : poll(buffer, 1, count).first) CHECK(s == tile_status::empty);
  }
  publish(buffer, epoch, values, statuses);
  SUBCASE("same epoch: status and value") {
    const auto [seen, got] = poll(buffer, epoch, count);
    for (int i = 0; i < count; ++i) {
      CHECK(seen[i] == statuses[i]);
      if (statuses[i] != tile_status::empty) CHECK(is(got[i], i, i + i % 5));
    }
  }
  SUBCASE("other epochs: nothing published") {
    for (std::uint32_t other : {1u, epoch - 1}) {
      for (auto s : poll(buffer, other, count).first) CHECK(s == tile_status::empty);
    }
  }
  SUBCASE("a prefix replaces an aggregate") {
    for (int i = 0; i < count; ++i) {
      values[i] = make_interval<T>(0, i);
      statuses[i] = tile_status::prefix;
    }
    publish(buffer, epoch, values, statuses);
    const auto [seen, got] = poll(buffer, epoch, count);
    for (int i = 0; i < count; ++i) CHECK((seen[i] == tile_status::prefix && is(got[i], 0, i)));
  }
}

TEST_CASE_TEMPLATE("decoupled look-back combines in index order from the nearest prefix", T,
                   small_interval, wide_interval, odd_interval, huge_interval) {
  constexpr int tiles = 300;  // up to 10 windows back (of 32 tiles)
  state_buffer<T> buffer(tiles);
  const std::uint32_t epoch = 3;
  SUBCASE("only tile 0 holds a prefix") {
    publish_plan(buffer, epoch, tiles, [](int) { return false; });
  }
  SUBCASE("a prefix every 45 tiles") {
    publish_plan(buffer, epoch, tiles, [](int i) { return i % 45 == 0; });
  }
  SUBCASE("prefixes everywhere") {
    publish_plan(buffer, epoch, tiles, [](int) { return true; });
  }
  device_buffer<T> prefixes(tiles - 1);
  for (int k : {1, 3, 4}) {  // entries per lane: windows of 32, 96, 128 tiles
    INFO("entries per lane: ", k);
    const auto view = buffer.view(epoch);
    if (k == 1) lookback_each<1><<<tiles - 1, 32>>>(view, 1, prefixes.begin());
    if (k == 3) lookback_each<3><<<tiles - 1, 32>>>(view, 1, prefixes.begin());
    if (k == 4) lookback_each<4><<<tiles - 1, 32>>>(view, 1, prefixes.begin());
    PSCAN_CUDA_CHECK(cudaGetLastError());
    const auto got = download(prefixes);
    for (int t = 1; t < tiles; ++t) {
      INFO("tile ", t);
      CHECK(is(got[t - 1], 0, t - 1));
    }
  }
}

// Runs the look-back protocol (TreeLevels as chained_warps) over `tiles` tiles on a buffer whose
// every entry holds a wrong prefix from an older epoch, and checks every tile's prefix.
template <class T, int TreeLevels>
void check_protocol(int tiles) {
  INFO("tiles: ", tiles, ", tree levels: ", TreeLevels);
  const std::uint64_t entries =
      TreeLevels > 0 ? pscan::cuda_chained_backend::tree_entries(tiles) : tiles;
  state_buffer<T> buffer(entries);
  std::vector<T> wrong(entries, make_interval<T>(0, 1));
  publish(buffer, 6, wrong, std::vector<tile_status>(entries, tile_status::prefix));
  device_buffer<T> prefixes(tiles);
  device_buffer<std::uint8_t> has(tiles);
  chained_warps<T, TreeLevels><<<tiles, 32>>>(buffer.view(7), tiles, prefixes.begin(), has.begin());
  PSCAN_CUDA_CHECK(cudaGetLastError());
  const auto got = download(prefixes);
  const auto got_has = download(has);
  for (int t = 0; t < tiles; ++t) {
    INFO("tile ", t);
    CHECK((got_has[t] != 0) == (t > 0));
    if (t > 0) CHECK(is(got[t], 0, t - 1));
  }
  // The ticket counter is back at 0 for the next call.
  unsigned int ticket = 1;
  PSCAN_CUDA_CHECK(cudaMemcpy(&ticket, buffer.data, sizeof ticket, cudaMemcpyDeviceToHost));
  CHECK(ticket == 0);
}

TEST_CASE_TEMPLATE("look-backs wait for unpublished tiles and ignore older epochs", T,
                   small_interval, huge_interval) {
  // The trees the scans use (1024 tiles fill two levels; 33000 would need four, and get five)
  // and the deepest one for fewer tiles.
  using pscan::cuda_chained_backend::max_tree_levels;
  using pscan::cuda_chained_backend::tree_levels_for;
  static_assert(tree_levels_for(1024) == 2 && tree_levels_for(2000) == 3 &&
                tree_levels_for(33000) == max_tree_levels);
  check_protocol<T, 0>(2000);
  check_protocol<T, 2>(1024);
  check_protocol<T, 3>(2000);
  check_protocol<T, max_tree_levels>(2000);
  check_protocol<T, 0>(33000);
  check_protocol<T, max_tree_levels>(33000);
}
