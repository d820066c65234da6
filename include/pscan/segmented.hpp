#pragma once
// Segmented scans (by head flags, by key, by offsets) and segmented_reduce (by offsets). A backend
// without its own segmented scans gets the generic path of detail/segmented_generic.hpp; without
// its own scans by offsets, a scan by flags (the offsets read on the host).

#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/exact.hpp>
#include <pscan/detail/host_offsets.hpp>
#include <pscan/detail/profiling.hpp>
#include <pscan/detail/segmented_generic.hpp>
#include <pscan/functional.hpp>

#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

namespace pscan {
namespace detail {

// The tags. The entries below run their backend call through backend_call (dispatch.hpp) with
// what is not values first: over exact sums each value is lifted after that many arguments
// (exact_element_lifting): (head_flags, n), (keys_first, keys_last, eq) or the offsets.
PSCAN_DETAIL_ALGORITHM(segmented_inclusive_scan, exact_element_lifting<2>)
PSCAN_DETAIL_ALGORITHM(segmented_exclusive_scan, exact_element_lifting<2>)
PSCAN_DETAIL_ALGORITHM(inclusive_scan_by_key, exact_element_lifting<3>)
PSCAN_DETAIL_ALGORITHM(exclusive_scan_by_key, exact_element_lifting<3>)
PSCAN_DETAIL_ALGORITHM(segmented_reduce, exact_element_lifting<2>)
PSCAN_DETAIL_ALGORITHM(inclusive_scan_by_offsets, exact_element_lifting<2>)
PSCAN_DETAIL_ALGORITHM(exclusive_scan_by_offsets, exact_element_lifting<2>)
PSCAN_DETAIL_ALGORITHM(inclusive_scan_by_offsets_into, exact_element_lifting<2>)
PSCAN_DETAIL_ALGORITHM(exclusive_scan_by_offsets_into, exact_element_lifting<2>)

struct segmented_inclusive_scan_fn {
  template <class P, class InIt, class FlagIt, class OutIt, class Op = plus<>>
  OutIt operator()(P&& policy, InIt first, InIt last, FlagIt head_flags, OutIt out,
                   Op op = {}) const {
    const profile_range range("pscan::segmented_inclusive_scan");
    using A = value_type_t<InIt>;
    if constexpr (!accepts<P, Op, A>()) {
      return out;  // a static_assert has said why
    } else {
      const std::int64_t n =
          checked_range(policy, "pscan::segmented_inclusive_scan", arg("first", first),
                        arg("last", last), arg("head_flags", head_flags), arg("out", out));
      if (nothing_to_do(policy, n)) return out;
      const auto call = [&](auto op, FlagIt flags, std::int64_t n, auto in, auto to) {
        const auto by_heads = [&](auto in, auto, FlagIt flags, auto to, auto op) {
          inclusive_scan_by_heads(policy, in, flag_heads<FlagIt>{flags}, n, to, op);
        };
        return own_or_to<algorithm::segmented_inclusive_scan>(policy, to + n, by_heads, in,
                                                              in + n, flags, to, op);
      };
      return backend_call<A>(policy, algorithm::segmented_inclusive_scan{}, op, call, head_flags,
                             n, first, out);
    }
  }
};

struct segmented_exclusive_scan_fn {
  template <class P, class InIt, class FlagIt, class OutIt, class T, class Op = plus<>>
  OutIt operator()(P&& policy, InIt first, InIt last, FlagIt head_flags, OutIt out, T init,
                   Op op = {}) const {
    const profile_range range("pscan::segmented_exclusive_scan");
    constexpr const char* name = "pscan::segmented_exclusive_scan";
    if constexpr (!accepts_init<P, Op, T>()) {
      return out;  // a static_assert has said why
    } else {
      const std::int64_t n = checked_range(policy, name, arg("first", first), arg("last", last),
                                           arg("head_flags", head_flags), arg("out", out));
      check_init(policy, name, init, n > 0);
      if (nothing_to_do(policy, n)) return out;
      const auto call = [&](auto op, FlagIt flags, std::int64_t n, auto in, auto to,
                            const auto& init) {
        const auto by_heads = [&](auto in, auto, FlagIt flags, auto to, const auto& init,
                                  auto op) {
          exclusive_scan_by_heads(policy, in, flag_heads<FlagIt>{flags}, n, to, init, op);
        };
        return own_or_to<algorithm::segmented_exclusive_scan>(policy, to + n, by_heads, in,
                                                              in + n, flags, to, init, op);
      };
      return backend_call<init_value_t<T>>(policy, algorithm::segmented_exclusive_scan{}, op, call,
                                           head_flags, n, first, out, init);
    }
  }
};

struct inclusive_scan_by_key_fn {
  template <class P, class KeyIt, class InIt, class OutIt, class Op = plus<>,
            class KeyEq = equal_to<>>
  OutIt operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, InIt values, OutIt out,
                   Op op = {}, KeyEq eq = {}) const {
    const profile_range range("pscan::inclusive_scan_by_key");
    using A = value_type_t<InIt>;
    if constexpr (!(accepts<P, Op, A>() && accepts_keys<KeyEq, value_type_t<KeyIt>>())) {
      return out;  // a static_assert has said why
    } else {
      const std::int64_t n =
          checked_range(policy, "pscan::inclusive_scan_by_key", arg("keys_first", keys_first),
                        arg("keys_last", keys_last), arg("values", values), arg("out", out));
      if (nothing_to_do(policy, n)) return out;
      const auto call = [&](auto op, KeyIt keys_first, KeyIt keys_last, KeyEq eq, auto in,
                            auto to) {
        const auto by_heads = [&](KeyIt keys, KeyIt, auto in, auto to, auto op, KeyEq eq) {
          inclusive_scan_by_heads(policy, in, key_heads<KeyIt, KeyEq>{keys, eq}, n, to, op);
        };
        return own_or_to<algorithm::inclusive_scan_by_key>(policy, to + n, by_heads, keys_first,
                                                           keys_last, in, to, op, eq);
      };
      return backend_call<A>(policy, algorithm::inclusive_scan_by_key{}, op, call, keys_first,
                             keys_last, eq, values, out);
    }
  }
};

struct exclusive_scan_by_key_fn {
  template <class P, class KeyIt, class InIt, class OutIt, class T, class Op = plus<>,
            class KeyEq = equal_to<>>
  OutIt operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, InIt values, OutIt out, T init,
                   Op op = {}, KeyEq eq = {}) const {
    const profile_range range("pscan::exclusive_scan_by_key");
    constexpr const char* name = "pscan::exclusive_scan_by_key";
    if constexpr (!(accepts_init<P, Op, T>() && accepts_keys<KeyEq, value_type_t<KeyIt>>())) {
      return out;  // a static_assert has said why
    } else {
      const std::int64_t n =
          checked_range(policy, name, arg("keys_first", keys_first), arg("keys_last", keys_last),
                        arg("values", values), arg("out", out));
      check_init(policy, name, init, n > 0);
      if (nothing_to_do(policy, n)) return out;
      const auto call = [&](auto op, KeyIt keys_first, KeyIt keys_last, KeyEq eq, auto in,
                            auto to, const auto& init) {
        const auto by_heads = [&](KeyIt keys, KeyIt, auto in, auto to, const auto& init, auto op,
                                  KeyEq eq) {
          exclusive_scan_by_heads(policy, in, key_heads<KeyIt, KeyEq>{keys, eq}, n, to, init, op);
        };
        return own_or_to<algorithm::exclusive_scan_by_key>(policy, to + n, by_heads, keys_first,
                                                           keys_last, in, to, init, op, eq);
      };
      return backend_call<init_value_t<T>>(policy, algorithm::exclusive_scan_by_key{}, op, call,
                                           keys_first, keys_last, eq, values, out, init);
    }
  }
};

