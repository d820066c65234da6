#pragma once
// pscan::distributed's segmented scans (head flags, keys): the scans of scan.hpp over the
// (value, head) pairs of the lifted operator (Blelloch 1990; detail/segmented_generic.hpp). A
// rank's total under it is its last segment's partial and whether a segment starts in its range,
// so the carry-in it gets from the lower ranks reaches only its first open segment. Whether a
// rank's first position starts a segment depends on the ranks before it (the global front; by
// key, the previous non-empty rank's last key): ranks compute their totals as if it did not
// (unless their own head flag says so), send their first and last keys along, and every rank
// settles it for the ranks up to itself after the exchange: still one MPI_Allgather per call. The
// local work is the local policy's plain scans over the pairs, with the carry-in as init.

#include <pscan/detail/dispatch.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/detail/segmented_generic.hpp>
#include <pscan/policies/distributed/exchange.hpp>
#include <pscan/policies/distributed/local.hpp>
#include <pscan/policies/distributed/policy.hpp>
#include <pscan/scan.hpp>

#include <cstdint>
#include <vector>

namespace pscan::distributed_backend {
namespace detail {

using pscan::detail::flagged;
using pscan::detail::lifted_op;
using pscan::detail::make_index_iterator;

// Head flags of a rank's range: flags[i] != 0, and position 0 when it starts the global sequence.
template <class FlagIt>
struct rank_flag_heads {
  FlagIt flags;
  bool first_is_head;
  PSCAN_HOST_DEVICE bool operator()(std::int64_t i) const {
    return (i == 0 && first_is_head) || flags[i] != 0;
  }
};

// Heads by key: where a key differs from the one before; position 0 as settled across ranks.
template <class KeyIt, class KeyEq>
struct rank_key_heads {
  KeyIt keys;
  KeyEq eq;
  bool first_is_head;
  PSCAN_HOST_DEVICE bool operator()(std::int64_t i) const {
    return i == 0 ? first_is_head : !eq(keys[i - 1], keys[i]);
  }
};

// How a rank's segments start. `checked` checks the call's arguments and returns n; `ends` is
// what a rank sends besides its total, and `starts` says from the previous non-empty rank's ends
// and a rank's own whether its first position starts a segment (the global front always does).
template <class InIt, class FlagIt>
struct by_flags {
  InIt last;
  FlagIt flags;

  template <class Local, class OutIt>
  std::int64_t checked(const Local& local, const char* name, InIt first, OutIt out) const {
    using pscan::detail::arg;
    return pscan::detail::checked_range(local, name, arg("first", first), arg("last", last),
                                        arg("head_flags", flags), arg("out", out));
  }
  struct ends {};
  template <class Local>
  ends ends_of(const Local&, std::int64_t) const {
    return {};
  }
  bool starts(const ends&, const ends&) const { return false; }
  rank_flag_heads<FlagIt> heads(bool first_is_head) const { return {flags, first_is_head}; }
};

template <class KeyIt, class KeyEq>
struct by_keys {
  using key = pscan::detail::value_type_t<KeyIt>;
  KeyIt keys;
  KeyIt keys_last;
  KeyEq eq;

  template <class Local, class InIt, class OutIt>
  std::int64_t checked(const Local& local, const char* name, InIt values, OutIt out) const {
    using pscan::detail::arg;
    return pscan::detail::checked_range(local, name, arg("keys_first", keys),
                                        arg("keys_last", keys_last), arg("values", values),
                                        arg("out", out));
  }
  struct ends {
    key first, last;
  };
  template <class Local>
  ends ends_of(const Local& local, std::int64_t n) const {
    return {load<key>(local, keys), load<key>(local, keys + (n - 1))};
  }
  bool starts(const ends& previous, const ends& own) const { return !eq(previous.last, own.first); }
  rank_key_heads<KeyIt, KeyEq> heads(bool first_is_head) const { return {keys, eq, first_is_head}; }
};

// The inclusive scan over (values[i], head(i)).
template <class T, class InIt, class Op>
struct inclusive_form {
  using op_type = Op;
  InIt values;
  Op op;

  template <class Heads>
  auto input(Heads heads) const {
    using input = pscan::detail::flagged_input<flagged<T>, InIt, Heads>;
    return make_index_iterator(input{values, heads});
  }
  // A rank's total once its first position turns out to start a segment.
  flagged<T> starting(flagged<T> total) const { return {total.value, true}; }
  template <class Local, class Heads, class OutIt>
  void scan(const Local& local, Heads heads, std::int64_t n, OutIt out,
            const partial<flagged<T>>& carry) const {
    const auto in = input(heads);
    const auto to = make_index_iterator(pscan::detail::value_output<OutIt>{out});
    if (carry.has) {
      pscan::inclusive_scan(local, in, in + n, to, lifted_op<Op>{op}, carry.value);
    } else {
      pscan::inclusive_scan(local, in, in + n, to, lifted_op<Op>{op});
    }
  }
};

// The exclusive scan over (values[i], head(i)) with init folded into each segment's first value,
// as the generic path does.
template <class T, class InIt, class Op>
struct exclusive_form {
  using op_type = Op;
  InIt values;
  T init;
  Op op;

