#pragma once
// Deterministic look-back: a tile's prefix is always combined from the same values in the same
// shape, whatever the timing. The tiles are the leaves of an implicit radix-32 tree: node
// (l, m) covers tiles [m 32^l, (m+1) 32^l); node (0, m) is tile m's aggregate, and a node of
// level l >= 1 is published by its last tile as (the 31 level-(l-1) nodes before that tile's
// own, combined by a fixed warp tree) op (its own level-(l-1) node). Tile i's prefix follows
// the base-32 digits of i: at each level l, the d_l nodes before i's own (one per lane), each
// level combined by a fixed warp tree, the levels folded in order from the highest. The same
// polls give a tile what it needs to publish its own nodes. A node waits only on nodes one
// level down, so no serial chain of tiles forms: about one L2 round trip per level, like the
// decoupled look-back (docs/algorithms.md, "Why not anchor tiles or a left fold").

#include <pscan/policies/cuda_chained/grid/tile_state.cuh>
#include <pscan/policies/cuda_chained/warp/warp_lookback.cuh>
#include <pscan/policies/cuda_common/warp/warp_range_reduce.cuh>

#include <pscan/policies/cuda_common/utility.cuh>

#include <pscan/detail/segmented_generic.hpp>

#include <cstdint>
#include <type_traits>