// The checks of segmented_reduce's arguments, the offsets themselves aside; returns the number of
// segments.
template <class P, class InIt, class OffIt, class OutIt>
std::int64_t checked_segments(const P& policy, InIt values, OffIt offsets_first, OffIt offsets_last,
                              OutIt out) {
  constexpr const char* name = "pscan::segmented_reduce";
  const std::int64_t offsets = checked_distance(policy, name, "offsets_first", "offsets_last",
                                                offsets_first, offsets_last);
  const std::int64_t segments = offsets > 0 ? offsets - 1 : 0;
  check_argument(policy, name, "offsets_first", offsets_first, offsets);
  check_argument(policy, name, "values", values, segments > 0 ? -1 : 0);
  check_argument(policy, name, "out", out, segments);
  return segments;
}

// Segment i is [values + offsets[i], values + offsets[i+1]); the backend checks the offsets
// themselves (non-negative, non-decreasing) where they live, before writing anything.
struct segmented_reduce_fn {
  template <class P, class InIt, class OffIt, class OutIt, class T, class Op = plus<>>
  OutIt operator()(P&& policy, InIt values, OffIt offsets_first, OffIt offsets_last, OutIt out,
                   T init, Op op = {}) const {
    const profile_range range("pscan::segmented_reduce");
    if constexpr (!accepts_init<P, Op, T>()) {
      return out;  // a static_assert has said why
    } else {
      const std::int64_t segments =
          checked_segments(policy, values, offsets_first, offsets_last, out);
      check_init(policy, "pscan::segmented_reduce", init, segments > 0);
      if (nothing_to_do(policy, segments)) return out;
      const auto call = [&](auto op, OffIt offsets_first, OffIt offsets_last, auto in, auto to,
                            const auto& init) {
        return ends_at(policy, to + segments, [&] {
          return algorithm::segmented_reduce::call(policy, in, offsets_first, offsets_last, to,
                                                   init, op);
        });
      };
      return backend_call<init_value_t<T>>(policy, algorithm::segmented_reduce{}, op, call,
                                           offsets_first, offsets_last, values, out, init);
    }
  }
};

