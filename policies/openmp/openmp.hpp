#pragma once
// pscan::omp — the OpenMP backend: chained single-pass scans over cache-sized chunks, ordered
// chunked reduce, and a merge-path balanced segmented_reduce. Segmented scans and scans by key take
// the generic path (include/pscan/detail/segmented_generic.hpp) over these scans.

#if !defined(_OPENMP)
#error "pscan::omp needs OpenMP: compile with -fopenmp (link the pscan::pscan target)"
#endif

#include <pscan/policies/openmp/policy.hpp>
#include <pscan/policies/openmp/reduce.hpp>
#include <pscan/policies/openmp/scan.hpp>
#include <pscan/policies/openmp/segmented_reduce.hpp>
