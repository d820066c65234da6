#pragma once
// pscan::distributed's segmented_reduce. Offsets are rank-local: each rank's segments lie in its
// own values, as offsets into them, and its results are its own; no segment spans ranks. The
// ranks exchange only whether their arguments are valid (one MPI_Allgather), then each reduces
// its segments with the local policy.

#include <pscan/detail/config.hpp>
#include <pscan/detail/host_offsets.hpp>
#include <pscan/detail/index_iterator.hpp>
#include <pscan/functional.hpp>
#include <pscan/policies/distributed/exchange.hpp>
#include <pscan/policies/distributed/policy.hpp>
#include <pscan/reduce.hpp>
#include <pscan/segmented.hpp>

#include <cstdint>
#include <utility>

namespace pscan::distributed_backend {
namespace detail {

// i where offsets break the contract at i (offsets[0] < 0, offsets[i] < offsets[i-1]), else none.
template <class OffIt>
struct offset_fault {
  static constexpr std::int64_t none = INT64_MAX;
  OffIt offsets;
  PSCAN_HOST_DEVICE std::int64_t operator()(std::int64_t i) const {
    const bool bad =
        i == 0 ? static_cast<std::int64_t>(offsets[0]) < 0 : offsets[i] < offsets[i - 1];
    return bad ? i : none;
  }
};

// Throws the local policies' error for the first offset that breaks the contract: the first fault
// is a minimum the local policy reduces, wherever the offsets live.
template <class Local, class OffIt>
void check_offsets(const Local& local, const char* algorithm, OffIt offsets, std::int64_t count) {
  using fault = offset_fault<OffIt>;
  const auto faults = pscan::detail::make_index_iterator(fault{offsets});
  const std::int64_t first =
      pscan::reduce(local, faults, faults + count, fault::none, pscan::minimum<>{});
  if (first != fault::none) throw pscan::detail::offsets_error(algorithm, first);
}

// The elements that offsets[0 .. count) span, as a function of one index for the local policy
// to read wherever the offsets live.
template <class OffIt>
struct offsets_span {
  OffIt offsets;
  std::int64_t count;
  PSCAN_HOST_DEVICE std::int64_t operator()(std::int64_t) const {
    return static_cast<std::int64_t>(offsets[count - 1]) - static_cast<std::int64_t>(offsets[0]);
  }
};

// Throws pscan::invalid_argument for a null raw pointer among `elementwise` ({name, iterator}:
// the values and outputs indexed by the offsets, checked already) while the offsets span
// elements: the null check the dispatch layer leaves until the count is known.
template <class Local, class OffIt, class... Its>
void check_elementwise(const Local& local, const char* algorithm, OffIt offsets,
                       std::int64_t count, const std::pair<const char*, Its>&... elementwise) {
  using pscan::detail::is_null_pointer;
  if (count < 2 || !(is_null_pointer(elementwise.second) || ...)) return;
  const auto span = pscan::detail::make_index_iterator(offsets_span<OffIt>{offsets, count});
  const std::int64_t n = pscan::reduce(local, span, span + 1, std::int64_t{0}, pscan::plus<>{});
  const auto check = [&](const char* name, const auto& it) {
    if (n > 0 && is_null_pointer(it)) throw pscan::detail::null_pointer_error(algorithm, name, n);
  };
  (check(elementwise.first, elementwise.second), ...);
}

}  // namespace detail

template <class Local, class InIt, class OffIt, class OutIt, class T, class Op>
OutIt segmented_reduce(const policy<Local>& p, InIt values, OffIt offsets_first, OffIt offsets_last,
                       OutIt out, T init, Op op) {
  constexpr const char* name = "pscan::segmented_reduce";
  detail::exchange<detail::nothing>(p.comm, detail::place_in(p.comm), name, [&] {
    const std::int64_t segments =
        pscan::detail::checked_segments(p.local, values, offsets_first, offsets_last, out);
    if (segments > 0) {
      detail::check_offsets(p.local, name, offsets_first, segments + 1);
      detail::check_elementwise(p.local, name, offsets_first, segments + 1,
                                std::pair<const char*, InIt>{"values", values});
    }
    return detail::nothing{};
  });
  return pscan::segmented_reduce(p.local, values, offsets_first, offsets_last, out, init, op);
}

}  // namespace pscan::distributed_backend