// The checks of the scans by offsets' arguments, the offsets themselves aside; returns the
// number of offsets.
template <class P, class InIt, class OffIt, class OutIt>
std::int64_t checked_offsets_scan(const P& policy, const char* name, InIt values,
                                  OffIt offsets_first, OffIt offsets_last, OutIt out) {
  const std::int64_t offsets = checked_distance(policy, name, "offsets_first", "offsets_last",
                                                offsets_first, offsets_last);
  const bool segments = offsets > 1;
  check_argument(policy, name, "offsets_first", offsets_first, offsets);
  check_argument(policy, name, "values", values, segments ? -1 : 0);
  check_argument(policy, name, "out", out, segments ? -1 : 0);
  return offsets;
}

// The scans by offsets of a policy without its own, which runs on the host: the offsets are
// checked there and their segment starts marked as head flags (n bytes), then
// scan_by_flags(values, n, flags, out) scans [offsets[0], offsets[count-1]).
template <class InIt, class OffIt, class OutIt, class ScanByFlags>
OutIt scan_by_host_offsets(const char* name, InIt values, OffIt offsets, std::int64_t count,
                           OutIt out, ScanByFlags scan_by_flags) {
  check_host_offsets(name, offsets, offsets + count,
                     std::pair<const char*, InIt>{"values", values},
                     std::pair<const char*, OutIt>{"out", out});
  const auto base = static_cast<std::int64_t>(offsets[0]);
  const auto end = static_cast<std::int64_t>(offsets[count - 1]);
  if (end > base) {
    std::vector<unsigned char> flags(static_cast<std::size_t>(end - base), 0);
    for (std::int64_t s = 0; s + 1 < count; ++s) {
      const auto at = static_cast<std::int64_t>(offsets[s]);
      if (at < end) flags[static_cast<std::size_t>(at - base)] = 1;
    }
    scan_by_flags(values + base, end - base, flags.data(), out + base);
  }
  return out + end;
}

