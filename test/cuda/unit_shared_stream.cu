// Host threads sharing one stream, as CUDA allows: 8 threads, one non-blocking stream made once,
// each thread copying its own input in, calling one algorithm and copying the result back, all
// stream-ordered, then synchronising the stream. The launches of calls from different threads
// interleave on the stream (A1, B1, A2, B2 ...), so a call that makes several launches or a
// memset must hold scratch no concurrent call touches. Every algorithm, on every CUDA policy, at
// random sizes on both sides of the one-block, cluster and multi-level thresholds (1 to 2^21),
// int64 values, each result against a host loop.

#include "conformance/reference.hpp"
#include "conformance/segments.hpp"
#include "device_fixture.cuh"
#include "stream_support.cuh"

#include <pscan/pscan.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

using conformance::device_buffer;
using conformance::random_source;

constexpr int threads = 8;
constexpr int calls_per_thread = 30;
constexpr std::int64_t largest = std::int64_t{1} << 21;

struct times_three_plus_one {
  __host__ __device__ std::int64_t operator()(std::int64_t x) const { return 3 * x + 1; }
};

// Sizes log-uniform over 1 .. 2^21, so that small (one-block) and large (multi-level, many
// tiles) calls meet on the stream.
std::int64_t random_size(random_source& random) {
  const int bits = static_cast<int>(random.between(0, 21));
  const std::int64_t low = std::int64_t{1} << bits >> 1;
  return std::max<std::int64_t>(1, random.between(low, std::min(largest, std::int64_t{1} << bits)));
}

// One thread's buffers (made before the threads start: cudaMalloc may wait for the device) and
// its calls. Copies are stream-ordered on the shared stream; results come back after a
// cudaStreamSynchronize of it, as a user's code would do.
template <class Policy>
class worker {
 public:
  worker(const Policy& p, cudaStream_t stream, std::uint64_t seed)
      : p_(p), stream_(stream), random_(seed), values_(largest), out_(largest), keys_(largest),
        flags_(largest), offsets_(largest + 1), run_keys_(largest), run_count_(1) {}

  // Runs the calls; returns a description of each wrong result.
  std::vector<std::string> run() {
    std::vector<std::string> failures;
    for (int call = 0; call < calls_per_thread; ++call) {
      const std::int64_t n = random_size(random_);
      const std::string algorithm = one_call(call % algorithms, n);
      if (!algorithm.empty()) failures.push_back(algorithm + " at n = " + std::to_string(n));
    }
    return failures;
  }

 private:
  static constexpr int algorithms = 15;

  template <class T>
  void put(device_buffer<T>& buffer, const std::vector<T>& host) {
    PSCAN_CUDA_CHECK(cudaMemcpyAsync(buffer.begin(), host.data(), host.size() * sizeof(T),
                                     cudaMemcpyHostToDevice, stream_));
  }
  template <class T>
  std::vector<T> get(const device_buffer<T>& buffer, std::size_t count) {
    std::vector<T> host(count);
    PSCAN_CUDA_CHECK(cudaMemcpyAsync(host.data(), buffer.begin(), count * sizeof(T),
                                     cudaMemcpyDeviceToHost, stream_));
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return host;
  }

