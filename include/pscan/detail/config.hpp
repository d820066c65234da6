#pragma once
// Annotations that let the same header serve host compilers and nvcc.

#if defined(__CUDACC__)
#define PSCAN_HOST_DEVICE __host__ __device__
#define PSCAN_FORCEINLINE __forceinline__
// Before a __host__ __device__ function that calls what it is given (an iterator, an operator):
// instantiated for host iterators or host lambdas (the CPU policies in a .cu file), it calls host
// code from its host side only, which nvcc need not warn about.
#define PSCAN_CALLS_WHAT_IT_IS_GIVEN _Pragma("nv_exec_check_disable")
#else
#define PSCAN_HOST_DEVICE
#define PSCAN_FORCEINLINE inline
#define PSCAN_CALLS_WHAT_IT_IS_GIVEN
#endif
