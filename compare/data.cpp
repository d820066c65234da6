#include "data.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace compare {

segmentation make_segmentation(std::int64_t n, std::int64_t mean) {
  segmentation s;
  s.mean = mean;
  const std::int64_t span = std::max<std::int64_t>(1, 2 * mean - 1);
  s.offsets.reserve(static_cast<std::size_t>(n / std::max<std::int64_t>(1, mean) + 2));
  std::uint64_t draw = (static_cast<std::uint64_t>(mean) * 0x9e3779b97f4a7c15ull) ^ data_seed;
  for (std::int64_t start = 0; start < n;) {
    s.offsets.push_back(start);
    draw = mix64(draw);
    start += 1 + static_cast<std::int64_t>(draw % static_cast<std::uint64_t>(span));
  }
  s.offsets.push_back(n);

  s.flags = host_array<flag_type>(n);
  s.keys = host_array<key_type>(n);
  const std::int64_t segments = s.segments();
  flag_type* flags = s.flags.get();
  key_type* keys = s.keys.get();
  const offset_type* offsets = s.offsets.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < segments; ++k) {
    const auto key = static_cast<key_type>(k & 0x7fffffff);  // neighbours always differ
    for (std::int64_t i = offsets[k]; i < offsets[k + 1]; ++i) {
      flags[i] = i == offsets[k] ? 1 : 0;
      keys[i] = key;
    }
  }
  return s;
}

void poison_host(void* p, std::int64_t bytes) {
  auto* c = static_cast<unsigned char*>(p);
  constexpr std::int64_t chunk = std::int64_t{1} << 22;
#pragma omp parallel for schedule(static)
  for (std::int64_t begin = 0; begin < bytes; begin += chunk) {
    std::memset(c + begin, 0xFF, static_cast<std::size_t>(std::min(chunk, bytes - begin)));
  }
}

footprint estimate_footprint(target where, element type, std::int64_t n,
                             const std::vector<algorithm>& algos, std::size_t segment_means) {
  const std::int64_t array = n * static_cast<std::int64_t>(size_of(type));
  const bool segmented = std::any_of(algos.begin(), algos.end(), is_segmented);
  // Flags, keys, and offsets at the shortest mean we generate (8 elements: n bytes).
  const std::int64_t segments_bytes =
      segmented ? n * static_cast<std::int64_t>(sizeof(flag_type) + sizeof(key_type) + 1) : 0;
  const std::int64_t slack = array / 16 + (std::int64_t{256} << 20);
  footprint f;
  // values + reference, the segmentation cache of every mean, + the output on a CPU target
  f.host = 2 * array + segments_bytes * static_cast<std::int64_t>(segment_means) +
           (where == target::cpu ? array : 0) + slack;
  if (where == target::gpu)
    f.device = 3 * array + segments_bytes + slack;  // values, out, reference
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
