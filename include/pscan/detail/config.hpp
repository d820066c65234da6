#pragma once
// Annotations that let the same header serve host compilers and nvcc.

#if defined(__CUDACC__)
#define PSCAN_HOST_DEVICE __host__ __device__
#else
#define PSCAN_HOST_DEVICE
#endif
