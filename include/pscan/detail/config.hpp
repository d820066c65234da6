#pragma once
// Annotations that let the same header serve host compilers and nvcc.

#if defined(__CUDACC__)
#define PSCAN_HOST_DEVICE __host__ __device__
#define PSCAN_FORCEINLINE __forceinline__
#else
#define PSCAN_HOST_DEVICE
#define PSCAN_FORCEINLINE inline
#endif
