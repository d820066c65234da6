#pragma once
// pscan::distributed's reduce_by_key. A run that spans ranks belongs to the rank where it ends:
// each rank reduces its own keys with the local policy, the ranks exchange their edges (first and
// last key, last run's key and value, run count: one MPI_Allgather), then a rank whose last run
// goes on drops it, and the rank where it ends folds the earlier ranks' parts into its first run
// (in order: op sees them left to right) and writes the run's first key. Nothing moves. With
// exact_plus the outputs hold rounded sums, so the parts a run spanning ranks is joined from are
// exact sums of the input (the rank's first and last runs, found in its keys): rounded once.

#include <pscan/detail/config.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/detail/partial.hpp>
#include <pscan/detail/segmented_generic.hpp>
#include <pscan/policies/distributed/exchange.hpp>
#include <pscan/policies/distributed/local.hpp>
#include <pscan/policies/distributed/policy.hpp>
#include <pscan/reduce.hpp>
#include <pscan/reduce_by_key.hpp>
#include <pscan/scan.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace pscan::distributed_backend {
namespace detail {

// A rank's runs as its neighbours see them; runs == 0 for a rank without keys.
template <class K, class T>
struct run_edges {
  std::int64_t runs;
  K first_key;     // keys[0]
  K last_key;      // keys[n-1]
  K last_run_key;  // the first key of its last run
  T last_value;    // the reduction of its last run
};

// Where a rank's first run ends and its last run starts.
struct edge_run_bounds {
  std::int64_t first_end;
  std::int64_t last_start;
};

// Position i (of keys[0 .. n), i >= 1) as a run start, by the key heads every reduce_by_key
// runs on; the bounds of a position where none starts leave the others' be.
template <class KeyIt, class KeyEq>
struct run_start_at {
  pscan::detail::key_heads<KeyIt, KeyEq> heads;
  std::int64_t n;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE edge_run_bounds operator()(std::int64_t i) const {
    return heads(i) ? edge_run_bounds{i, i} : edge_run_bounds{n, 0};
  }
};

// The first run start and the last.
struct outermost_starts {
  PSCAN_HOST_DEVICE edge_run_bounds operator()(const edge_run_bounds& a,
                                               const edge_run_bounds& b) const {
    return {a.first_end < b.first_end ? a.first_end : b.first_end,
            a.last_start > b.last_start ? a.last_start : b.last_start};
  }
};

// The bounds of the first and last runs of keys[0 .. n) (n >= 1), by one reduce of the local
// policy.
template <class Local, class KeyIt, class KeyEq>
edge_run_bounds edge_runs_of(const Local& local, KeyIt keys, std::int64_t n, KeyEq eq) {
  const auto starts =
      pscan::detail::make_index_iterator(run_start_at<KeyIt, KeyEq>{{keys, eq}, n});
  return pscan::reduce(local, starts + 1, starts + n, edge_run_bounds{n, 0}, outermost_starts{});
}

// Reduces this rank's keys and values with the local policy and fixes the runs at its edges;
// returns how many runs this rank keeps (those that end on it), at the front of its outputs.
// check_more() runs after the common checks, in the same exchange.
template <class Local, class KeyIt, class InIt, class KeyOut, class ValOut, class KeyEq, class Op,
          class Check>
std::int64_t reduce_own_runs(const policy<Local>& p, const char* name, KeyIt keys_first,
                             KeyIt keys_last, InIt values, KeyOut keys_out, ValOut values_out,
                             KeyEq eq, Op op, Check check_more) {
  using K = pscan::detail::value_type_t<KeyIt>;
  using T = pscan::detail::value_type_t<InIt>;
  static_assert(transferable<K>() && transferable<T>());
  constexpr bool exact = pscan::detail::is_exact_sum_v<T>;
  const place where = place_in(p.comm);
  exchange<nothing>(p.comm, where, name, [&] {
    pscan::detail::checked_runs(p.local, name, keys_first, keys_last, values, keys_out,
                                values_out);
    check_more();
    return nothing{};
  });
  run_edges<K, T> mine{};
  const std::int64_t n = keys_last - keys_first;
  edge_run_bounds bounds{n, 0};
  if (n > 0) {
    const auto ends = pscan::reduce_by_key(p.local, keys_first, keys_last, values, keys_out,
                                           values_out, eq, op);
    mine.runs = ends.first - keys_out;
    mine.first_key = load<K>(p.local, keys_first);
    mine.last_key = load<K>(p.local, keys_last - 1);
    mine.last_run_key = load<K>(p.local, keys_out + (mine.runs - 1));
    if constexpr (exact) {
      bounds = edge_runs_of(p.local, keys_first, n, eq);
      mine.last_value = local_total<T>(p.local, values + bounds.last_start,
                                       n - bounds.last_start, op);
    } else {
      mine.last_value = load<T>(p.local, values_out + (mine.runs - 1));
    }
  }
  const auto edges = exchange<run_edges<K, T>>(p.comm, where, name, [&] { return mine; });
  if (mine.runs == 0) return 0;

  // Whether rank q's last run goes on into the next rank with keys after it.
  const auto goes_on = [&](int q) {
    for (int next = q + 1; next < where.size; ++next) {
      if (edges[next].runs > 0) return static_cast<bool>(eq(edges[q].last_key, edges[next].first_key));
    }
    return false;
  };
  std::int64_t runs = mine.runs;
  if (goes_on(where.rank)) {
    if (runs == 1) return 0;  // its one run ends on a later rank
    --runs;
  }
  // The earlier ranks' parts of this rank's first run, right to left.
  pscan::detail::partial<T> before{};
  K first_key{};
  for (int q = where.rank - 1; q >= 0; --q) {
    if (edges[q].runs == 0) continue;
    if (!goes_on(q)) break;
    before = {true, before.has ? static_cast<T>(op(edges[q].last_value, before.value))
                               : edges[q].last_value};
    first_key = edges[q].last_run_key;
    if (edges[q].runs > 1) break;  // its last run starts on it
  }
  if (before.has) {
    if constexpr (exact) {  // the exact first run, from the earlier parts and this rank's own
      const T own = bounds.first_end == n ? mine.last_value
                                          : local_total<T>(p.local, values, bounds.first_end, op);
      pscan::exclusive_scan(p.local, values, values + 1, values_out,
                            static_cast<T>(op(before.value, own)), right{});
    } else {
      pscan::inclusive_scan(p.local, values_out, values_out + 1, values_out, op, before.value);
    }
    pscan::exclusive_scan(p.local, keys_out, keys_out + 1, keys_out, first_key, right{});
  }
  return runs;
}

}  // namespace detail

