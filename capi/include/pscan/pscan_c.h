/* pscan's C interface: scans, reductions and segmented primitives over fixed element types,
 * operators and policies, for languages that call C (Python's ctypes, Julia, Rust, Fortran).
 *
 * Every function returns a pscan_status; PSCAN_OK is 0. On any other status pscan_last_error()
 * gives a message naming the call and the argument, and nothing was written (but for
 * PSCAN_CUDA_ERROR, and for offsets in device memory: below). No C++ exception crosses this
 * interface.
 *
 * Data: pointers to contiguous arrays of `dtype` elements, in host memory for the CPU backends and
 * in device memory (or memory the device can read, such as managed memory) for PSCAN_CUDA_CHAINED.
 * Offsets are int64 in the memory of the values. Scalars (init, results, run counts) always live
 * on the host. A null array is accepted where it holds no element (n == 0). A scan, by offsets
 * too, may run in place (out == in); reduce_by_key's outputs must not overlap its inputs.
 *
 * PSCAN_CUDA_CHAINED runs on the policy's stream and returns without waiting, except where a
 * result comes back to the host (pscan_reduce, pscan_reduce_by_key's run count), which waits
 * for the stream.
 */
#ifndef PSCAN_PSCAN_C_H
#define PSCAN_PSCAN_C_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the shared library exports. */
#if defined(__GNUC__)
#define PSCAN_C_API __attribute__((visibility("default")))
#else
#define PSCAN_C_API
#endif

/* The version of this interface: it changes only when a name or a signature does. */
#define PSCAN_C_ABI_VERSION 1

typedef enum pscan_status {
  PSCAN_OK = 0,
  PSCAN_INVALID_ARGUMENT = 1, /* a bad argument: null pointer, bad offsets, unknown enum value */
  PSCAN_UNSUPPORTED = 2,      /* a backend this library was built without, or no device */
  PSCAN_CUDA_ERROR = 3,       /* a CUDA call failed (the message names it) */
  PSCAN_OUT_OF_MEMORY = 4,    /* temporaries could not be allocated; nothing was written */
  PSCAN_ERROR = 5             /* anything else */
} pscan_status;

typedef enum pscan_dtype {
  PSCAN_INT32 = 0,
  PSCAN_INT64 = 1,
  PSCAN_FLOAT32 = 2,
  PSCAN_FLOAT64 = 3
} pscan_dtype;

/* PSCAN_EXACT_SUM: the correctly rounded sum of the exact real values, the same bits on every
 * backend, thread count and run (pscan::exact_plus); over integers it is PSCAN_SUM. Integer sums
 * wrap in two's complement. PSCAN_MIN and PSCAN_MAX return the first of equal values. */
typedef enum pscan_op { PSCAN_SUM = 0, PSCAN_MIN = 1, PSCAN_MAX = 2, PSCAN_EXACT_SUM = 3 } pscan_op;

typedef enum pscan_backend {
  PSCAN_SEQ = 0,         /* pscan::seq: the calling thread */
  PSCAN_OMP = 1,         /* pscan::omp: OpenMP threads */
  PSCAN_CUDA_CHAINED = 2 /* pscan::cuda_chained: the single-pass CUDA backend */
} pscan_backend;

typedef struct pscan_policy {
  pscan_backend backend;
  int threads;       /* PSCAN_OMP: the team's size; 0 for OpenMP's default (OMP_NUM_THREADS) */
  void* stream;      /* PSCAN_CUDA_CHAINED: a cudaStream_t; NULL for the default stream */
  int deterministic; /* PSCAN_CUDA_CHAINED: nonzero for the same bits on every run */
  int checked;       /* PSCAN_CUDA_CHAINED: nonzero to check offsets in device memory (their order
                        and offsets[num_offsets - 1] <= n) before any write, waiting for the check.
                        Zero: no wait; the kernels check the order of the offsets as they read
                        them, and pscan_synchronize reports a bad one, but they trust
                        offsets[num_offsets - 1] <= n */
} pscan_policy;