  // Algorithm `which` over n fresh values; returns its name if the result is wrong.
  std::string one_call(int which, std::int64_t n) {
    using namespace conformance;
    const auto count = static_cast<std::size_t>(n);
    std::vector<std::int64_t> values(count);
    for (auto& v : values) v = random_.between(-1000000, 1000000);
    const std::int64_t init = random_.between(-100, 100);
    const pscan::plus<> add{};
    put(values_, values);
    const std::int64_t* first = values_.begin();
    const std::int64_t* last = first + n;
    const auto scanned = [&](const char* name, std::vector<std::int64_t> expected) {
      return get(out_, count) == expected ? std::string() : std::string(name);
    };
    // Heads at a rate of 1/16, as flags and as keys; offsets with segments of 0 to 99 elements.
    const auto uploaded_flags = [&] {
      auto flags = make_head_flags(random_, n, 16);
      put(flags_, flags);
      return heads_from_flags(flags);
    };
    const auto uploaded_keys = [&] {
      auto keys = make_keys(random_, n, 16);
      put(keys_, keys);
      return keys;
    };
    const auto uploaded_offsets = [&] {
      std::vector<std::int64_t> offsets{0};
      while (offsets.back() < n) {
        offsets.push_back(std::min(n, offsets.back() + random_.between(0, 99)));
      }
      put(offsets_, offsets);
      return offsets;
    };
    const auto transformed = [&] {
      std::vector<std::int64_t> t(count);
      std::transform(values.begin(), values.end(), t.begin(), times_three_plus_one{});
      return t;
    };
    switch (which) {
      case 0:
        pscan::inclusive_scan(p_, first, last, out_.begin());
        return scanned("inclusive_scan", expected_inclusive_scan(values, add));
      case 1:
        pscan::exclusive_scan(p_, first, last, out_.begin(), init);
        return scanned("exclusive_scan", expected_exclusive_scan(values, init, add));
      case 2:
        pscan::transform_inclusive_scan(p_, first, last, out_.begin(), add, times_three_plus_one{},
                                        init);
        return scanned("transform_inclusive_scan",
                       expected_inclusive_scan(transformed(), add, init));
      case 3:
        pscan::transform_exclusive_scan(p_, first, last, out_.begin(), init, add,
                                        times_three_plus_one{});
        return scanned("transform_exclusive_scan",
                       expected_exclusive_scan(transformed(), init, add));
      case 4:
        return pscan::reduce(p_, first, last, init) == expected_reduce(values, init, add)
                   ? std::string()
                   : "reduce";
      case 5:
        pscan::reduce_into(p_, first, last, out_.begin(), init);
        return get(out_, 1)[0] == expected_reduce(values, init, add) ? std::string()
                                                                     : "reduce_into";
      case 6:
        return pscan::transform_reduce(p_, first, last, init, add, times_three_plus_one{}) ==
                       expected_reduce(transformed(), init, add)
                   ? std::string()
                   : "transform_reduce";
      case 7: {
        const auto heads = uploaded_flags();
        pscan::segmented_inclusive_scan(p_, first, last, flags_.begin(), out_.begin());
        return scanned("segmented_inclusive_scan",
                       expected_segmented_inclusive_scan(values, heads, add));
      }
      case 8: {
        const auto heads = uploaded_flags();
        pscan::segmented_exclusive_scan(p_, first, last, flags_.begin(), out_.begin(), init);
        return scanned("segmented_exclusive_scan",
                       expected_segmented_exclusive_scan(values, heads, init, add));
      }
      case 9: {
        const auto heads = heads_from_keys(uploaded_keys(), pscan::equal_to<>{});
        pscan::inclusive_scan_by_key(p_, keys_.begin(), keys_.begin() + n, first, out_.begin());
        return scanned("inclusive_scan_by_key",
                       expected_segmented_inclusive_scan(values, heads, add));
      }
      case 10: {
        const auto heads = heads_from_keys(uploaded_keys(), pscan::equal_to<>{});
        pscan::exclusive_scan_by_key(p_, keys_.begin(), keys_.begin() + n, first, out_.begin(),
                                     init);
        return scanned("exclusive_scan_by_key",
                       expected_segmented_exclusive_scan(values, heads, init, add));
      }
      case 11: {
        const auto offsets = uploaded_offsets();
        pscan::inclusive_scan_by_offsets(p_, first, offsets_.begin(),
                                         offsets_.begin() + offsets.size(), out_.begin());
        return scanned("inclusive_scan_by_offsets",
                       expected_scan_by_offsets<false>(values, offsets, values, init, add));
      }
      case 12: {
        const auto offsets = uploaded_offsets();
        pscan::exclusive_scan_by_offsets(p_, first, offsets_.begin(),
                                         offsets_.begin() + offsets.size(), out_.begin(), init);
        return scanned("exclusive_scan_by_offsets",
                       expected_scan_by_offsets<true>(values, offsets, values, init, add));
      }
      case 13: {
        const auto offsets = uploaded_offsets();
        pscan::segmented_reduce(p_, first, offsets_.begin(), offsets_.begin() + offsets.size(),
                                out_.begin(), init);
        const auto expected = expected_segmented_reduce(values, offsets, init, add);
        return get(out_, expected.size()) == expected ? std::string() : "segmented_reduce";
      }
      default: {
        const auto keys = uploaded_keys();
        const auto runs = expected_runs(keys, values, add, pscan::equal_to<>{});
        const bool into = random_.one_in(2);
        std::size_t count_of_runs = 0;
        if (into) {
          pscan::reduce_by_key_into(p_, keys_.begin(), keys_.begin() + n, first,
                                    run_keys_.begin(), out_.begin(), run_count_.begin());
          count_of_runs = static_cast<std::size_t>(get(run_count_, 1)[0]);
        } else {
          const auto ends = pscan::reduce_by_key(p_, keys_.begin(), keys_.begin() + n, first,
                                                 run_keys_.begin(), out_.begin());
          count_of_runs = static_cast<std::size_t>(ends.first - run_keys_.begin());
        }
        const char* name = into ? "reduce_by_key_into" : "reduce_by_key";
        if (count_of_runs != runs.first.size()) return name;
        const bool right = get(run_keys_, count_of_runs) == runs.first &&
                           get(out_, count_of_runs) == runs.second;
        return right ? std::string() : std::string(name);
      }
    }
  }

  Policy p_;
  cudaStream_t stream_;
  random_source random_;
  device_buffer<std::int64_t> values_, out_;
  device_buffer<std::int32_t> keys_;
  device_buffer<std::uint8_t> flags_;
  device_buffer<std::int64_t> offsets_;
  device_buffer<std::int32_t> run_keys_;
  device_buffer<std::int64_t> run_count_;
};

}  // namespace

TEST_CASE_TEMPLATE("host threads sharing one stream get right results from every algorithm", F,
                   CUDA_FIXTURES) {
  CONFORMANCE_SEEDED_RANDOM(random);
  const conformance::owned_stream shared;
  const auto p = F::policy().on(shared.get());
  std::vector<worker<std::decay_t<decltype(p)>>> workers;
  workers.reserve(threads);
  for (int t = 0; t < threads; ++t) workers.emplace_back(p, shared.get(), random.next());
  PSCAN_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<std::vector<std::string>> failures(threads);
  std::vector<std::string> errors(threads);
  {
    std::vector<std::thread> running;
    for (int t = 0; t < threads; ++t) {
      running.emplace_back([&, t] {
        try {
          failures[t] = workers[t].run();
        } catch (const std::exception& e) {
          errors[t] = e.what();
        }
      });
    }
    for (auto& thread : running) thread.join();
  }
  for (int t = 0; t < threads; ++t) {
    CAPTURE(t);
    CHECK_MESSAGE(errors[t].empty(), errors[t]);
    for (const std::string& failure : failures[t]) FAIL_CHECK("wrong result: ", failure);
  }
}
