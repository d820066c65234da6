#pragma once
// What a scan kernel's tiles read, named by the input itself: plain values (any iterator), or an
// input that brings its own tile agent and accumulator: a segmented scan's (segmented_input:
// segmented_tile_scan over flagged<T>) or reduce_by_key's (run_input: reduce_by_key_tile over
// counted<T>). Such an input says which through its member `tile_kind`; the backends choose their
// agent and tuning by the kind (tile_input_v), never by the input's type.

#include <type_traits>

namespace pscan::cuda_common {

enum class tile_input { values, segmented, runs };

template <class InIt, class = void>
inline constexpr tile_input tile_input_v = tile_input::values;
template <class InIt>
inline constexpr tile_input tile_input_v<InIt, std::void_t<decltype(InIt::tile_kind)>> =
    InIt::tile_kind;

}  // namespace pscan::cuda_common
