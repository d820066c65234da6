// The per-(device, stream, layout) call scratch buffers of pscan/runtime/scratch_cache.cuh: the
// idle ones in a list per key; a call holds its buffer outside the list until its lease ends.
// One host thread calling on a stream reuses one buffer; each thread enqueueing on it at the same
// time holds another.
// Streams are keyed by cudaStreamGetId, unique for the life of the process, so a stream created
// after another was destroyed never inherits its buffer (the old work may still be running).
// The cache lives until the process exits (deliberately leaked: CUDA may be torn down first).
// Buffers come from libpscan's device pool (memory_pool.cu), so that release_device_pool, which
// drops a device's buffers here, and limit_device_pool cover them.

#include <pscan/runtime/check.cuh>
#include <pscan/runtime/memory_pool.cuh>
#include <pscan/runtime/scratch_cache.cuh>

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pscan::runtime {
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

}  // namespace

// The buffers of one key that no call holds. `dropped`: release_device_pool took the key out of
// the cache, so a buffer given back now is freed instead.
struct stream_buffers {
  std::vector<cached_buffer> idle;
  bool dropped = false;
};

namespace {

struct cache {
  std::mutex mutex;
  std::unordered_map<stream_key, std::shared_ptr<stream_buffers>, stream_key_hash> streams;
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

scratch_lease lease_scratch(cudaStream_t stream, std::size_t bytes, int layout) {
  stream_key key{};
  key.layout = layout;
  PSCAN_CUDA_CHECK(cudaGetDevice(&key.device));
  PSCAN_CUDA_CHECK(cudaStreamGetId(stream, &key.stream_id));

  cache& c = the_cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  std::shared_ptr<stream_buffers>& home = c.streams[key];
  if (home == nullptr) home = std::make_shared<stream_buffers>();
  // The last idle buffer large enough, else the last one grown (the smaller one's memory goes
  // once nothing holds it, after the work queued on its stream).
  std::vector<cached_buffer>& idle = home->idle;
  cached_buffer buffer;
  if (!idle.empty()) {
    auto fits = std::find_if(idle.rbegin(), idle.rend(),
                             [&](const cached_buffer& b) { return b.bytes >= bytes; });
    auto taken = fits == idle.rend() ? idle.end() - 1 : std::next(fits).base();
    buffer = std::move(*taken);
    idle.erase(taken);
  }
  if (buffer.bytes < bytes) {
    buffer = allocate_cleared(stream, grown_size(bytes));
  } else if (buffer.epoch == max_scratch_epoch) {
    PSCAN_CUDA_CHECK(cudaMemsetAsync(buffer.data, 0, buffer.bytes, stream));
    buffer.epoch = 0;
  }
  ++buffer.epoch;
  return scratch_lease(home, std::move(buffer.block), buffer.data, buffer.bytes, buffer.epoch);
}

void scratch_lease::give_back() noexcept {
  if (home_ == nullptr) return;
  std::shared_ptr<device_block> block = std::static_pointer_cast<device_block>(std::move(block_));
  {
    const std::lock_guard<std::mutex> lock(the_cache().mutex);
    if (!home_->dropped) {
      try {
        home_->idle.push_back(cached_buffer{std::move(block), data_, bytes_, epoch_});
      } catch (...) {
        // No room in the list: the memory goes, after the work queued on its stream.
      }
    }
  }
  home_.reset();
}  // a block left unlisted (dropped) goes here, outside the lock: freed on its stream

void drop_cached_scratch() {
  int device = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  // First a wait that may fail (a stream capturing a graph, an earlier error) before anything
  // changes.
  PSCAN_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<std::shared_ptr<device_block>> idle;
  {
    cache& c = the_cache();
    const std::lock_guard<std::mutex> lock(c.mutex);
    for (auto it = c.streams.begin(); it != c.streams.end();) {
      if (it->first.device != device) {
        ++it;
        continue;
      }
      // Leases are only taken and given back under the lock: an idle buffer is in no call, and
      // the work of its last call was queued before now. A buffer a call holds is freed on its
      // (live) stream when that call gives it back.
      it->second->dropped = true;
      for (cached_buffer& buffer : it->second->idle) idle.push_back(std::move(buffer.block));
      it->second->idle.clear();
      it = c.streams.erase(it);
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

}  // namespace pscan::runtime
