// cuda_common::host_result, the zero-copy path by which both CUDA reduces return their value: many
// reduces in a row from several host threads (both policies publishing into each thread's one
// slot), value types of 1 to 24 bytes with a non-commutative operator, one thread switching types
// (and outgrowing its first slot), a wait longer than the stream poll, a stream that drains
// without a result (throws, never hangs), and reduce on a stream capturing a graph.

#include "device_fixture.cuh"

#include <pscan/policies/cuda_common/runtime/host_result.cuh>
#include <pscan/pscan.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

using conformance::device_buffer;
using conformance::random_source;

// x -> w[0]*x + w[1] over W, wrapping (w[0] odd: maps never collapse); further words count.
template <class W, int Words, std::size_t Align = alignof(W)>
struct alignas(Align) affine_map {
  W w[Words];
};
// The same over 4 bits: a in the high nibble, b in the low one.
struct nibble_map {
  std::uint8_t ab;
};

using map1 = nibble_map;
using map4 = affine_map<std::uint16_t, 2>;
using map8 = affine_map<std::uint32_t, 2>;
using map12 = affine_map<std::uint32_t, 3>;
using map16 = affine_map<std::uint64_t, 2, 16>;  // its value sits 16 bytes into the slot
using map24 = affine_map<std::uint64_t, 3>;
using map264 = affine_map<std::uint64_t, 33>;  // more than a first slot holds: the slot grows
static_assert(sizeof(map1) == 1 && sizeof(map4) == 4 && sizeof(map8) == 8 && sizeof(map12) == 12 &&
              sizeof(map16) == 16 && sizeof(map24) == 24 && sizeof(map264) == 264);

// "f then g": not commutative, so any value combined out of order shows.
struct then {
  template <class W, int Words, std::size_t Align>
  __host__ __device__ affine_map<W, Words, Align> operator()(
      const affine_map<W, Words, Align>& f, const affine_map<W, Words, Align>& g) const {
    // Products in unsigned at least: uint16_t operands would be promoted to (overflowing) int.
    using wide = std::conditional_t<(sizeof(W) < sizeof(unsigned)), unsigned, W>;
    affine_map<W, Words, Align> r;
    r.w[0] = static_cast<W>(wide{g.w[0]} * f.w[0]);
    r.w[1] = static_cast<W>(wide{g.w[0]} * f.w[1] + g.w[1]);
    for (int k = 2; k < Words; ++k) r.w[k] = static_cast<W>(f.w[k] + g.w[k]);
    return r;
  }
  __host__ __device__ nibble_map operator()(nibble_map f, nibble_map g) const {
    const unsigned fa = f.ab >> 4, fb = f.ab & 15u, ga = g.ab >> 4, gb = g.ab & 15u;
    return {static_cast<std::uint8_t>(((ga * fa) & 15u) << 4 | ((ga * fb + gb) & 15u))};
  }
};

template <class T>
T random_map(random_source& random) {
  T t;
  if constexpr (std::is_same_v<T, nibble_map>) {
    t.ab = static_cast<std::uint8_t>((random.next() & 0xE0u) | 0x10u | (random.next() & 15u));
  } else {
    using W = std::remove_extent_t<decltype(t.w)>;
    t.w[0] = static_cast<W>(random.next() | 1u);
    t.w[1] = static_cast<W>(random.next());
    for (std::size_t k = 2; k < std::extent_v<decltype(t.w)>; ++k) {
      t.w[k] = static_cast<W>(random.between(0, 3));
    }
  }
  return t;
}

template <class T>
std::vector<T> random_maps(random_source& random, std::int64_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& t : v) t = random_map<T>(random);
  return v;
}

template <class T>
bool same(const T& x, const T& y) {
  return std::memcmp(&x, &y, sizeof(T)) == 0;
}

