#pragma once
// Merge path (Odeh, Green, Mwassi, Shmueli & Birk, "Merge Path", 2012), as Merrill & Garland's
// merge-based SpMV (2016) uses it: the segment ends of a segmented reduction merged with the
// positions of its elements. Cutting the merged sequence into equal pieces balances the work
// whatever the segment lengths; a piece's start is found by a binary search on its diagonal.
// The host backends search with it; the GPU kernels search the same way by a whole warp
// (cuda_common/tile/merge_path.cuh).

namespace pscan::detail {

// The merge of `ends_count` segment ends (end i at element position ends(i), non-decreasing)
// with the element positions 0 .. elements-1, where end i comes before element j when
// ends(i) <= j: a segment ends before the first element past it. Returns how many ends are among
// the first `diagonal` merged items (0 <= diagonal <= ends_count + elements). End a is among them
// exactly when ends(a) + a < diagonal, which is increasing in a.
template <class I, class Ends>
I merge_path_split(const Ends& ends, I ends_count, I elements, I diagonal) {
  I lo = diagonal > elements ? diagonal - elements : I{0};
  I hi = diagonal < ends_count ? diagonal : ends_count;
  while (lo < hi) {
    const I mid = lo + (hi - lo) / 2;
    if (static_cast<I>(ends(mid)) + mid >= diagonal) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

}  // namespace pscan::detail
