// The per-(device, stream) tile-state buffers of policies/cuda_common/runtime/tile_state_cache.cuh.
// Streams are keyed by cudaStreamGetId, unique for the life of the process, so a stream created
// after another was destroyed never inherits its buffer (the old work may still be running).
// The cache lives until the process exits (deliberately leaked: CUDA may be torn down first).
// Buffers come from libpscan's device pool (memory_pool.cu), so that release_device_pool, which
// drops a device's buffers here, and limit_device_pool cover them.

#include <cuda_common/check.cuh>
#include <cuda_common/runtime/temporary.cuh>
#include <cuda_common/runtime/tile_state_cache.cuh>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

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

// A buffer's memory, freed when its last owner (the cache, a call's lease) lets go: on the stream
// it serves, after the work queued there; at once when `finished` (no work on the device uses it
// any more: the stream's handle may be stale by then); never when `leaked`.
struct device_block {
  void* data = nullptr;
  cudaStream_t stream = nullptr;
  bool finished = false;
  bool leaked = false;
  device_block(void* d, cudaStream_t s) : data(d), stream(s) {}
  device_block(const device_block&) = delete;
  device_block& operator=(const device_block&) = delete;
  // A failed free cannot be reported from a destructor; the memory stays with the pool.
  ~device_block() {
    if (leaked) return;
    const cudaError_t status = finished ? cudaFree(data) : cudaFreeAsync(data, stream);
    if (status != cudaSuccess) static_cast<void>(cudaGetLastError());
  }
};

struct cached_buffer {
  std::shared_ptr<device_block> block;
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

// Zeroed device memory from libpscan's pool, freed on `stream` (after the work queued there) when
// the last owner lets go.
cached_buffer allocate_cleared(cudaStream_t stream, std::size_t bytes) {
  void* p = allocate_from_device_pool(bytes, stream);
  std::shared_ptr<device_block> block;
  try {
    block = std::make_shared<device_block>(p, stream);
  } catch (...) {
    static_cast<void>(cudaFreeAsync(p, stream));
    throw;
  }
  PSCAN_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, stream));
  return cached_buffer{std::move(block), p, bytes, 0};
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
  return tile_state_lease{std::shared_ptr<void>(buffer.block, buffer.data), buffer.data,
                          buffer.bytes, buffer.epoch};
}

void drop_cached_tile_states() {
  int device = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  // First a wait that may fail (a stream capturing a graph, an earlier error) before anything
  // changes.
  PSCAN_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<std::shared_ptr<device_block>> idle;
  {
    cache& c = the_cache();
    const std::lock_guard<std::mutex> lock(c.mutex);
    for (auto it = c.buffers.begin(); it != c.buffers.end();) {
      if (it->first.device != device) {
        ++it;
        continue;
      }
      // Leases are only taken under the lock: a block the cache alone holds is in no call, and
      // the work of its last call was queued before now. A block a call holds is freed on its
      // (live) stream when that call lets go.
      if (it->second.block.use_count() == 1) idle.push_back(std::move(it->second.block));
      it = c.buffers.erase(it);
    }
  }
  // The work queued before the blocks were taken out, finished; their memory back to the pool
  // at once (their streams may have been destroyed since).
  const cudaError_t waited = cudaDeviceSynchronize();
  for (const auto& block : idle) {
    if (waited == cudaSuccess) {
      block->finished = true;
    } else {
      block->leaked = true;  // in use, maybe, and no stream known to order a free after it
    }
  }
  idle.clear();
  PSCAN_CUDA_CHECK(waited);
}

}  // namespace pscan::cuda_common