/* PSCAN_C_ABI_VERSION as this library was built. */
PSCAN_C_API int pscan_abi_version(void);

/* Nonzero when this library was built with `backend` and, for PSCAN_CUDA_CHAINED, a device is
 * present. */
PSCAN_C_API int pscan_backend_available(pscan_backend backend);

/* The message of this thread's last call that did not return PSCAN_OK; "" before any. Valid
 * until this thread's next call. */
PSCAN_C_API const char* pscan_last_error(void);

/* Waits for the policy's stream (PSCAN_CUDA_CHAINED; the CPU backends have nothing to wait for)
 * and returns PSCAN_INVALID_ARGUMENT, naming the first bad index, if an unchecked call on this
 * device found bad offsets since the last pscan_synchronize (what it wrote is unspecified). */
PSCAN_C_API pscan_status pscan_synchronize(const pscan_policy* policy);

/* out[i] = in[0] op ... op in[i], for i in [0, n). */
PSCAN_C_API pscan_status pscan_inclusive_scan(const pscan_policy* policy, pscan_dtype dtype,
                                              pscan_op op, const void* in, void* out, int64_t n);

/* out[i] = init op in[0] op ... op in[i-1]; init points to one `dtype` value, or is NULL for the
 * operator's identity: +0 for the sums (so a sum of -0.0 values gives +0.0); for PSCAN_MIN the
 * type's largest value (+inf for floats), for PSCAN_MAX its lowest (-inf). */
PSCAN_C_API pscan_status pscan_exclusive_scan(const pscan_policy* policy, pscan_dtype dtype,
                                              pscan_op op, const void* in, void* out, int64_t n,
                                              const void* init);

/* *result = init op in[0] op ... op in[n-1] (init NULL: the identity); result on the host. */
PSCAN_C_API pscan_status pscan_reduce(const pscan_policy* policy, pscan_dtype dtype, pscan_op op,
                                      const void* in, int64_t n, const void* init, void* result);

/* Segment s is [offsets[s], offsets[s+1]) for s in [0, num_offsets - 1): offsets
 * non-decreasing, offsets[0] >= 0 and offsets[num_offsets - 1] <= n, the number of values. The
 * scans write out at the positions of the values and leave positions outside every segment as
 * they were; fewer than two offsets describe no segment. */
PSCAN_C_API pscan_status pscan_inclusive_scan_by_offsets(const pscan_policy* policy,
                                                         pscan_dtype dtype, pscan_op op,
                                                         const void* values, int64_t n,
                                                         const int64_t* offsets,
                                                         int64_t num_offsets, void* out);
PSCAN_C_API pscan_status pscan_exclusive_scan_by_offsets(
    const pscan_policy* policy, pscan_dtype dtype, pscan_op op, const void* values, int64_t n,
    const int64_t* offsets, int64_t num_offsets, void* out, const void* init);

/* out[s] = init op (segment s's values in order), for each of the num_offsets - 1 segments; an
 * empty segment gives init (NULL: the identity). */
PSCAN_C_API pscan_status pscan_segmented_reduce(const pscan_policy* policy, pscan_dtype dtype,
                                                pscan_op op, const void* values, int64_t n,
                                                const int64_t* offsets, int64_t num_offsets,
                                                void* out, const void* init);

/* For each run of consecutive equal keys (key_dtype PSCAN_INT32 or PSCAN_INT64): its first key
 * to keys_out, the reduction of its values to values_out; *runs (on the host) the number of
 * runs. keys_out and values_out hold n elements at most. */
PSCAN_C_API pscan_status pscan_reduce_by_key(const pscan_policy* policy, pscan_dtype key_dtype,
                                             pscan_dtype dtype, pscan_op op, const void* keys,
                                             const void* values, int64_t n, void* keys_out,
                                             void* values_out, int64_t* runs);

#ifdef __cplusplus
}
#endif

#endif /* PSCAN_PSCAN_C_H */
