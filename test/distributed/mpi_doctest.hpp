#pragma once
// The runner of the MPI test executables, included by the one file that defines main: doctest
// runs on every rank of MPI_COMM_WORLD (rank 0 reports everything, the others only failures) and
// every rank exits with the worst rank's status, so mpirun fails when any rank failed. When any
// rank cannot run the tests (no CUDA device), every rank reports skipped (exit code 77).

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <string>

namespace distributed_test {

// What an executable does around its tests, each step on every rank.
struct rank_setup {
  // After MPI_Init: empty when this rank can run the tests, else the reason it cannot.
  std::function<std::string()> why_not = [] { return std::string(); };
  // When every rank can: collective preparations (an NCCL communicator, say).
  std::function<void()> start = [] {};
  // After the tests, before MPI_Finalize (whether or not they ran).
  std::function<void()> finish = [] {};
};

inline int run_on_every_rank(int argc, char** argv, const rank_setup& setup = {}) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string why_not = setup.why_not();
  const int cannot = why_not.empty() ? 0 : 1;
  int any_cannot = 0;
  MPI_Allreduce(&cannot, &any_cannot, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  int status = 77;
  if (any_cannot == 0) {
    setup.start();
    doctest::Context context(argc, argv);
    if (rank != 0) {
      context.setOption("minimal", true);
      context.setOption("no-colors", true);
    }
    status = context.run();
  } else if (rank == 0 || cannot) {
    std::printf("skipped: %s\n", cannot ? why_not.c_str() : "another rank cannot run the tests");
  }
  setup.finish();
  int worst = 0;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}

}  // namespace distributed_test
