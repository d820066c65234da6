#pragma once
// pscan::distributed(nccl_communicator, cuda_policy): every algorithm over one GPU per rank. The
// scans and reduce_into exchange rank totals between the GPUs through NCCL, on the local policy's
// stream, with no host synchronisation; the others as the MPI backend does. NVLink multicast
// (NCCL's NVLS) is for the caller's environment to set: pscan's scripts run with it off.

#include <pscan/policies/distributed/distributed.hpp>
#include <pscan/policies/distributed/nccl/communicator.hpp>
#include <pscan/policies/distributed/nccl/policy.hpp>
#include <pscan/policies/distributed/nccl/scan.hpp>