template <class Local, class KeyIt, class InIt, class KeyOut, class ValOut, class KeyEq, class Op>
std::pair<KeyOut, ValOut> reduce_by_key(const policy<Local>& p, KeyIt keys_first, KeyIt keys_last,
                                        InIt values, KeyOut keys_out, ValOut values_out, KeyEq eq,
                                        Op op) {
  const std::int64_t runs =
      detail::reduce_own_runs(p, "pscan::reduce_by_key", keys_first, keys_last, values, keys_out,
                              values_out, eq, op, [] {});
  return {keys_out + runs, values_out + runs};
}

template <class Local, class KeyIt, class InIt, class KeyOut, class ValOut, class RunsOut,
          class KeyEq, class Op>
void reduce_by_key_into(const policy<Local>& p, KeyIt keys_first, KeyIt keys_last, InIt values,
                        KeyOut keys_out, ValOut values_out, RunsOut runs_out, KeyEq eq, Op op) {
  constexpr const char* name = "pscan::reduce_by_key_into";
  const std::int64_t runs =
      detail::reduce_own_runs(p, name, keys_first, keys_last, values, keys_out, values_out, eq, op,
                              [&] { pscan::detail::check_argument(p.local, name, "runs_out",
                                                                  runs_out, 1); });
  // The count where the local policy writes: reduce_into of nothing gives its init.
  pscan::reduce_into(p.local, keys_first, keys_first, runs_out, runs, pscan::plus<>{});
}

}  // namespace pscan::distributed_backend
