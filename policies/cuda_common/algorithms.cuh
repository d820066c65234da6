#pragma once
// Every algorithm of the CUDA policies: each file of cuda_common/algorithms/ is an algorithm's
// host side, which runs with the kernels of the policy it is given (cuda_chained or
// cuda_multipass: their policy.cuh). Both policies include this list; a new algorithm joins it.

#include <pscan/policies/cuda_common/algorithms/reductions.cuh>
#include <pscan/policies/cuda_common/algorithms/scans.cuh>
#include <pscan/policies/cuda_common/algorithms/segmented_reduce.cuh>
#include <pscan/policies/cuda_common/algorithms/segmented_scans.cuh>
