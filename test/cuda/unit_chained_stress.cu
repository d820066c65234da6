// cuda_chained under load: 8 host threads, each with its own stream, run chained scans of many
// sizes (one-block path and look-back path, packed and split tile state, both look-backs) while
// other kernels occupy part of the GPU; every result is checked against a host loop. Then the
// determinism promise: 50 deterministic float scans of 2^24 values, plain and segmented, bitwise
// identical.

#include "device_fixture.cuh"
#include "stream_support.cuh"
#include "unit_support.cuh"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <exception>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using conformance::random_source;

using unit_support::affine;
using unit_support::affine_then;

using conformance::owned_stream;
using conformance::with_chained_policy;

// Keeps its blocks resident for about `ns` nanoseconds, mostly asleep.
__global__ void occupy(std::uint64_t ns) { conformance::sleep_for_ns(ns); }

// Device memory allocated and freed in stream order (cudaFree would synchronise the device
// and so serialise the threads with the other kernels in flight).
template <class T>
class stream_buffer {
 public:
  stream_buffer(std::size_t size, cudaStream_t stream) : size_(size), stream_(stream) {
    PSCAN_CUDA_CHECK(cudaMallocAsync(&data_, std::max<std::size_t>(size, 1) * sizeof(T), stream));
  }
  stream_buffer(const stream_buffer&) = delete;
  stream_buffer& operator=(const stream_buffer&) = delete;
  ~stream_buffer() { cudaFreeAsync(data_, stream_); }  // a failure here repeats an earlier one
  T* begin() const { return data_; }
  T* end() const { return data_ + size_; }
  std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_;
  cudaStream_t stream_;
};

template <class T>
std::vector<T> download(const stream_buffer<T>& buffer, std::size_t size, cudaStream_t stream) {
  std::vector<T> values(size);
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(values.data(), buffer.begin(), size * sizeof(T),
                            cudaMemcpyDeviceToHost, stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return values;
}

template <class T>
void upload(const std::vector<T>& values, const stream_buffer<T>& buffer, cudaStream_t stream) {
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(buffer.begin(), values.data(), values.size() * sizeof(T),
                            cudaMemcpyHostToDevice, stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream));  // `values` may go away after the call
}

// Keeps half the SMs' block slots busy with other kernels until `stop` is set.
class other_kernels {
 public:
  other_kernels() {
    int sms = 0;
    PSCAN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    thread_ = std::thread([this, sms] {
      while (!stop_) {
        occupy<<<sms / 2, 256, 0, stream_.get()>>>(2'000'000);  // 2 ms
        if (cudaStreamSynchronize(stream_.get()) != cudaSuccess) return;
      }
    });
  }
  ~other_kernels() {
    stop_ = true;
    thread_.join();
  }

 private:
  owned_stream stream_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Host reference: exclusive (init first) or inclusive (with init if has_init).
template <class T, class Op>
std::vector<T> host_scan(const std::vector<T>& in, Op op, bool exclusive, bool has_init, T init) {
  std::vector<T> out(in.size());
  T acc = init;
  bool has = has_init || exclusive;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const T next = has ? op(acc, in[i]) : in[i];
    out[i] = exclusive ? acc : next;
    acc = next;
    has = true;
  }
  return out;
}

// One call of a random form on `stream`; returns a description of the first mismatch, if any.
template <class T, class Op, class Make>
std::string scan_and_check(cudaStream_t stream, random_source& random, std::int64_t n, Op op,
                           Make make) {
  std::vector<T> in(static_cast<std::size_t>(n));
  for (auto& v : in) v = make(random);
  const T init = make(random);
  const int form = static_cast<int>(random.between(0, 2));  // inclusive, with init, exclusive
  const bool in_place = random.one_in(3);
  const bool deterministic = random.one_in(2);
  stream_buffer<T> first(in.size(), stream);
  upload(in, first, stream);
  stream_buffer<T> separate(in_place ? 0 : in.size(), stream);
  T* out = in_place ? first.begin() : separate.begin();
  with_chained_policy(stream, deterministic, [&](const auto& policy) {
    if (form == 0) pscan::inclusive_scan(policy, first.begin(), first.end(), out, op);
    if (form == 1) pscan::inclusive_scan(policy, first.begin(), first.end(), out, op, init);
    if (form == 2) pscan::exclusive_scan(policy, first.begin(), first.end(), out, init, op);
  });
  const auto got = download(in_place ? first : separate, in.size(), stream);
  const auto want = host_scan(in, op, form == 2, form == 1, init);
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!(got[i] == want[i])) {
      return "n = " + std::to_string(n) + ", form " + std::to_string(form) +
             (in_place ? ", in place" : "") + (deterministic ? ", deterministic" : "") +
             ": first mismatch at " + std::to_string(i);
    }
  }
  return {};
}

}  // namespace

