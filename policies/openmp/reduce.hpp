#pragma once
// pscan::omp reduce and reduce_into: each thread reduces one contiguous chunk; the calling thread
// then folds init and the chunk results in thread order, so op need not be commutative.

#include "partials.hpp"
#include "policy.hpp"

#include <sequential/sequential.hpp>

#include <omp.h>

#include <cstdint>
#include <vector>

namespace pscan::openmp_backend {
namespace detail {

// A vectorised reduce is ~4x cheaper per element than a scan, so a thread needs 4x the scan's
// share before starting a team pays off.
inline constexpr std::int64_t reduce_min_per_thread = 32768;

}  // namespace detail

template <class InIt, class T, class Op>
T reduce(const policy& p, InIt first, InIt last, T init, Op op) {
  const std::int64_t n = last - first;
  const int team = detail::team_size(p, n, detail::reduce_min_per_thread);
  if (team < 2) return sequential_backend::reduce(seq, first, last, init, op);
  std::vector<detail::padded<detail::partial<T>>> partials(static_cast<std::size_t>(team));
#pragma omp parallel num_threads(team)
  {
    const int threads = omp_get_num_threads();
    const int t = omp_get_thread_num();
    Op thread_op = op;
    partials[t].value = detail::reduce_range<T>(first, detail::split_point(0, n, t, threads),
                                                detail::split_point(0, n, t + 1, threads),
                                                thread_op);
  }
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
