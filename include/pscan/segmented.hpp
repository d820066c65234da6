#pragma once
// Segmented scans (by head flags, by key) and segmented_reduce (by offsets). A backend without its
// own segmented scans gets the generic path of detail/segmented_generic.hpp.

#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/profiling.hpp>
#include <pscan/detail/segmented_generic.hpp>
#include <pscan/functional.hpp>

#include <cstdint>
#include <iterator>
#include <type_traits>

namespace pscan {
namespace detail {

struct segmented_inclusive_scan_fn {
  template <class P, class InIt, class FlagIt, class OutIt, class Op = plus<>>
  OutIt operator()(P&& policy, InIt first, InIt last, FlagIt head_flags, OutIt out,
                   Op op = {}) const {
    const profile_range range("pscan::segmented_inclusive_scan");
    constexpr const char* name = "pscan::segmented_inclusive_scan";
    if constexpr (!accepts<P, Op, value_type_t<InIt>>()) {
      return out;  // a static_assert has said why
    } else if constexpr (is_collective_policy_v<P>) {
      return adl_segmented_inclusive_scan::call(policy, first, last, head_flags, out, op);
    } else {
      const std::int64_t n = checked_range(policy, name, arg("first", first), arg("last", last),
                                           arg("head_flags", head_flags), arg("out", out));
      if (n == 0) return out;
      using Pd = std::decay_t<P>;
      if constexpr (adl_segmented_inclusive_scan::available<Pd, InIt, InIt, FlagIt, OutIt, Op>) {
        adl_segmented_inclusive_scan::call(policy, first, last, head_flags, out, op);
      } else {
        inclusive_scan_by_heads(policy, first, flag_heads<FlagIt>{head_flags}, n, out, op);
      }
      return out + n;
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
    } else if constexpr (is_collective_policy_v<P>) {
      return adl_segmented_exclusive_scan::call(policy, first, last, head_flags, out, init, op);
    } else {
      const std::int64_t n = checked_range(policy, name, arg("first", first), arg("last", last),
                                           arg("head_flags", head_flags), arg("out", out));
      check_init(policy, name, init, n > 0);
      if (n == 0) return out;
      using Pd = std::decay_t<P>;
      if constexpr (adl_segmented_exclusive_scan::available<Pd, InIt, InIt, FlagIt, OutIt, T, Op>) {
        adl_segmented_exclusive_scan::call(policy, first, last, head_flags, out, init, op);
      } else {
        exclusive_scan_by_heads(policy, first, flag_heads<FlagIt>{head_flags}, n, out, init, op);
      }
      return out + n;
    }
  }
};

struct inclusive_scan_by_key_fn {
  template <class P, class KeyIt, class InIt, class OutIt, class Op = plus<>,
            class KeyEq = equal_to<>>
  OutIt operator()(P&& policy, KeyIt keys_first, KeyIt keys_last, InIt values, OutIt out,
                   Op op = {}, KeyEq eq = {}) const {
    const profile_range range("pscan::inclusive_scan_by_key");
    constexpr const char* name = "pscan::inclusive_scan_by_key";
    if constexpr (!(accepts<P, Op, value_type_t<InIt>>() &&
                    accepts_keys<KeyEq, value_type_t<KeyIt>>())) {
      return out;  // a static_assert has said why
    } else if constexpr (is_collective_policy_v<P>) {
      return adl_inclusive_scan_by_key::call(policy, keys_first, keys_last, values, out, op, eq);
    } else {
      const std::int64_t n =
          checked_range(policy, name, arg("keys_first", keys_first), arg("keys_last", keys_last),
                        arg("values", values), arg("out", out));
      if (n == 0) return out;
      using Pd = std::decay_t<P>;
      if constexpr (adl_inclusive_scan_by_key::available<Pd, KeyIt, KeyIt, InIt, OutIt, Op,
                                                         KeyEq>) {
        adl_inclusive_scan_by_key::call(policy, keys_first, keys_last, values, out, op, eq);
      } else {
        inclusive_scan_by_heads(policy, values, key_heads<KeyIt, KeyEq>{keys_first, eq}, n, out,
                                op);
      }
      return out + n;
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
    } else if constexpr (is_collective_policy_v<P>) {
      return adl_exclusive_scan_by_key::call(policy, keys_first, keys_last, values, out, init, op,
                                             eq);
    } else {
      const std::int64_t n =
          checked_range(policy, name, arg("keys_first", keys_first), arg("keys_last", keys_last),
                        arg("values", values), arg("out", out));
      check_init(policy, name, init, n > 0);
      if (n == 0) return out;
      using Pd = std::decay_t<P>;
      if constexpr (adl_exclusive_scan_by_key::available<Pd, KeyIt, KeyIt, InIt, OutIt, T, Op,
                                                         KeyEq>) {
        adl_exclusive_scan_by_key::call(policy, keys_first, keys_last, values, out, init, op, eq);
      } else {
        exclusive_scan_by_heads(policy, values, key_heads<KeyIt, KeyEq>{keys_first, eq}, n, out,
                                init, op);
      }
      return out + n;
    }
  }
};

// The checks of segmented_reduce's arguments, the offsets themselves aside; returns the number of
// segments.
template <class P, class InIt, class OffIt, class OutIt>
std::int64_t checked_segments(const P& policy, InIt values, OffIt offsets_first, OffIt offsets_last,
                              OutIt out) {
  constexpr const char* name = "pscan::segmented_reduce";
  const std::int64_t offsets =
      checked_distance(name, "offsets_first", "offsets_last", offsets_first, offsets_last);
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
    constexpr const char* name = "pscan::segmented_reduce";
    if constexpr (!accepts_init<P, Op, T>()) {
      return out;  // a static_assert has said why
    } else if constexpr (is_collective_policy_v<P>) {
      return adl_segmented_reduce::call(policy, values, offsets_first, offsets_last, out, init, op);
    } else {
      const std::int64_t segments =
          checked_segments(policy, values, offsets_first, offsets_last, out);
      check_init(policy, name, init, segments > 0);
      if (segments == 0) return out;
      adl_segmented_reduce::call(policy, values, offsets_first, offsets_last, out, init, op);
      return out + segments;
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

}  // namespace pscan