TEST_CASE("8 streams of chained scans with other kernels in flight") {
  constexpr int threads = 8;
  constexpr int calls_per_thread = 40;
  const std::int64_t sizes[] = {1,     7,     1000,   4095,    4096,          8193,
                                20000, 65537, 300001, 1 << 20, (1 << 22) + 11};
  const std::uint64_t seed = conformance::fresh_seed();
  INFO("rerun with PSCAN_TEST_SEED=", seed);

  std::vector<std::string> failures(threads);
  other_kernels in_flight;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      try {
        owned_stream stream;
        random_source random(seed + 1000003 * t);
        for (int c = 0; c < calls_per_thread && failures[t].empty(); ++c) {
          const std::int64_t n = sizes[random.between(0, std::int64_t(std::size(sizes)) - 1)];
          if (random.one_in(2)) {
            failures[t] = scan_and_check<std::int32_t>(
                stream.get(), random, n, pscan::plus<std::int32_t>{},
                [](random_source& r) { return static_cast<std::int32_t>(r.between(-1000, 1000)); });
          } else {
            failures[t] = scan_and_check<affine>(
                stream.get(), random, n, affine_then{},
                [](random_source& r) { return unit_support::random_affine(r); });
          }
        }
      } catch (const std::exception& e) {
        failures[t] = std::string("exception: ") + e.what();
      }
    });
  }
  for (auto& w : workers) w.join();
  for (int t = 0; t < threads; ++t) {
    INFO("thread ", t);
    CHECK_MESSAGE(failures[t].empty(), failures[t]);
  }
}

// 50 deterministic float scans of 2^24 values by `scan(policy, in, heads, out)`, half of them
// with other kernels taking SMs (different timing, the same bits); the first checked against a
// double-precision host loop that restarts at every head.
template <class Scan>
void check_bitwise_identical_runs(const std::vector<unsigned char>& head_flags, Scan scan) {
  const std::int64_t n = static_cast<std::int64_t>(head_flags.size());
  CONFORMANCE_SEEDED_RANDOM(random);
  std::vector<float> input(static_cast<std::size_t>(n));
  // Mixed signs and magnitudes: sums round differently under any other association.
  for (float& v : input) {
    v = std::ldexp(static_cast<float>(random.between(-(1 << 23), 1 << 23)),
                   int(random.between(-30, 10)));
  }
  owned_stream stream;
  stream_buffer<float> in(input.size(), stream.get()), out(input.size(), stream.get());
  stream_buffer<unsigned char> heads(head_flags.size(), stream.get());
  upload(input, in, stream.get());
  upload(head_flags, heads, stream.get());
  const auto p = pscan::cuda_chained.on(stream.get()).deterministic();
  std::vector<float> first;
  for (int run = 0; run < 50; ++run) {
    std::optional<other_kernels> in_flight;
    if (run % 2 == 1) in_flight.emplace();
    scan(p, in.begin(), in.end(), heads.begin(), out.begin());
    auto got = download(out, input.size(), stream.get());
    if (run == 0) {
      first = std::move(got);
      continue;
    }
    INFO("run ", run);
    REQUIRE(std::memcmp(got.data(), first.data(), first.size() * sizeof(float)) == 0);
  }
  double sum = 0, magnitude = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (head_flags[i]) sum = magnitude = 0;
    sum += input[i];
    magnitude += std::fabs(input[i]);
    if (std::fabs(first[i] - sum) > 1e-4 * magnitude + 1e-30) {
      FAIL("deterministic scan is off at ", i, ": ", first[i], " vs ", sum);
    }
  }
}

TEST_CASE("deterministic float scans are bitwise identical over 50 runs") {
  check_bitwise_identical_runs(std::vector<unsigned char>(std::size_t{1} << 24),
                               [](const auto& p, auto first, auto last, auto, auto out) {
                                 pscan::inclusive_scan(p, first, last, out);
                               });
}

// A segmented tree look-back may stop at a predecessor that starts a segment: it must still give
// the full tree's bits, whichever predecessors were in when it stopped. Segments of 1 to 2^17
// elements (up to 16 tiles).
TEST_CASE("deterministic segmented float scans are bitwise identical over 50 runs") {
  CONFORMANCE_SEEDED_RANDOM(random);
  std::vector<unsigned char> heads(std::size_t{1} << 24);
  for (std::size_t i = 0; i < heads.size();) {
    heads[i] = 1;
    i += static_cast<std::size_t>(random.between(1, 1 << int(random.between(0, 17))));
  }
  check_bitwise_identical_runs(heads, [](const auto& p, auto first, auto last, auto flags,
                                         auto out) {
    pscan::segmented_inclusive_scan(p, first, last, flags, out);
  });
}
