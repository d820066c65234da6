#pragma once
// pscan::distributed(comm, local): every algorithm over the ranks of an MPI communicator. The
// global sequence is the ranks' local ranges concatenated in rank order; each rank receives its
// slice of the result (reduce: every rank the value). The local policy does the local work; a few
// bytes per rank cross in one MPI_Allgather per call (exchange.hpp).

#include "policy.hpp"
#include "reduce.hpp"
#include "reduce_by_key.hpp"
#include "scan.hpp"
#include "scan_by_offsets.hpp"
#include "segmented_reduce.hpp"
#include "segmented_scan.hpp"
