#pragma once
// What pscan-scaling measures, for any local policy and memory: the per-call time of an
// inclusive scan of int32 (the slowest rank's time, median over the runs), the same call on empty
// local ranges (the cross-rank part alone: the checks, the one MPI_Allgather and the carry-in),
// and a check of the result. The GPU part instantiates the same templates with device memory.

#include <pscan/pscan.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace scaling {

struct options {
  std::string policy = "seq";              // the local policy, or the single process's policy
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

// Rank `rank`'s input: 0s and 1s (xorshift64 bits).
inline std::vector<std::int32_t> make_input(std::int64_t n, int rank) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  std::uint64_t x = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(rank + 1);
  for (auto& e : v) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
    e = static_cast<std::int32_t>(x & 1);
  }
  return v;
}

// Whether out is the inclusive scan of in after `carry` (the sum of everything before).
inline bool is_scan_of(const std::vector<std::int32_t>& in, const std::vector<std::int32_t>& out,
                       std::int64_t carry) {
  for (std::size_t i = 0; i < in.size(); ++i) {
    carry += in[i];
    if (out[i] != carry) return false;
  }
  return true;
}

// Times the distributed scan of `in` (this rank's range, where the policy's iterators reach it)
// into `out`, and the call on empty ranges; download() returns out's contents for the check.
template <class Local, class Finish, class Download>
result measure_distributed(const Local& local, const std::int32_t* in, std::int32_t* out,
                           std::int64_t n, const std::vector<std::int32_t>& host_in, int runs,
                           Finish&& finish, Download&& download) {
  const auto p = pscan::distributed(MPI_COMM_WORLD, local);
  result r;
  const auto ms = time_runs(
      MPI_COMM_WORLD, runs, [&] { pscan::inclusive_scan(p, in, in + n, out); }, finish);
  const auto empty_ms = time_runs(
      MPI_COMM_WORLD, runs, [&] { pscan::inclusive_scan(p, in, in, out); }, finish);
  r.median_ms = median(ms);
  r.min_ms = *std::min_element(ms.begin(), ms.end());
  r.exchange_us = 1e3 * median(empty_ms);
  long long mine = 0, before = 0;
  for (std::int32_t v : host_in) mine += v;
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
template <class Policy, class Finish, class Download>
result measure_single(const Policy& policy, const std::int32_t* in, std::int32_t* out,
                      std::int64_t n, const std::vector<std::int32_t>& host_in, int runs,
                      Finish&& finish, Download&& download) {
  result r;
  const auto ms = time_runs(
      MPI_COMM_NULL, runs, [&] { pscan::inclusive_scan(policy, in, in + n, out); }, finish);
  r.median_ms = median(ms);
  r.min_ms = *std::min_element(ms.begin(), ms.end());
  r.valid = is_scan_of(host_in, download(), 0);
  return r;
}

}  // namespace scaling