struct inclusive_scan_by_offsets_fn {
  template <class P, class InIt, class OffIt, class OutIt, class Op = plus<>>
  OutIt operator()(P&& policy, InIt values, OffIt offsets_first, OffIt offsets_last, OutIt out,
                   Op op = {}) const {
    const profile_range range("pscan::inclusive_scan_by_offsets");
    constexpr const char* name = "pscan::inclusive_scan_by_offsets";
    if constexpr (!accepts<P, Op, value_type_t<InIt>>()) {
      return out;  // a static_assert has said why
    } else {
      const std::int64_t count =
          checked_offsets_scan(policy, name, values, offsets_first, offsets_last, out);
      if (nothing_to_do(policy, count - 1)) return out;  // no segment
      const auto call = [&](auto op, OffIt offsets_first, OffIt offsets_last, auto in, auto to) {
        const auto by_flags = [&](auto in, OffIt offsets, OffIt, auto to, auto op) {
          return scan_by_host_offsets(name, in, offsets, count, to,
                                      [&](auto first, std::int64_t n, const unsigned char* flags,
                                          auto at) {
                                        segmented_inclusive_scan_fn{}(policy, first, first + n,
                                                                      flags, at, op);
                                      });
        };
        return own_or<algorithm::inclusive_scan_by_offsets>(policy, by_flags, in, offsets_first,
                                                            offsets_last, to, op);
      };
      return backend_call<value_type_t<InIt>>(policy, algorithm::inclusive_scan_by_offsets{}, op,
                                              call, offsets_first, offsets_last, values, out);
    }
  }
};

struct exclusive_scan_by_offsets_fn {
  template <class P, class InIt, class OffIt, class OutIt, class T, class Op = plus<>>
  OutIt operator()(P&& policy, InIt values, OffIt offsets_first, OffIt offsets_last, OutIt out,
                   T init, Op op = {}) const {
    const profile_range range("pscan::exclusive_scan_by_offsets");
    constexpr const char* name = "pscan::exclusive_scan_by_offsets";
    if constexpr (!accepts_init<P, Op, T>()) {
      return out;  // a static_assert has said why
    } else {
      const std::int64_t count =
          checked_offsets_scan(policy, name, values, offsets_first, offsets_last, out);
      check_init(policy, name, init, count > 1);
      if (nothing_to_do(policy, count - 1)) return out;  // no segment
      const auto call = [&](auto op, OffIt offsets_first, OffIt offsets_last, auto in, auto to,
                            const auto& init) {
        const auto by_flags = [&](auto in, OffIt offsets, OffIt, auto to, const auto& init,
                                  auto op) {
          return scan_by_host_offsets(name, in, offsets, count, to,
                                      [&](auto first, std::int64_t n, const unsigned char* flags,
                                          auto at) {
                                        segmented_exclusive_scan_fn{}(policy, first, first + n,
                                                                      flags, at, init, op);
                                      });
        };
        return own_or<algorithm::exclusive_scan_by_offsets>(policy, by_flags, in, offsets_first,
                                                            offsets_last, to, init, op);
      };
      return backend_call<init_value_t<T>>(policy, algorithm::exclusive_scan_by_offsets{}, op,
                                           call, offsets_first, offsets_last, values, out, init);
    }
  }
};

// The scans by offsets that return nothing to the host: a policy with its own (the CUDA ones:
// no wait, so they can be captured into a graph) runs it after the host-side checks; any other
// runs the returning scan.
struct inclusive_scan_by_offsets_into_fn {
  template <class P, class InIt, class OffIt, class OutIt, class Op = plus<>>
  void operator()(P&& policy, InIt values, OffIt offsets_first, OffIt offsets_last, OutIt out,
                  Op op = {}) const {
    if constexpr (!is_collective_policy_v<P> &&
                  algorithm::inclusive_scan_by_offsets_into::available<std::decay_t<P>, InIt,
                                                                      OffIt, OffIt, OutIt, Op>) {
      const profile_range range("pscan::inclusive_scan_by_offsets_into");
      if constexpr (accepts<P, Op, value_type_t<InIt>>()) {
        if (checked_offsets_scan(policy, "pscan::inclusive_scan_by_offsets_into", values,
                                 offsets_first, offsets_last, out) < 2) {
          return;
        }
        const auto call = [&](auto op, OffIt offsets_first, OffIt offsets_last, auto in,
                              auto to) {
          algorithm::inclusive_scan_by_offsets_into::call(policy, in, offsets_first,
                                                          offsets_last, to, op);
        };
        backend_call<value_type_t<InIt>>(policy, algorithm::inclusive_scan_by_offsets_into{}, op,
                                         call, offsets_first, offsets_last, values, out);
      }
    } else {
      inclusive_scan_by_offsets_fn{}(policy, values, offsets_first, offsets_last, out, op);
    }
  }
};

