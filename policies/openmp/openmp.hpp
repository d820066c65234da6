#pragma once
// pscan::omp — the OpenMP backend: chained single-pass scans over cache-sized chunks, ordered
// chunked reduce, and a merge-path balanced segmented_reduce. Segmented scans and scans by key take
// the generic path (include/pscan/detail/segmented_generic.hpp) over these scans.

#if !defined(_OPENMP)
#error "pscan::omp needs OpenMP: compile with -fopenmp (link the pscan::pscan target)"
#endif

#include "policy.hpp"
#include "reduce.hpp"
#include "scan.hpp"
#include "segmented_reduce.hpp"
