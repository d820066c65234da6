#pragma once
// What a rank computes through its local policy's public algorithms, so that one code path serves
// CPU and GPU local policies alike (the local iterators may be device memory: every value the
// host needs comes back as the host result of a pscan::reduce).

#include <pscan/detail/config.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/reduce.hpp>

#include <cstdint>

namespace pscan::mpi::detail {

// A value or nothing: the total of an empty range, the carry-in of the first non-empty rank.
// There is no identity to stand for nothing.
template <class T>
struct maybe {
  T value;
  bool present;
};

// op lifted to maybe<T>: nothing op x = x op nothing = x, so op only ever sees present values.
template <class Op>
struct maybe_op {
  Op op;
  template <class T>
  PSCAN_HOST_DEVICE maybe<T> operator()(const maybe<T>& a, const maybe<T>& b) const {
    if (!b.present) return a;
    if (!a.present) return b;
    return maybe<T>{static_cast<T>(op(a.value, b.value)), true};
  }
};

// acc op items[0] op items[1] op ... in that order, each a maybe.
template <class T, class It, class Op>
maybe<T> fold(maybe<T> acc, It first, It last, Op op) {
  const maybe_op<Op> lifted{op};
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
  PSCAN_HOST_DEVICE maybe<T> operator()(std::int64_t i) const {
    return maybe<T>{static_cast<T>(it[i]), true};
  }
};

// *at as a host value of type T: the local policy reduces the one element from nothing.
template <class T, class Local, class It>
T load(const Local& local, It at) {
  const auto one = pscan::detail::make_index_iterator(present_as<T, It>{at});
  return pscan::reduce(local, one, one + 1, maybe<T>{}, maybe_op<right>{}).value;
}

// in[0] op ... op in[n-1] (n >= 1) in the accumulator type T, as a host value: the first element
// is the reduce's init, so no identity is needed.
template <class T, class Local, class It, class Op>
T local_total(const Local& local, It in, std::int64_t n, Op op) {
  const T first = load<T>(local, in);
  return n == 1 ? first : pscan::reduce(local, in + 1, in + n, first, op);
}

}  // namespace pscan::mpi::detail
