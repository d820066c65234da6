#pragma once
// Segmented algorithms of pscan::cuda_chained. Segmented scans and scans by key take the generic
// lifted-operator path (include/pscan/detail/segmented_generic.hpp) over this backend's scans,
// which accept any random-access iterator. segmented_reduce reuses the multi-pass backend's
// (offsets validated on the device before any output is written, one block per segment) on this
// policy's stream and resource, rather than a copy of it.

#include <cuda_chained/policy.cuh>

#include <cuda_multipass/policy.cuh>
#include <cuda_multipass/segmented.cuh>

namespace pscan::chained {

template <class InIt, class OffIt, class OutIt, class T, class Op>
void segmented_reduce(const policy& p, InIt values, OffIt offsets_first, OffIt offsets_last,
                      OutIt out, T init, Op op) {
  multipass::policy same_stream;
  same_stream.stream = p.stream;
  same_stream.resource = p.resource;
  multipass::segmented_reduce(same_stream, values, offsets_first, offsets_last, out, init, op);
}

}  // namespace pscan::chained