struct exclusive_scan_by_offsets_into_fn {
  template <class P, class InIt, class OffIt, class OutIt, class T, class Op = plus<>>
  void operator()(P&& policy, InIt values, OffIt offsets_first, OffIt offsets_last, OutIt out,
                  T init, Op op = {}) const {
    if constexpr (!is_collective_policy_v<P> &&
                  algorithm::exclusive_scan_by_offsets_into::available<std::decay_t<P>, InIt,
                                                                      OffIt, OffIt, OutIt, T, Op>) {
      const profile_range range("pscan::exclusive_scan_by_offsets_into");
      constexpr const char* name = "pscan::exclusive_scan_by_offsets_into";
      if constexpr (accepts_init<P, Op, T>()) {
        const std::int64_t count =
            checked_offsets_scan(policy, name, values, offsets_first, offsets_last, out);
        check_init(policy, name, init, count > 1);
        if (count < 2) return;
        const auto call = [&](auto op, OffIt offsets_first, OffIt offsets_last, auto in, auto to,
                              const auto& init) {
          algorithm::exclusive_scan_by_offsets_into::call(policy, in, offsets_first,
                                                          offsets_last, to, init, op);
        };
        backend_call<init_value_t<T>>(policy, algorithm::exclusive_scan_by_offsets_into{}, op,
                                      call, offsets_first, offsets_last, values, out, init);
      }
    } else {
      exclusive_scan_by_offsets_fn{}(policy, values, offsets_first, offsets_last, out, init, op);
    }
  }
};

}  // namespace detail

// out[i] = in[h] op ... op in[i], h the start of i's segment (head_flags[h] != 0, or h = 0).
inline constexpr detail::segmented_inclusive_scan_fn segmented_inclusive_scan{};
// out[i] = init op in[h] op ... op in[i-1]; init where i starts a segment.
inline constexpr detail::segmented_exclusive_scan_fn segmented_exclusive_scan{};
// Segments are the runs of equal keys (by eq, between neighbours).
inline constexpr detail::inclusive_scan_by_key_fn inclusive_scan_by_key{};
inline constexpr detail::exclusive_scan_by_key_fn exclusive_scan_by_key{};
// out[i] = init op values[offsets[i]] op ... op values[offsets[i+1] - 1]; init if empty.
inline constexpr detail::segmented_reduce_fn segmented_reduce{};
// The segmented scans with segments as segmented_reduce takes them, in place in values' positions:
// out[i] for i in [offsets[0], offsets[m-1]) (m offsets), the segment of i the one of
// [offsets[s], offsets[s+1]) that holds it. Returns out + offsets[m-1] (out for m < 2).
inline constexpr detail::inclusive_scan_by_offsets_fn inclusive_scan_by_offsets{};
inline constexpr detail::exclusive_scan_by_offsets_fn exclusive_scan_by_offsets{};
// The same scans, returning nothing: on a CUDA policy they never wait (bad offsets are reported
// by a later synchronize(), or thrown before any write with .checked()) and can be captured into
// a graph.
inline constexpr detail::inclusive_scan_by_offsets_into_fn inclusive_scan_by_offsets_into{};
inline constexpr detail::exclusive_scan_by_offsets_into_fn exclusive_scan_by_offsets_into{};

}  // namespace pscan
