// The runner of the distributed tests over CPU local policies.
#include "mpi_doctest.hpp"

int main(int argc, char** argv) { return distributed_test::run_on_every_rank(argc, argv); }
