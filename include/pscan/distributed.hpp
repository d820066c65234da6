#pragma once
// pscan::distributed(comm, local): every algorithm over the ranks of an MPI communicator (and,
// where pscan was built with NCCL, over one GPU a rank in files nvcc compiles). A component of
// its own, so that only its users link MPI: link the CMake target pscan::distributed (which links
// pscan::pscan and MPI) and include this header.

#include <pscan/pscan.hpp>

#if !defined(PSCAN_HAS_DISTRIBUTED)
#error "pscan::distributed: link the CMake target pscan::distributed (pscan built with MPI)"
#endif

#include <pscan/distributed_backends.hpp>
