#pragma once
// A value or nothing, for host and device code alike: the total of an empty range, a carry-in
// before the first element. pscan asks no identity of op, so nothing has no value to stand for
// it, and op only ever sees values that exist.

#include <pscan/detail/config.hpp>

namespace pscan::detail {

template <class T>
struct partial {
  bool has;
  T value;
};

// x op y, where either side may be nothing: nothing op y = y, x op nothing = x.
PSCAN_CALLS_WHAT_IT_IS_GIVEN
template <class T, class Op>
PSCAN_HOST_DEVICE PSCAN_FORCEINLINE partial<T> join(const partial<T>& x, const partial<T>& y,
                                                 const Op& op) {
  if (!x.has) return y;
  if (!y.has) return x;
  return {true, static_cast<T>(op(x.value, y.value))};
}

// op lifted to partials (join).
template <class Op>
struct partial_op {
  Op op;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  template <class T>
  PSCAN_HOST_DEVICE PSCAN_FORCEINLINE partial<T> operator()(const partial<T>& x,
                                                           const partial<T>& y) const {
    return join(x, y, op);
  }
};

}  // namespace pscan::detail
