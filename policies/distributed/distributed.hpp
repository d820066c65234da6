#pragma once
// pscan::distributed(comm, local): every algorithm over the ranks of an MPI communicator. The
// global sequence is the ranks' local ranges concatenated in rank order; each rank receives its
// slice of the result (reduce: every rank the value). The local policy does the local work; a few
// bytes per rank cross in one MPI_Allgather per call (exchange.hpp).

#include <pscan/policies/distributed/policy.hpp>
#include <pscan/policies/distributed/reduce.hpp>
#include <pscan/policies/distributed/reduce_by_key.hpp>
#include <pscan/policies/distributed/scan.hpp>
#include <pscan/policies/distributed/scan_by_offsets.hpp>
#include <pscan/policies/distributed/segmented_reduce.hpp>
#include <pscan/policies/distributed/segmented_scan.hpp>
