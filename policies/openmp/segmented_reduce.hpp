#pragma once
// pscan::omp segmented_reduce, balanced by work rather than by segments: the merge path of the
// segment ends and the elements (m + N items: one per element reduced, one per output written) is
// cut into equal slices, a few per thread, so one huge segment, a million tiny ones, or a million
// empty ones all keep every thread busy. A thread writes the segments that start and end in a
// slice it took; the segments cut at slice boundaries leave partials that a short ordered fix-up
// combines.

#include <pscan/detail/host_offsets.hpp>
#include <pscan/detail/merge_path.hpp>
#include <pscan/policies/openmp/partials.hpp>
#include <pscan/policies/openmp/scheduler.hpp>
#include <pscan/policies/openmp/reduce.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace pscan::openmp_backend {
namespace detail {

template <class OffIt>
struct offsets_view {
  OffIt first;
  std::int64_t operator()(std::int64_t k) const { return static_cast<std::int64_t>(first[k]); }
};

// What one slice of the merge path leaves for the fix-up.
template <class T>
struct slice_result {
  std::int64_t open_segment = 0;  // the segment in progress where the slice starts
  bool closes = false;            // whether that segment ends inside the slice
  partial<T> head;               // that segment's elements inside the slice
  partial<T> tail;               // elements of the segment left open at the slice's end
};

// Items (elements reduced plus outputs written) per thread before a team pays off; as for scans.
inline constexpr std::int64_t segmented_reduce_min_per_thread = 8192;

// Number of segments ending before diagonal d of the merge path (pscan/detail/merge_path.hpp):
// segment k's end is at element position offsets[k+1] - offsets[0].
template <class OffIt>
std::int64_t segments_before(const offsets_view<OffIt>& off, std::int64_t segments,
                             std::int64_t d) {
  return pscan::detail::merge_path_split(
      [&](std::int64_t k) { return off(k + 1) - off(0); }, segments, off(segments) - off(0), d);
}

// Reduces the merge-path slice [d_lo, d_hi): writes out[k] for every segment that starts and
// ends inside it and returns the partials of the segments cut at its ends.
template <class T, class InIt, class OffIt, class OutIt, class Op>
slice_result<T> reduce_slice(InIt values, const offsets_view<OffIt>& off, std::int64_t segments,
                             std::int64_t d_lo, std::int64_t d_hi, OutIt out, const T& init,
                             Op& op) {
  const std::int64_t i0 = detail::segments_before(off, segments, d_lo);
  const std::int64_t i1 = detail::segments_before(off, segments, d_hi);
  const std::int64_t e0 = off(0) + (d_lo - i0);  // first element of the slice
  const std::int64_t e1 = off(0) + (d_hi - i1);  // one past its last element
  slice_result<T> r;
  r.open_segment = i0;
  r.closes = i1 > i0;
  if (!r.closes) {
    r.head = detail::reduce_range<T>(values, e0, e1, op);
    return r;
  }
  r.head = detail::reduce_range<T>(values, e0, off(i0 + 1), op);
  for (std::int64_t k = i0 + 1; k < i1; ++k) {
    const partial<T> part = detail::reduce_range<T>(values, off(k), off(k + 1), op);
    out[k] = part.has ? static_cast<T>(op(init, part.value)) : init;
  }
  r.tail = detail::reduce_range<T>(values, off(i1), e1, op);
  return r;
}

// In slice order: carries the open segment's partial forward and writes each cut segment once
// it closes, as init op (earlier slices' part) op (the closing slice's part).
template <class T, class OutIt, class Op>
void close_cut_segments(const std::vector<padded<slice_result<T>>>& slices, OutIt out,
                        const T& init, Op& op) {
  partial<T> carry{};
  for (const auto& slot : slices) {
    const slice_result<T>& s = slot.value;
    if (!s.closes) {
      carry = join(carry, s.head, op);
      continue;
    }
    T acc = init;
    if (carry.has) acc = op(acc, carry.value);
    if (s.head.has) acc = op(acc, s.head.value);
    out[s.open_segment] = acc;
    carry = s.tail;
  }
}

}  // namespace detail

template <class InIt, class OffIt, class OutIt, class T, class Op>
void segmented_reduce(const policy& p, InIt values, OffIt offsets_first, OffIt offsets_last,
                      OutIt out, T init, Op op) {
  pscan::detail::check_host_offsets("pscan::segmented_reduce", offsets_first, offsets_last,
                                    std::pair<const char*, InIt>{"values", values});
  const detail::offsets_view<OffIt> off{offsets_first};
  const std::int64_t segments = (offsets_last - offsets_first) - 1;
  const std::int64_t path = segments + off(segments) - off(0);
  const int team = detail::team_size(p, path, detail::segmented_reduce_min_per_thread);
  // Slices taken by whichever thread is free, as the reduce's chunks (detail::for_each_part); their
  // number depends on the team size alone, so the grouping and the bits do too.
  const int count = team < 2 ? 1 : team * detail::reduce_chunks_per_thread;
  std::vector<detail::padded<detail::slice_result<T>>> slices(static_cast<std::size_t>(count));
  detail::for_each_part(team, count, op, [&](int c, Op& thread_op) {
    slices[c].value = detail::reduce_slice(values, off, segments,
                                           detail::split_point(0, path, c, count),
                                           detail::split_point(0, path, c + 1, count), out, init,
                                           thread_op);
  });
  detail::close_cut_segments(slices, out, init, op);
}

}  // namespace pscan::openmp_backend
