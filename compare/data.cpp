#include "data.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace compare {

namespace {

constexpr double log_bits = 24;          // log: lengths floor(2^u), u uniform in [0, 24)
constexpr std::int64_t gaps_span = 399;  // gaps: non-empty lengths in [1, 399]: mean 100 overall

// The first draw: uniform lengths start from their mean, the other shapes from the shape.
std::uint64_t first_draw(const segment_lengths& s) {
  const auto seed = static_cast<std::uint64_t>(
      s.shape == segment_shape::uniform ? s.mean : static_cast<std::int64_t>(s.shape) << 56);
  return (seed * 0x9e3779b97f4a7c15ull) ^ data_seed;
}

// The length of segment k (before clipping), from the next draw.
std::int64_t next_length(const segment_lengths& s, std::int64_t k, std::int64_t n,
                         std::uint64_t& draw) {
  draw = mix64(draw);
  switch (s.shape) {
    case segment_shape::uniform:
      return 1 + static_cast<std::int64_t>(
                     draw % static_cast<std::uint64_t>(std::max<std::int64_t>(1, 2 * s.mean - 1)));
    case segment_shape::log:
      return static_cast<std::int64_t>(
          std::exp2(static_cast<double>(draw >> 11) * 0x1p-53 * log_bits));
    case segment_shape::gaps:
      return k % 2 == 0 ? 0 : 1 + static_cast<std::int64_t>(draw % gaps_span);
    case segment_shape::one:
    case segment_shape::none:
      break;
  }
  return n;
}

}  // namespace

segmentation make_segmentation(std::int64_t n, const segment_lengths& lengths) {
  segmentation s;
  s.offsets.reserve(static_cast<std::size_t>(expected_segments(n, lengths) + 2));
  std::uint64_t draw = first_draw(lengths);
  for (std::int64_t start = 0, k = 0; start < n; ++k) {
    s.offsets.push_back(start);
    start += std::min(next_length(lengths, k, n, draw), n - start);
  }
  s.offsets.push_back(n);

  s.flags = host_array<flag_type>(n);
  s.keys = host_array<key_type>(n);
  const std::int64_t segments = s.segments();
  flag_type* flags = s.flags.get();
  key_type* keys = s.keys.get();
  const offset_type* offsets = s.offsets.data();
  constexpr std::int64_t chunk = std::int64_t{1} << 16;  // by elements: one long segment too
#pragma omp parallel for schedule(static)
  for (std::int64_t begin = 0; begin < n; begin += chunk) {
    // The non-empty segment holding `begin`: the last one starting at or before it.
    std::int64_t k = std::upper_bound(offsets, offsets + segments + 1, begin) - offsets - 1;
    for (std::int64_t i = begin; i < std::min(n, begin + chunk); ++i) {
      while (offsets[k + 1] <= i) ++k;  // past the segment's end and any empty ones after it
      flags[i] = i == offsets[k] ? 1 : 0;
      keys[i] = static_cast<key_type>(k & 0x7fffffff);  // non-empty neighbours are <= 2 apart
    }
  }
  return s;
}

std::int64_t expected_segments(std::int64_t n, const segment_lengths& lengths) {
  // log: the mean of floor(2^u) is about (2^24 - 1) / (24 ln 2), some 10^6 elements
  const auto log_mean = static_cast<std::int64_t>(std::exp2(log_bits) / (log_bits * std::log(2.0)));
  switch (lengths.shape) {
    case segment_shape::none:
      return 0;
    case segment_shape::uniform:
      return n / lengths.mean + 1;
    case segment_shape::one:
      return 1;
    case segment_shape::log:
      return n / log_mean + 1;
    case segment_shape::gaps:
      return n / 100 + 1;
  }
  return 1;
}

void poison_host(void* p, std::int64_t bytes) {
  auto* c = static_cast<unsigned char*>(p);
  constexpr std::int64_t chunk = std::int64_t{1} << 22;
#pragma omp parallel for schedule(static)
  for (std::int64_t begin = 0; begin < bytes; begin += chunk) {
    std::memset(c + begin, 0xFF, static_cast<std::size_t>(std::min(chunk, bytes - begin)));
  }
}

namespace {

// One cell's segment data on the device: its description and, where keys are given as well, the
// keys and reduce_by_key's key output (one per segment).
std::int64_t device_segment_bytes(algorithm a, std::int64_t n, std::int64_t segments) {
  const auto key = static_cast<std::int64_t>(sizeof(key_type));
  const std::int64_t keys = describe(a).keys_as_well ? (n + segments) * key : 0;
  return segment_bytes(a, n, segments) + keys;
}

}  // namespace

footprint estimate_footprint(target where, element type, std::int64_t n,
                             const std::vector<algorithm>& algos,
                             const std::vector<segment_lengths>& distributions) {
  const std::int64_t array = n * static_cast<std::int64_t>(size_of(type));
  const std::int64_t slack = array / 16 + (std::int64_t{256} << 20);
  // Host: the segmentation of every distribution, kept for the size. Device: one cell's segment
  // data at a time (distribution 1's segmented_reduce: 16 n bytes).
  std::int64_t host_segments = 0, device_segments = 0;
  if (std::any_of(algos.begin(), algos.end(), is_segmented)) {
    for (const segment_lengths& d : distributions) {
      const std::int64_t segments = expected_segments(n, d);
      host_segments += n * static_cast<std::int64_t>(sizeof(flag_type) + sizeof(key_type)) +
                       (segments + 1) * static_cast<std::int64_t>(sizeof(offset_type));
      for (algorithm a : algos)
        device_segments = std::max(device_segments, device_segment_bytes(a, n, segments));
    }
  }
  footprint f;
  // values + reference, the segmentations, + the output on a CPU target
  f.host = 2 * array + host_segments + (where == target::cpu ? array : 0) + slack;
  if (where == target::gpu)
    f.device = 3 * array + device_segments + slack;  // values, out, reference
  return f;
}

std::int64_t host_available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::int64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return -1;
}

}  // namespace compare