namespace pscan::cuda_chained_backend {

inline constexpr int tree_radix_bits = 5;  // 32 children: one lane each
// Tile ids below 32^5 = 2^25 (the host checks): 2^25 tiles of even 1-byte values exceed any
// GPU's memory.
inline constexpr int max_tree_levels = 5;
inline constexpr std::uint64_t tree_max_tiles =
    std::uint64_t{1} << (tree_radix_bits * max_tree_levels);

// f(std::integral_constant<int, levels>{}) with the levels of the tree a scan of `tiles` tiles
// uses: 2, 3 or max_tree_levels, the fewest that cover them. Every level costs the look-back warp
// registers and a branch in each round of polls, which delays the carries; 4 levels spill for
// 8-byte types at 32 registers, where 5 do not (docs/algorithms.md, "Tree depth: 2, 3 or 5
// levels").
template <class F>
constexpr decltype(auto) with_tree_levels(std::uint64_t tiles, F&& f) {
  const auto covers = [&](int levels) {
    return tiles <= std::uint64_t{1} << (tree_radix_bits * levels);
  };
  if (covers(2)) return f(std::integral_constant<int, 2>{});
  if (covers(3)) return f(std::integral_constant<int, 3>{});
  return f(std::integral_constant<int, max_tree_levels>{});
}

constexpr int tree_levels_for(std::uint64_t tiles) {
  return with_tree_levels(tiles, [](auto levels) { return decltype(levels)::value; });
}

// Entries of a tree over `tiles` tiles: the complete nodes of every level, level after level
// (room for max_tree_levels, whatever the tree uses).
__host__ __device__ constexpr std::uint64_t tree_entries(std::uint64_t tiles) {
  std::uint64_t entries = 0;
  for (int level = 0; level < max_tree_levels; ++level) {
    entries += tiles >> (tree_radix_bits * level);
  }
  return entries;
}

// A segmented scan's lifted operator returns its right operand, bit for bit, whenever that starts
// a segment: whatever lies left of a head is absorbed, in any grouping.
template <class T, class Op>
inline constexpr bool absorbs_at_heads_v = false;
template <class T, class Op>
inline constexpr bool absorbs_at_heads_v<pscan::detail::flagged<T>, pscan::detail::lifted_op<Op>> =
    true;

__device__ inline std::uint64_t tree_entry(int level, std::uint64_t node, std::uint64_t tiles) {
  std::uint64_t first = 0;
  for (int l = 0; l < level; ++l) first += tiles >> (tree_radix_bits * l);
  return first + node;
}

// Run by all 32 lanes of one warp of tile `tile` (of `tiles` <= 32^Levels), beside the tile's
// data warps: whoever holds the tile's aggregate publishes node (0, tile), and this warp may
// start before. Publishes the nodes of higher levels that end at this tile, then returns in every
// lane whether the tile has predecessors and, if so, value(0) op ... op value(tile - 1) in
// `prefix`.
template <int Levels, class T, class Op>
__device__ bool tree_lookback(const tile_state<T>& state, std::uint32_t tile, std::uint32_t tiles,
                              Op op, backoff wait, T& prefix) {
  const int lane = cuda_common::lane_id();
  if (tile == 0) return false;

  // Level l: lane j < digit(l) polls node (l, (tile >> 5l) - digit(l) + j).
  auto digit = [&](int level) {
    return static_cast<int>((tile >> (tree_radix_bits * level)) & 31u);
  };
  // The last tile of a level-0 group also polls its own aggregate (lane 31): node (1, ..) needs it.
  auto polled = [&](int level) { return level == 0 && digit(0) == 31 ? 32 : digit(level); };
  auto entry = [&](int level) {
    return tree_entry(level, (tile >> (tree_radix_bits * level)) - digit(level) + lane, tiles);
  };
  auto level_value = [&](int l, const T& node) {
    return cuda_common::warp_range_reduce(lane < digit(l) ? node : T{}, 0, digit(l) - 1, op);
  };
  // While this tile is the last of its group at levels 0 .. l, it publishes node (l + 1) as
  // soon as level l's nodes are in: waiting for all levels first would chain the groups' last
  // tiles one after another.
  T right{};  // this tile's node of level `published`, once that is > 0
  int published = 0;  // levels 1 .. published of this tile's nodes are out
  // This lane's node of each level, kept as a value (not the polled tagged words: the 8-byte
  // tree would spill at 6 blocks per SM); bit l of `in` says it is in.
  T node[Levels] = {};
  unsigned int in = 0;
  // Bit l: every node level l needs is in. Nodes are published once per epoch, so a complete
  // level is never polled again: a round of polls waits only on the levels still missing.
  constexpr unsigned int all_levels = (1u << Levels) - 1;
  unsigned int complete = 0;
  // The nodes this tile publishes: one per level its digits are 31 from level 0 up.
  int publishes = 0;
  while (publishes + 1 < Levels && digit(publishes) == 31) ++publishes;
  // Segmented scans: the prefix is whole once the levels below one with a head are complete and
  // that level's nodes from its last head on are in (level cut_level, lanes from cut_lane). The
  // fixed combination absorbs whatever lies left of a head, so the prefix has the full tree's
  // bits when the lanes left of the cut stand in as heads and the levels above are left out:
  // op never sees a value that is not the input's.
  int cut_level = Levels, cut_lane = 0;
  auto whole_from_a_head = [&](const auto& nodes) {
#pragma unroll
    for (int l = 0; l < Levels; ++l) {
      if (digit(l) == 0) continue;
      const bool mine = lane < digit(l) && (in >> l & 1u) != 0;
      const unsigned int lanes_in = __ballot_sync(~0u, mine);
      const unsigned int heads = __ballot_sync(~0u, mine && nodes[l].head);
      if (heads != 0) {
        const int last_head = 31 - __clz(heads);
        const unsigned int after = ((1u << digit(l)) - 1) & ~((2u << last_head) - 1);
        if ((lanes_in & after) == after) {
          cut_level = l;
          cut_lane = last_head;
          return true;
        }
      }
      if ((complete >> l & 1u) == 0) return false;
    }
    return false;
  };
  for (backoff poll_wait = wait;; poll_wait.pause()) {
#pragma unroll
    for (int l = 0; l < Levels; ++l) {
      if ((complete >> l & 1u) == 0) {
        // A published node never changes: poll only the ones still missing.
        if (lane < polled(l) && (in >> l & 1u) == 0) {
          const typename tile_state<T>::probe seen = state.poll(entry(l));
          if (seen.status(state.epoch()) != tile_status::empty) {
            node[l] = seen.value();
            in |= 1u << l;
          }
        }
        if (__all_sync(~0u, lane >= polled(l) || (in >> l & 1u) != 0)) complete |= 1u << l;
      }
      const unsigned int up_to_l = (2u << l) - 1;
      if ((complete & up_to_l) == up_to_l && l == published && digit(l) == 31 &&
          l + 1 < Levels) {
        const T own = l == 0 ? cuda_common::warp_shuffle(node[0], 31) : right;
        right = static_cast<T>(op(level_value(l, node[l]), own));
        if (lane == 0) {
          state.publish(tree_entry(l + 1, tile >> (tree_radix_bits * (l + 1)), tiles), right,
                        tile_status::aggregate);
        }
        published = l + 1;
      }
    }
    if (complete == all_levels) break;
    if constexpr (absorbs_at_heads_v<T, Op>) {
      if (published == publishes && whole_from_a_head(node)) break;
    }
  }

  // The prefix: level(top) op (... op level(0)), each level's nodes combined in lane order.
  bool has = false;
#pragma unroll
  for (int l = 0; l < Levels; ++l) {
    if (digit(l) == 0 || l > cut_level) continue;
    T mine = node[l];
    if constexpr (absorbs_at_heads_v<T, Op>) {
      if (l == cut_level && lane < cut_lane) mine.head = true;
    }
    const T level = level_value(l, mine);
    prefix = has ? static_cast<T>(op(level, prefix)) : level;
    has = true;
  }
  return true;
}

}  // namespace pscan::cuda_chained_backend