  template <class Heads>
  auto input(Heads heads) const {
    return make_index_iterator(
        pscan::detail::flagged_input_with_init<T, InIt, Heads, Op>{values, heads, init, op});
  }
  // Without a later head the total's segment now starts at position 0, so init joins it.
  flagged<T> starting(flagged<T> total) const {
    if (total.head) return total;
    return {static_cast<T>(op(init, total.value)), true};
  }
  template <class Local, class Heads, class OutIt>
  void scan(const Local& local, Heads heads, std::int64_t n, OutIt out,
            const partial<flagged<T>>& carry) const {
    const auto in = input(heads);
    const auto to =
        make_index_iterator(pscan::detail::exclusive_output<OutIt, Heads, T>{out, heads, init});
    const flagged<T> from = carry.has ? carry.value : flagged<T>{init, true};
    pscan::exclusive_scan(local, in, in + n, to, from, lifted_op<Op>{op});
  }
};

// What a rank sends: its total under the lifted operator with position 0 taken as no head
// (nothing when empty, and on the last rank, whose total nobody needs), and its ends.
template <class T, class Ends>
struct segment_record {
  partial<flagged<T>> total;
  Ends ends;
};

// One segmented scan: seg says where segments start, form which scan runs. Returns out + n.
template <class T, class Local, class Segmentation, class Form, class OutIt>
OutIt segmented_scan(const policy<Local>& p, const char* algorithm, const Segmentation& seg,
                     const Form& form, OutIt out) {
  using ends = typename Segmentation::ends;
  using record = segment_record<T, ends>;
  transferable<T>();
  transferable<ends>();
  const place where = place_in(p.comm);
  const lifted_op<typename Form::op_type> lifted{form.op};
  std::int64_t n = 0;
  const std::vector<record> all = exchange<record>(p.comm, where, algorithm, [&] {
    record mine{};
    n = seg.checked(p.local, algorithm, form.values, out);
    if (n == 0) return mine;
    mine.ends = seg.ends_of(p.local, n);
    if (where.rank + 1 < where.size) {
      mine.total = {true,
                    local_total<flagged<T>>(p.local, form.input(seg.heads(false)), n, lifted)};
    }
    return mine;
  });
  // The lower ranks in order: settle where each one's first position starts a segment, and fold.
  // Below this rank a rank is empty exactly when it sent no total.
  partial<flagged<T>> carry{};
  const ends* previous = nullptr;  // the last non-empty rank's
  for (int r = 0; r < where.rank; ++r) {
    const record& lower = all[static_cast<std::size_t>(r)];
    if (!lower.total.has) continue;
    flagged<T> total = lower.total.value;
    if (previous == nullptr || seg.starts(*previous, lower.ends)) total = form.starting(total);
    carry = partial_op<lifted_op<typename Form::op_type>>{lifted}(carry, {true, total});
    previous = &lower.ends;
  }
  if (n > 0) {
    const bool first_is_head =
        previous == nullptr ||
        seg.starts(*previous, all[static_cast<std::size_t>(where.rank)].ends);
    form.scan(p.local, seg.heads(first_is_head), n, out, carry);
  }
  return out + n;
}

}  // namespace detail

template <class Local, class InIt, class FlagIt, class OutIt, class Op>
OutIt segmented_inclusive_scan(const policy<Local>& p, InIt first, InIt last, FlagIt head_flags,
                               OutIt out, Op op) {
  using T = pscan::detail::value_type_t<InIt>;
  return detail::segmented_scan<T>(p, "pscan::segmented_inclusive_scan",
                                   detail::by_flags<InIt, FlagIt>{last, head_flags},
                                   detail::inclusive_form<T, InIt, Op>{first, op}, out);
}

template <class Local, class InIt, class FlagIt, class OutIt, class T, class Op>
OutIt segmented_exclusive_scan(const policy<Local>& p, InIt first, InIt last, FlagIt head_flags,
                               OutIt out, T init, Op op) {
  return detail::segmented_scan<T>(p, "pscan::segmented_exclusive_scan",
                                   detail::by_flags<InIt, FlagIt>{last, head_flags},
                                   detail::exclusive_form<T, InIt, Op>{first, init, op}, out);
}

template <class Local, class KeyIt, class InIt, class OutIt, class Op, class KeyEq>
OutIt inclusive_scan_by_key(const policy<Local>& p, KeyIt keys_first, KeyIt keys_last, InIt values,
                            OutIt out, Op op, KeyEq eq) {
  using T = pscan::detail::value_type_t<InIt>;
  return detail::segmented_scan<T>(p, "pscan::inclusive_scan_by_key",
                                   detail::by_keys<KeyIt, KeyEq>{keys_first, keys_last, eq},
                                   detail::inclusive_form<T, InIt, Op>{values, op}, out);
}

template <class Local, class KeyIt, class InIt, class OutIt, class T, class Op, class KeyEq>
OutIt exclusive_scan_by_key(const policy<Local>& p, KeyIt keys_first, KeyIt keys_last, InIt values,
                            OutIt out, T init, Op op, KeyEq eq) {
  return detail::segmented_scan<T>(p, "pscan::exclusive_scan_by_key",
                                   detail::by_keys<KeyIt, KeyEq>{keys_first, keys_last, eq},
                                   detail::exclusive_form<T, InIt, Op>{values, init, op}, out);
}

}  // namespace pscan::distributed_backend
