// pscan-scaling: scaling of pscan::distributed. Under mpirun (`ranks`), each rank scans its own n
// values with the local policy, the rank totals crossing through MPI on the hosts or, with
// `--exchange nccl`, through NCCL between GPUs (one a rank); alone (`single`), one process scans
// n values with a policy, for the comparison (omp with as many threads as there were ranks, or
// one GPU). Prints one CSV row:
// mode,policy,ranks,threads,n_per_rank,n_total,median_ms,min_ms,exchange_us,valid,type,exchange
// (scripts/scaling gathers the rows into tables). Exits 1 when the result is wrong.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_runs.hpp"
#include "measure.hpp"

namespace {

using scaling::options;
using scaling::result;

template <class V, class Policy>
result run_host(const Policy& policy, const options& o, bool distributed, int rank) {
  const std::vector<V> in =
      scaling::make_input<V>(o.n, rank, distributed ? MPI_COMM_WORLD : MPI_COMM_NULL);
  std::vector<V> out(in.size());
  const auto nothing = [] {};
  const auto download = [&] { return out; };
  if (distributed) {
    return scaling::measure_distributed(pscan::distributed(MPI_COMM_WORLD, policy), in.data(),
                                        out.data(), o.n, in, o.runs, 0, nothing, download);
  }
  return scaling::measure_single(policy, in.data(), out.data(), o.n, in, o.runs, nothing, download);
}

template <class V>
result run(const options& o, bool distributed, int rank) {
  if (o.policy == "seq") return run_host<V>(pscan::seq, o, distributed, rank);
  if (o.policy == "omp") {
#if defined(_OPENMP)
    return run_host<V>(pscan::omp.threads(o.threads), o, distributed, rank);
#else
    throw std::runtime_error("this build of pscan has no OpenMP policy");
#endif
  }
  return scaling::run_cuda(o, distributed, rank);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pscan-scaling: scaling of pscan::distributed (inclusive_scan)"};
  options o;
  CLI::App* ranks = app.add_subcommand(
      "ranks", "under mpirun: pscan::distributed(<exchange>, <policy>), n elements per rank");
  CLI::App* single = app.add_subcommand("single", "one process: <policy> on n elements");
  for (CLI::App* mode : {ranks, single}) {
    mode->add_option("--policy", o.policy, "seq, omp, cuda_chained or cuda_multipass")
        ->check(CLI::IsMember({"seq", "omp", "cuda_chained", "cuda_multipass"}))
        ->capture_default_str();
    mode->add_option("--type", o.type, "the values: int32 or float")
        ->check(CLI::IsMember({"int32", "float"}))
        ->capture_default_str();
    mode->add_option("--n", o.n, "elements (per rank under `ranks`)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 34))
        ->capture_default_str();
    mode->add_option("--threads", o.threads, "omp threads; 0: OpenMP's default")
        ->check(CLI::NonNegativeNumber);
    mode->add_option("--runs", o.runs, "timed runs (after two warm-up runs)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
  }
  ranks->add_option("--exchange", o.exchange,
                    "mpi (any policy) or nccl (a CUDA policy, one GPU a rank)")
      ->check(CLI::IsMember({"mpi", "nccl"}))
      ->capture_default_str();
  app.require_subcommand(1);
  CLI11_PARSE(app, argc, argv);

  const bool distributed = ranks->parsed();
  int rank = 0, size = 1;
  if (distributed) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  result r;
  try {
    if (o.exchange == "nccl" && o.policy.rfind("cuda", 0) != 0) {
      throw std::runtime_error("--exchange nccl needs a CUDA policy");
    }
    r = o.type == "float" ? run<float>(o, distributed, rank) : run<std::int32_t>(o, distributed, rank);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pscan-scaling: %s\n", e.what());
    if (distributed) MPI_Abort(MPI_COMM_WORLD, 2);
    return 2;
  }
  if (rank == 0) {
    std::printf("%s,%s,%d,%d,%lld,%lld,%.4f,%.4f,%.2f,%s,%s,%s\n", distributed ? "ranks" : "single",
                o.policy.c_str(), size, o.threads, static_cast<long long>(o.n),
                static_cast<long long>(o.n) * size, r.median_ms, r.min_ms, r.exchange_us,
                r.valid ? "yes" : "no", o.type.c_str(), distributed ? o.exchange.c_str() : "none");
  }
  if (distributed) MPI_Finalize();
  return r.valid ? 0 : 1;
}