// f(name, policy on `stream`) for every CUDA policy built in.
template <class F>
void for_each_cuda_policy([[maybe_unused]] cudaStream_t stream, [[maybe_unused]] F&& f) {
#if PSCAN_TEST_CUDA_MULTIPASS
  f("cuda_multipass", pscan::cuda_multipass.on(stream));
#endif
#if PSCAN_TEST_CUDA_CHAINED
  f("cuda_chained", pscan::cuda_chained.on(stream));
#endif
}

// Every CUDA policy's reduce of host[offset, offset + n) (on the device in `device`) on
// `stream`, checked against a host loop; a message per wrong result.
template <class T>
std::string wrong_reduces(cudaStream_t stream, const device_buffer<T>& device,
                          const std::vector<T>& host, std::int64_t offset, std::int64_t n,
                          const T& init) {
  T want = init;
  for (std::int64_t i = offset; i < offset + n; ++i) want = then{}(want, host[i]);
  std::string wrong;
  const auto check = [&](const char* name, const auto& policy) {
    const T* first = device.begin() + offset;
    if (!same(pscan::reduce(policy, first, first + n, init, then{}), want)) {
      wrong += std::string(name) + ": wrong reduce of " + std::to_string(sizeof(T)) +
               "-byte values, offset " + std::to_string(offset) + ", n " + std::to_string(n) + "\n";
    }
  };
  for_each_cuda_policy(stream, check);
  return wrong;
}

// One host thread's run: `calls` reduces in a row on `stream`, mostly small (launch-bound, the
// slot turning over fast), some up to 2^21 elements (PSCAN_TEST_MAX_N caps them), at random
// offsets or aligned. Never throws: failures go to `failures`.
template <class T>
void reduce_many(cudaStream_t stream, std::uint64_t seed, int calls, std::string& failures) {
  try {
    random_source random(seed);
    const std::int64_t capacity =
        std::min((std::int64_t{1} << 21) + 77, std::max<std::int64_t>(conformance::size_cap(), 1));
    const auto host = random_maps<T>(random, capacity);
    device_buffer<T> device(capacity);
    PSCAN_CUDA_CHECK(cudaMemcpyAsync(device.begin(), host.data(), capacity * sizeof(T),
                              cudaMemcpyHostToDevice, stream));
    for (int call = 0; call < calls; ++call) {
      const std::int64_t scale = call % 10 == 9 ? capacity : call % 3 == 2 ? 100000 : 3000;
      const std::int64_t n = random.between(0, std::min(scale, capacity) - 1);
      const std::int64_t offset = call % 4 == 0 ? 0 : random.between(0, capacity - n);
      failures += wrong_reduces(stream, device, host, offset, n, random_map<T>(random));
    }
  } catch (const std::exception& e) {
    failures += std::string("exception: ") + e.what() + "\n";
  }
}

// Reduces of a fresh random input of T on `stream`; a message per wrong result.
template <class T>
std::string wrong_small_reduces(cudaStream_t stream, random_source& random) {
  const std::int64_t n = random.between(1, 20000);
  const auto host = random_maps<T>(random, n);
  device_buffer<T> device(n);
  PSCAN_CUDA_CHECK(
      cudaMemcpyAsync(device.begin(), host.data(), n * sizeof(T), cudaMemcpyHostToDevice, stream));
  return wrong_reduces(stream, device, host, 0, n, random_map<T>(random));
}

// Publishes `value` once the GPU's clock has run `delay_ns` past the start, if `publish`.
template <class T>
__global__ void publish_after(pscan::cuda_common::host_result<T> result, T value,
                              std::uint64_t delay_ns, bool publish) {
  const auto now = [] {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
  };
  const std::uint64_t start = now();
  while (now() - start < delay_ns) __nanosleep(1000);
  if (publish) result.publish(value);
}

cudaStream_t new_stream() {
  cudaStream_t stream = nullptr;
  PSCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return stream;
}

}  // namespace

