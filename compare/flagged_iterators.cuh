#pragma once
// The head-flag segmented scan as CUB and Thrust users write it: a scan over (value, head) pairs
// read through a transform iterator, written back through a transform output iterator.

#include "types.hpp"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <cstdint>

namespace compare {

template <class T>
struct read_flagged {
  const T* values;
  const flag_type* flags;
  __host__ __device__ flagged_value<T> operator()(std::int64_t i) const {
    return flagged_value<T>{values[i], i == 0 || flags[i] != 0};
  }
};

template <class T>
struct value_of {
  __host__ __device__ T operator()(const flagged_value<T>& p) const { return p.value; }
};

template <class T>
auto flagged_input(const T* values, const flag_type* flags) {
  return thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                         read_flagged<T>{values, flags});
}

template <class T>
auto flagged_output(T* out) {
  return thrust::make_transform_output_iterator(out, value_of<T>{});
}

}  // namespace compare
