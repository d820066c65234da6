#pragma once
// pscan::seq — the sequential reference. Plain loops in the order <numeric> defines: op is called
// n-1 times (n with an init), always as op(accumulated, next).

#include <pscan/detail/host_offsets.hpp>
#include <pscan/policy.hpp>

#include <cstdint>
#include <iterator>
#include <utility>

namespace pscan {
namespace sequential_backend {

struct policy : execution_policy_base {};

template <class InIt, class OutIt, class Op>
void inclusive_scan(const policy&, InIt first, InIt last, OutIt out, Op op) {
  using T = typename std::iterator_traits<InIt>::value_type;
  T acc = *first;
  *out = acc;
  for (++first, ++out; first != last; ++first, ++out) {
    acc = op(acc, *first);
    *out = acc;
  }
}

template <class InIt, class OutIt, class Op, class T>
void inclusive_scan(const policy&, InIt first, InIt last, OutIt out, Op op, T init) {
  for (; first != last; ++first, ++out) {
    init = op(init, *first);
    *out = init;
  }
}

template <class InIt, class OutIt, class T, class Op>
void exclusive_scan(const policy&, InIt first, InIt last, OutIt out, T init, Op op) {
  for (; first != last; ++first, ++out) {
    T next = op(init, *first);  // read before the write: out may alias first
    *out = init;
    init = next;
  }
}

template <class InIt, class T, class Op>
T reduce(const policy&, InIt first, InIt last, T init, Op op) {
  for (; first != last; ++first) init = op(init, *first);
  return init;
}

template <class InIt, class OutIt, class T, class Op>
void reduce_into(const policy& p, InIt first, InIt last, OutIt result, T init, Op op) {
  *result = sequential_backend::reduce(p, first, last, init, op);
}

template <class InIt, class OffIt, class OutIt, class T, class Op>
void segmented_reduce(const policy&, InIt values, OffIt offsets_first, OffIt offsets_last,
                      OutIt out, T init, Op op) {
  detail::check_host_offsets("pscan::segmented_reduce", offsets_first, offsets_last,
                             std::pair<const char*, InIt>{"values", values});
  const std::int64_t segments = (offsets_last - offsets_first) - 1;
  for (std::int64_t s = 0; s < segments; ++s) {
    T acc = init;
    for (auto i = offsets_first[s]; i < offsets_first[s + 1]; ++i) acc = op(acc, values[i]);
    out[s] = acc;
  }
}

}  // namespace sequential_backend

inline constexpr sequential_backend::policy seq{};

}  // namespace pscan