TEST_CASE_TEMPLATE("many reduces in a row from several host threads", T, map1, map4, map8, map12,
                   map16, map24) {
  CONFORMANCE_SEEDED_RANDOM(random);
  // The legacy and per-thread default streams (special handles for cudaStreamQuery) and two
  // ordinary streams.
  std::vector<cudaStream_t> streams{nullptr, cudaStreamPerThread, new_stream(), new_stream()};
  std::vector<std::string> failures(streams.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < streams.size(); ++t) {
    threads.emplace_back(reduce_many<T>, streams[t], random.next(), 60, std::ref(failures[t]));
  }
  for (auto& thread : threads) thread.join();
  for (std::size_t t = 0; t < streams.size(); ++t) {
    INFO("thread ", t);
    CHECK(failures[t] == "");
  }
  PSCAN_CUDA_CHECK(cudaStreamDestroy(streams[2]));
  PSCAN_CUDA_CHECK(cudaStreamDestroy(streams[3]));
}

TEST_CASE("one thread switching value types, one of them larger than its first slot") {
  CONFORMANCE_SEEDED_RANDOM(random);
  const cudaStream_t stream = conformance::test_stream();
  for (int round = 0; round < 8; ++round) {
    INFO("round ", round);
    std::string wrong;
    wrong += wrong_small_reduces<map24>(stream, random);
    wrong += wrong_small_reduces<map1>(stream, random);
    wrong += wrong_small_reduces<map16>(stream, random);
    wrong += wrong_small_reduces<map264>(stream, random);
    wrong += wrong_small_reduces<map4>(stream, random);
    wrong += wrong_small_reduces<map12>(stream, random);
    wrong += wrong_small_reduces<map8>(stream, random);
    CHECK(wrong == "");
  }
}

TEST_CASE("a result published long after the launch, and a stream that drains without one") {
  CONFORMANCE_SEEDED_RANDOM(random);
  const cudaStream_t stream = conformance::test_stream();
  constexpr std::uint64_t delay_ns = 3'000'000;  // many stream polls
  const map24 value = random_map<map24>(random);
  {
    const auto result = pscan::cuda_common::host_result<map24>::acquire();
    publish_after<<<1, 1, 0, stream>>>(result, value, delay_ns, true);
    PSCAN_CUDA_CHECK(cudaGetLastError());
    CHECK(same(result.wait(stream), value));
  }
  {
    const auto result = pscan::cuda_common::host_result<map24>::acquire();
    publish_after<<<1, 1, 0, stream>>>(result, value, delay_ns, false);
    PSCAN_CUDA_CHECK(cudaGetLastError());
    std::string error;
    try {
      result.wait(stream);
    } catch (const std::logic_error& e) {
      error = e.what();
    }
    CHECK(error.find("internal error") != std::string::npos);
  }
  // That call retired its slot; the next ones take a fresh one.
  CHECK(wrong_small_reduces<map24>(stream, random) == "");
  CHECK(wrong_small_reduces<map8>(stream, random) == "");
}

TEST_CASE("reduce on a stream capturing a graph throws and leaves the capture intact") {
  CONFORMANCE_SEEDED_RANDOM(random);
  const cudaStream_t stream = new_stream();
  constexpr std::int64_t n = 5000;
  const auto host = random_maps<map8>(random, n);
  device_buffer<map8> device(n);
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(device.begin(), host.data(), n * sizeof(map8),
                                   cudaMemcpyHostToDevice, stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto check = [&](const char* name, const auto& policy) {
    INFO(name);
    PSCAN_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    CHECK_THROWS_AS(pscan::reduce(policy, device.begin(), device.end(), host[0], then{}),
                    pscan::invalid_argument);
    cudaGraph_t graph = nullptr;
    CHECK(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
    if (graph != nullptr) PSCAN_CUDA_CHECK(cudaGraphDestroy(graph));
    CHECK(wrong_reduces(stream, device, host, 0, n, host[0]) == "");
  };
  for_each_cuda_policy(stream, check);
  PSCAN_CUDA_CHECK(cudaStreamDestroy(stream));
}
