#pragma once
// What a rank computes through its local policy's public algorithms, so that one code path serves
// CPU and GPU local policies alike (the local iterators may be device memory: every value the
// host needs comes back as the host result of a pscan::reduce).

#include <pscan/detail/config.hpp>
#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/detail/partial.hpp>
#include <pscan/future_value.hpp>
#include <pscan/policy.hpp>
#include <pscan/reduce.hpp>

#include <cstdint>
#include <type_traits>

namespace pscan::distributed_backend::detail {

// A rank's total or carry-in may be nothing (pscan/detail/partial.hpp): an empty range.
using pscan::detail::partial;
using pscan::detail::partial_op;

// acc op items[0] op items[1] op ... in that order, each a partial.
template <class T, class It, class Op>
partial<T> fold(partial<T> acc, It first, It last, Op op) {
  const partial_op<Op> lifted{op};
  for (; first != last; ++first) acc = lifted(acc, *first);
  return acc;
}

// a op b = b: associative; a range's reduce under it is its last element.
struct right {
  template <class T>
  PSCAN_HOST_DEVICE T operator()(const T&, const T& b) const {
    return b;
  }
};

// Element i of `it`, converted to T and marked present.
template <class T, class It>
struct present_as {
  It it;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE partial<T> operator()(std::int64_t i) const {
    return partial<T>{true, static_cast<T>(it[i])};
  }
};

// *at as a host value of type T: the local policy reduces the one element from nothing.
template <class T, class Local, class It>
T load(const Local& local, It at) {
  const auto one = pscan::detail::make_index_iterator(present_as<T, It>{at});
  return pscan::reduce(local, one, one + 1, partial<T>{}, partial_op<right>{}).value;
}

// How many leading elements of a range of n (n >= 1) stand in for the init of its reduce, which
// has no identity to start from: at least one, and for a raw pointer as many as put the rest on a
// 16-byte boundary, where the local reduce reads whole 16-byte units (a range one element past
// the boundary would be read element by element).
template <class It>
std::int64_t leading_count(It first, std::int64_t n) {
  using V = pscan::detail::value_type_t<It>;
  std::int64_t k = 1;
  if constexpr (std::is_pointer_v<It> && 16 % sizeof(V) == 0) {
    const auto misalignment =
        static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(first) % 16);
    if (misalignment % static_cast<std::int64_t>(sizeof(V)) == 0) {
      k = (misalignment == 0 ? 16 : 16 - misalignment) / static_cast<std::int64_t>(sizeof(V));
    }
  }
  return k < n ? k : n;
}

// it[0] op ... op it[count-1] (count >= 1) in T, read where the reduce runs (a deferred init: on
// the device for a CUDA policy): a range's leading elements as the init of the rest's reduce.
template <class T, class It, class Op>
struct leading_elements {
  It it;
  std::int64_t count;
  Op op;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE operator T() const {
    T total = static_cast<T>(it[0]);
    for (std::int64_t i = 1; i < count; ++i) total = static_cast<T>(op(total, it[i]));
    return total;
  }
};

// The leading elements (leading_count) of in[0 .. n), n >= 1.
template <class T, class It, class Op>
leading_elements<T, It, Op> leading_elements_of(It in, std::int64_t n, Op op) {
  return {in, leading_count(in, n), op};
}

// in[0] op ... op in[n-1] (n >= 1) in the accumulator type T, as a host value: one reduce of the
// rest from the leading elements, read on the device by a CUDA policy (one launch, one wait) and
// on the host by the others (their ranges are host memory).
template <class T, class Local, class It, class Op>
T local_total(const Local& local, It in, std::int64_t n, Op op) {
  const leading_elements<T, It, Op> leading = leading_elements_of<T>(in, n, op);
  if constexpr (policy_takes_future_values_v<Local>) {
    return pscan::reduce(local, in + leading.count, in + n, leading, op);
  } else {
    return pscan::reduce(local, in + leading.count, in + n, static_cast<T>(leading), op);
  }
}

}  // namespace pscan::distributed_backend::detail

namespace pscan::detail {
template <class T, class It, class Op>
struct init_traits<distributed_backend::detail::leading_elements<T, It, Op>> {
  using value_type = T;
  static constexpr bool deferred = true;
};
}  // namespace pscan::detail
