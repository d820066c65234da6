// pscan::omp on a loaded machine: with a busy thread of the lowest priority on every core (made
// here, for a few seconds at most), a call must still finish within a generous multiple of
// pscan::seq's time. A scheduler that waits for threads the system has not run (a parallel
// region's join) took hundreds of times seq's time there; this fails long before that.

#include <pscan/pscan.hpp>

#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

// One busy thread a core at nice 19, stopped by its destructor or after `limit`, whichever first.
class background_load {
 public:
  explicit background_load(std::chrono::seconds limit) {
    const auto until = clock_type::now() + limit;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < cores; ++i) {
      threads_.emplace_back([this, until] {
        setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 19);
        while (!stop_.load(std::memory_order_relaxed) && clock_type::now() < until) {
        }
      });
    }
  }
  ~background_load() {
    stop_.store(true);
    for (std::thread& t : threads_) t.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

// The median of `runs` timed calls of f, in milliseconds.
template <class F>
double median_ms(int runs, F&& f) {
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const auto start = clock_type::now();
    f();
    times.push_back(std::chrono::duration<double, std::milli>(clock_type::now() - start).count());
  }
  std::nth_element(times.begin(), times.begin() + runs / 2, times.end());
  return times[static_cast<std::size_t>(runs / 2)];
}

// omp's time against seq's for one call shape under the load: call(policy) runs it once.
template <class Call>
void check_within_seq_multiple(const char* name, std::int64_t n, Call&& call) {
  // Generous: a loaded 2-core CI machine times noisily; the failure this catches is 100x.
  constexpr double multiple = 10.0;
  constexpr double slack_ms = 1.0;
  const double seq_ms = median_ms(5, [&] { call(pscan::seq); });
  const double omp_ms = median_ms(5, [&] { call(pscan::omp); });
  INFO(std::string(name), " n = ", n, ": seq ", seq_ms, " ms, omp ", omp_ms, " ms");
  CHECK(omp_ms <= multiple * seq_ms + slack_ms);
}

}  // namespace

TEST_CASE("omp under a background load stays within a multiple of seq's time") {
  const background_load load(std::chrono::seconds(20));
  for (const std::int64_t n : {std::int64_t{1} << 16, std::int64_t{1} << 20}) {
    std::vector<float> in(static_cast<std::size_t>(n), 1.0f), out(in.size());
    std::vector<std::int64_t> offsets;
    for (std::int64_t i = 0; i < n; i += 1000) offsets.push_back(i);
    offsets.push_back(n);
    check_within_seq_multiple("inclusive_scan", n, [&](const auto& p) {
      pscan::inclusive_scan(p, in.begin(), in.end(), out.begin());
    });
    check_within_seq_multiple("reduce", n, [&](const auto& p) {
      out[0] = pscan::reduce(p, in.begin(), in.end(), 0.0f);
    });
    check_within_seq_multiple("segmented_reduce", n, [&](const auto& p) {
      pscan::segmented_reduce(p, in.begin(), offsets.begin(), offsets.end(), out.begin(), 0.0f);
    });
  }
}
