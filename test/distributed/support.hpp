#pragma once
// What the distributed cases share: this rank's place, per-rank random data, splits of the global
// sizes over the ranks, and the reference: every rank gathers the global sequence and computes
// the expected result with pscan::seq, then compares its own slice. A fixture F is a conformance
// fixture of the local policy (F::policy(), F::upload, F::download).

#include <pscan/distributed.hpp>

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "conformance/reference.hpp"
#include "conformance/segments.hpp"
#include "conformance/value_kinds.hpp"

namespace distributed_test {

using namespace conformance;

struct place {
  int rank;
  int size;
};

inline place world() {
  place where{};
  MPI_Comm_rank(MPI_COMM_WORLD, &where.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &where.size);
  return where;
}

// The value kinds a fixture's cases run over: all of them, unless the fixture names fewer in
// `distributed_kinds` (the CUDA fixtures, to bound the compile time of their many kernels).
template <class F, class = void>
struct kinds_of {
  using type = all_kinds;
};
template <class F>
struct kinds_of<F, std::void_t<typename F::distributed_kinds>> {
  using type = typename F::distributed_kinds;
};
template <class F>
using kinds_of_t = typename kinds_of<F>::type;

// The distributed policy of a fixture: its own distributed_policy() (another communicator), else
// MPI_COMM_WORLD with its policy doing the local work.
template <class F, class = void>
struct has_distributed_policy : std::false_type {};
template <class F>
struct has_distributed_policy<F, std::void_t<decltype(F::distributed_policy())>> : std::true_type {};

template <class F>
auto distributed_policy() {
  if constexpr (has_distributed_policy<F>::value) {
    return F::distributed_policy();
  } else {
    return pscan::distributed(MPI_COMM_WORLD, F::policy());
  }
}

// Each rank draws its own data; PSCAN_TEST_SEED pins every rank's seed.
#define DISTRIBUTED_SEEDED_RANDOM(name)                                                          \
  const std::uint64_t name##_seed = ::conformance::fresh_seed();                                 \
  INFO("rank ", ::distributed_test::world().rank, "; rerun with PSCAN_TEST_SEED=", name##_seed); \
  ::conformance::random_source name(                                                             \
      name##_seed + 0x9E3779B97F4A7C15ull * std::uint64_t(::distributed_test::world().rank))

// How the global sequence is split over the ranks: every rank's local size from a base size.
enum class split { even, uneven, first_empty, last_empty, alternate_empty, one_rank, all_empty };
inline constexpr split all_splits[] = {
    split::even,     split::uneven,   split::first_empty, split::last_empty, split::alternate_empty,
    split::one_rank, split::all_empty};

inline const char* name_of(split l) {
  switch (l) {
    case split::even:
      return "even";
    case split::uneven:
      return "uneven";
    case split::first_empty:
      return "rank 0 empty";
    case split::last_empty:
      return "last rank empty";
    case split::alternate_empty:
      return "odd ranks empty";
    case split::one_rank:
      return "only the middle rank holds data";
    case split::all_empty:
      return "all ranks empty";
  }
  return "?";
}

inline std::int64_t local_size(split l, const place& where, std::int64_t base) {
  switch (l) {
    case split::even:
      return base;
    case split::uneven:
      return base * (1 + (where.rank * 5) % 7) / 3 + where.rank;
    case split::first_empty:
      return where.rank == 0 ? 0 : base;
    case split::last_empty:
      return where.rank == where.size - 1 ? 0 : base;
    case split::alternate_empty:
      return where.rank % 2 == 1 ? 0 : base;
    case split::one_rank:
      return where.rank == where.size / 2 ? base : 0;
    case split::all_empty:
      return 0;
  }
  return 0;
}

// Base sizes: a few elements (many ranks' ranges shorter than a segment), a few thousand, and
// enough for the OpenMP backend's threads to split a rank's range.
inline std::vector<std::int64_t> base_sizes() { return {1, 5, 3001, capped(40009)}; }

// Calls fn(kind, n) for every kind, split and base size, n being this rank's size.
template <class Kinds, class Fn>
void for_each_kind_and_split(Kinds kinds, Fn&& fn) {
  for (const split l : all_splits) {
    const std::string split_name = name_of(l);
    INFO("split over the ranks: ", split_name);
    for_each_kind_and_size(kinds, base_sizes(), [&](auto kind, std::int64_t base) {
      fn(kind, local_size(l, world(), base));
    });
  }
}

// The global sequence, gathered from every rank's local range in rank order, and where this
// rank's range starts in it.
template <class T>
struct gathered {
  std::vector<T> global;
  std::size_t offset;

  template <class U>
  std::vector<U> slice(const std::vector<U>& of_global, std::size_t n) const {
    return std::vector<U>(of_global.begin() + offset, of_global.begin() + offset + n);
  }
};

template <class T>
gathered<T> gather(const std::vector<T>& local) {
  const place where = world();
  const int bytes = static_cast<int>(local.size() * sizeof(T));
  std::vector<int> counts(static_cast<std::size_t>(where.size)), displacements(counts.size());
  MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displacements[r] = total;
    total += counts[r];
  }
  std::vector<T> global(static_cast<std::size_t>(total) / sizeof(T));
  MPI_Allgatherv(local.data(), bytes, MPI_BYTE, global.data(), counts.data(), displacements.data(),
                 MPI_BYTE, MPI_COMM_WORLD);
  return {std::move(global), static_cast<std::size_t>(displacements[where.rank]) / sizeof(T)};
}

// Head rates over the ranks (see conformance::head_rates). Variants 0-4 rotate the rates over
// the ranks, so that ranks without heads (whole ranges inside a segment) sit between ranks of any
// density; variant 5 has no heads at all (one segment over every rank), variant 6 heads on rank 0
// only (its last segment runs over every later rank).
inline constexpr std::uint64_t head_rate_variants = 7;
inline std::uint64_t head_rate(std::uint64_t variant, const place& where) {
  const auto& rates = head_rates();  // 0, 1024, 16, 2, 1
  if (variant < rates.size()) return rates[(variant + std::uint64_t(where.rank)) % rates.size()];
  if (variant == rates.size()) return 0;
  return where.rank == 0 ? 16 : 0;
}

// Head flags of one rank: any non-zero byte, position 0 included, only at the given rate.
inline std::vector<std::uint8_t> make_rank_flags(random_source& random, std::int64_t n,
                                                 std::uint64_t rate) {
  static const std::uint8_t head_values[] = {1, 3, 0x80, 0xFF};
  std::vector<std::uint8_t> flags(static_cast<std::size_t>(n), 0);
  for (auto& f : flags) {
    if (starts_segment(random, rate)) f = head_values[random.next() % 4];
  }
  return flags;
}

// Keys from a base every rank shares, so a run of equal keys continues across the boundary of
// ranks whose keys do not step.
inline std::vector<std::int32_t> make_rank_keys(random_source& random, std::int64_t n,
                                                std::uint64_t rate) {
  std::vector<std::int32_t> keys(static_cast<std::size_t>(n));
  std::int32_t key = 1000;
  for (auto& k : keys) {
    if (starts_segment(random, rate)) key += static_cast<std::int32_t>(random.between(1, 4));
    k = key;
  }
  return keys;
}

}  // namespace distributed_test
