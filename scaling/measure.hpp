#pragma once
// What pscan-scaling measures, for any local policy and memory: the per-call time of an
// inclusive scan of int32 or float (the slowest rank's time, median over the runs), the same call
// on (nearly) empty local ranges (the cross-rank part: the checks, the exchange of rank totals and
// the carry-in), and a check of the result. The GPU part instantiates the same templates with
// device memory.

#include <pscan/distributed.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace scaling {

struct options {
  std::string policy = "seq";              // the local policy, or the single process's policy
  std::string exchange = "mpi";            // distributed: the ranks' communicator (mpi or nccl)
  std::string type = "int32";              // the values: int32 or float
  std::int64_t n = std::int64_t{1} << 24;  // per rank (distributed) or in all (single)
  int threads = 0;  // omp threads of each rank or of the single process; 0: OpenMP's default
  int runs = 20;
};

struct result {
  double median_ms = 0;
  double min_ms = 0;
  double exchange_us = -1;  // the call on empty local ranges; -1: single process
  bool valid = false;
};

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t k = v.size();
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

// Milliseconds of call() then finish() (a stream synchronisation for GPU policies), the slowest
// rank's when comm is not MPI_COMM_NULL: each run starts at a barrier.
template <class Call, class Finish>
std::vector<double> time_runs(MPI_Comm comm, int runs, Call&& call, Finish&& finish) {
  std::vector<double> ms;
  for (int r = -2; r < runs; ++r) {  // two warm-up runs
    if (comm != MPI_COMM_NULL) MPI_Barrier(comm);
    const auto start = std::chrono::steady_clock::now();
    call();
    finish();
    double mine =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    double slowest = mine;
    if (comm != MPI_COMM_NULL) MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (r >= 0) ms.push_back(slowest);
  }
  return ms;
}

// Rank `rank`'s input: 0s and 1s (xorshift64 bits), as V. Throws when the 1s of every rank of
// `comm` (MPI_COMM_NULL: this process alone) reach 2^31: an int32 scan would overflow.
template <class V>
std::vector<V> make_input(std::int64_t n, int rank, MPI_Comm comm) {
  std::vector<V> v(static_cast<std::size_t>(n));
  std::uint64_t x = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(rank + 1);
  long long ones = 0;
  for (auto& e : v) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
    e = static_cast<V>(x & 1);
    ones += static_cast<long long>(x & 1);
  }
  if (comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, &ones, 1, MPI_LONG_LONG, MPI_SUM, comm);
  if (ones > INT32_MAX) {
    throw std::runtime_error("more than 2^31 - 1 ones in all: the int32 prefixes would overflow");
  }
  return v;
}

// Whether out is the inclusive scan of in after `carry` (the sum of everything before): exactly
// for integers; for float within the rounding of sums past 2^24.
template <class V>
bool is_scan_of(const std::vector<V>& in, const std::vector<V>& out, long long carry) {
  for (std::size_t i = 0; i < in.size(); ++i) {
    carry += static_cast<long long>(in[i]);
    const double error = static_cast<double>(out[i]) - static_cast<double>(carry);
    if (std::is_integral_v<V> ? error != 0 : std::abs(error) > 1e-4 * static_cast<double>(carry)) {
      return false;
    }
  }
  return true;
}

// Times the distributed scan `p` of `in` (this rank's range, where the policy's iterators reach
// it) into `out`, and the call on probe_n elements a rank (the cross-rank part: 0 for the MPI
// exchange on the hosts, 1 where the exchange runs on the GPUs only when a rank holds elements);
// download() returns out's contents for the check.
template <class Distributed, class V, class Finish, class Download>
result measure_distributed(const Distributed& p, const V* in, V* out, std::int64_t n,
                           const std::vector<V>& host_in, int runs, std::int64_t probe_n,
                           Finish&& finish, Download&& download) {
  result r;
  const auto ms = time_runs(
      MPI_COMM_WORLD, runs, [&] { pscan::inclusive_scan(p, in, in + n, out); }, finish);
  const auto probe_ms = time_runs(
      MPI_COMM_WORLD, runs, [&] { pscan::inclusive_scan(p, in, in + probe_n, out); }, finish);
  r.median_ms = median(ms);
  r.min_ms = *std::min_element(ms.begin(), ms.end());
  r.exchange_us = 1e3 * median(probe_ms);
  if (probe_n > 0) {  // the probe wrote the first elements: the full call again for the check
    pscan::inclusive_scan(p, in, in + n, out);
    finish();
  }
  long long mine = 0, before = 0;
  for (V v : host_in) mine += static_cast<long long>(v);
  MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int valid = is_scan_of(host_in, download(), rank == 0 ? 0 : before) ? 1 : 0;
  int all_valid = 0;
  MPI_Allreduce(&valid, &all_valid, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  r.valid = all_valid == 1;
  return r;
}

// The same scan in one process over the whole input.
template <class Policy, class V, class Finish, class Download>
result measure_single(const Policy& policy, const V* in, V* out, std::int64_t n,
                      const std::vector<V>& host_in, int runs, Finish&& finish,
                      Download&& download) {
  result r;
  const auto ms = time_runs(
      MPI_COMM_NULL, runs, [&] { pscan::inclusive_scan(policy, in, in + n, out); }, finish);
  r.median_ms = median(ms);
  r.min_ms = *std::min_element(ms.begin(), ms.end());
  r.valid = is_scan_of(host_in, download(), 0);
  return r;
}

}  // namespace scaling
