// The per-(device, stream) tile-state buffers of policies/cuda_common/runtime/tile_state_cache.cuh.
// Streams are keyed by cudaStreamGetId, unique for the life of the process, so a stream created
// after another was destroyed never inherits its buffer (the old work may still be running).
// The cache lives until the process exits (deliberately leaked: CUDA may be torn down first).

#include <cuda_common/check.cuh>
#include <cuda_common/runtime/tile_state_cache.cuh>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace pscan::cuda_common {
namespace {

constexpr std::size_t min_buffer_bytes = std::size_t{64} << 10;

struct stream_key {
  int device;
  unsigned long long stream_id;
  int layout;
  bool operator==(const stream_key& o) const {
    return device == o.device && stream_id == o.stream_id && layout == o.layout;
  }
};

struct stream_key_hash {
  std::size_t operator()(const stream_key& k) const {
    return std::hash<unsigned long long>()((k.stream_id * 64 + static_cast<unsigned>(k.device)) *
                                               64 +
                                           static_cast<unsigned>(k.layout));
  }
};

struct cached_buffer {
  std::shared_ptr<void> owner;
  void* data = nullptr;
  std::size_t bytes = 0;
  std::uint32_t epoch = 0;
};

struct cache {
  std::mutex mutex;
  std::unordered_map<stream_key, cached_buffer, stream_key_hash> buffers;
};

cache& the_cache() {
  static cache* instance = new cache;  // never destroyed: see above
  return *instance;
}

std::size_t grown_size(std::size_t bytes) {
  std::size_t size = min_buffer_bytes;
  while (size < bytes) size *= 2;
  return size;
}

// Zeroed device memory, freed on `stream` (after the work queued there) when the last owner
// lets go.
cached_buffer allocate_cleared(cudaStream_t stream, std::size_t bytes) {
  void* p = nullptr;
  PSCAN_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream));
  // A failed free cannot be reported from a destructor; the memory stays with the pool.
  std::shared_ptr<void> owner(p,
                              [stream](void* q) { static_cast<void>(cudaFreeAsync(q, stream)); });
  PSCAN_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, stream));
  return cached_buffer{std::move(owner), p, bytes, 0};
}

}  // namespace

tile_state_lease lease_tile_state(cudaStream_t stream, std::size_t bytes, int layout) {
  stream_key key{};
  key.layout = layout;
  PSCAN_CUDA_CHECK(cudaGetDevice(&key.device));
  PSCAN_CUDA_CHECK(cudaStreamGetId(stream, &key.stream_id));

  cache& c = the_cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  cached_buffer& buffer = c.buffers[key];
  if (buffer.bytes < bytes) {
    buffer = allocate_cleared(stream, grown_size(bytes));  // the old one goes with its last lease
  } else if (buffer.epoch == max_tile_state_epoch) {
    PSCAN_CUDA_CHECK(cudaMemsetAsync(buffer.data, 0, buffer.bytes, stream));
    buffer.epoch = 0;
  }
  ++buffer.epoch;
  return tile_state_lease{buffer.owner, buffer.data, buffer.bytes, buffer.epoch};
}

}  // namespace pscan::cuda_common
