#pragma once
// pscan::omp reduce and reduce_into: the threads reduce contiguous chunks, a few each; the calling
// thread then folds init and the chunk results in chunk order, so op need not be commutative.

#include <pscan/detail/index_iterator.hpp>
#include <pscan/policies/openmp/partials.hpp>
#include <pscan/policies/openmp/scheduler.hpp>
#include <pscan/policies/sequential/sequential.hpp>

#include <cstdint>
#include <vector>

namespace pscan::openmp_backend {
namespace detail {

// A vectorised reduce is ~4x cheaper per element than a scan, so a thread needs 4x the scan's
// share before starting a team pays off.
inline constexpr std::int64_t reduce_min_per_thread = 32768;

// Contiguous chunks per thread of the team, taken by whichever thread is free (as TBB's work
// stealing does; detail::for_each_part): a core slowed by a neighbour or a farther cache slice does
// less of the work.
// The chunks depend only on n and the team size, so the grouping, and the result, do not depend
// on which thread took which.
inline constexpr int reduce_chunks_per_thread = 4;

}  // namespace detail

template <class InIt, class T, class Op>
T reduce(const policy& p, InIt first, InIt last, T init, Op op) {
  const std::int64_t n = last - first;
  const int team = detail::team_size(p, n * pscan::detail::element_values_v<InIt>,
                                     detail::reduce_min_per_thread);
  if (team < 2) return sequential_backend::reduce(seq, first, last, init, op);
  const int chunks = team * detail::reduce_chunks_per_thread;
  std::vector<detail::padded<detail::partial<T>>> partials(static_cast<std::size_t>(chunks));
  detail::for_each_part(team, chunks, op, [&](int c, Op& thread_op) {
    partials[c].value = detail::reduce_range<T>(first, detail::split_point(0, n, c, chunks),
                                                detail::split_point(0, n, c + 1, chunks),
                                                thread_op);
  });
  for (const auto& slot : partials) {
    if (slot.value.has) init = op(init, slot.value.value);
  }
  return init;
}

template <class InIt, class OutIt, class T, class Op>
void reduce_into(const policy& p, InIt first, InIt last, OutIt result, T init, Op op) {
  *result = openmp_backend::reduce(p, first, last, init, op);
}

}  // namespace pscan::openmp_backend
