// pscan's C interface (include/pscan/pscan_c.h): each entry checks what only the C interface can
// get wrong (enum values, null scalars, offsets past the values), then runs its request on the
// policy's backend; pscan's own checks follow, before any write. Exceptions end here, as a
// status and this thread's message.

#include <pscan/pscan_c.h>

#include <cstdint>
#include <exception>
#include <new>
#include <string>

#include "calls.hpp"

namespace pscan::capi {
namespace {

thread_local std::string last_error;

pscan_status failed(pscan_status status, const std::string& message) {
  last_error = message;
  return status;
}

void check(bool ok, const char* name, const std::string& what) {
  if (!ok) throw invalid_argument(std::string(name) + ": " + what);
}

void check_policy(const char* name, const pscan_policy* policy) {
  check(policy != nullptr, name, "`policy` is a null pointer");
  check(policy->backend == PSCAN_SEQ || policy->backend == PSCAN_OMP ||
            policy->backend == PSCAN_CUDA_CHAINED,
        name,
        "`policy->backend` is " + std::to_string(policy->backend) +
            ", not PSCAN_SEQ, PSCAN_OMP or PSCAN_CUDA_CHAINED");
#if !PSCAN_C_OPENMP
  if (policy->backend == PSCAN_OMP) {
    throw unsupported(std::string(name) + ": this libpscan_c was built without OpenMP");
  }
#endif
#if !PSCAN_C_CUDA
  if (policy->backend == PSCAN_CUDA_CHAINED) {
    throw unsupported(std::string(name) + ": this libpscan_c was built without CUDA");
  }
#endif
}

bool is_dtype(pscan_dtype dtype) {
  return dtype == PSCAN_INT32 || dtype == PSCAN_INT64 || dtype == PSCAN_FLOAT32 ||
         dtype == PSCAN_FLOAT64;
}

void check_types(const char* name, pscan_dtype dtype, pscan_op op) {
  check(is_dtype(dtype), name,
        "`dtype` is " + std::to_string(dtype) +
            ", not PSCAN_INT32, PSCAN_INT64, PSCAN_FLOAT32 or PSCAN_FLOAT64");
  check(op == PSCAN_SUM || op == PSCAN_MIN || op == PSCAN_MAX || op == PSCAN_EXACT_SUM, name,
        "`op` is " + std::to_string(op) + ", not PSCAN_SUM, PSCAN_MIN, PSCAN_MAX or " +
            "PSCAN_EXACT_SUM");
}

void check_count(const char* name, const char* what, std::int64_t n) {
  check(n >= 0, name, std::string("`") + what + "` is " + std::to_string(n) + ", below 0");
}

// offsets[num_offsets - 1] <= n, in host memory. On the GPU the checked mode's pass on the device
// checks it with the order (the policy's values_count: cuda_calls.cu); unchecked, it is trusted.
void check_offsets_end(const char* name, const pscan_policy& policy, const request& r) {
  check_count(name, "n", r.n);
  check_count(name, "num_offsets", r.num_offsets);
  if (r.num_offsets < 2) return;
  check(r.offsets != nullptr, name, "`offsets` is a null pointer");
  if (policy.backend == PSCAN_CUDA_CHAINED) return;
  const std::int64_t last = r.offsets[r.num_offsets - 1];
  check(last <= r.n, name,
        "`offsets` end past the values: offsets[" + std::to_string(r.num_offsets - 1) +
            "] = " + std::to_string(last) + " > n = " + std::to_string(r.n));
}

void run_on_backend(const pscan_policy& policy, const request& r) {
  if (policy.backend == PSCAN_CUDA_CHAINED) {
#if PSCAN_C_CUDA
    run_cuda(policy, r);
#endif
  } else {
    run_host(policy, r);
  }
}

// Runs body() and turns what it throws into a status and this thread's message.
template <class Body>
pscan_status guarded(const char* name, Body&& body) noexcept {
  try {
    body();
    return PSCAN_OK;
  } catch (const invalid_argument& e) {
    return failed(PSCAN_INVALID_ARGUMENT, e.what());
  } catch (const unsupported& e) {
    return failed(PSCAN_UNSUPPORTED, e.what());
  } catch (const cuda_error& e) {
    constexpr int cuda_error_memory_allocation = 2;  // cudaErrorMemoryAllocation
    return failed(e.code() == cuda_error_memory_allocation ? PSCAN_OUT_OF_MEMORY : PSCAN_CUDA_ERROR,
                  e.what());
  } catch (const std::bad_alloc&) {
    return failed(PSCAN_OUT_OF_MEMORY, std::string(name) + ": out of host memory");
  } catch (const std::exception& e) {
    return failed(PSCAN_ERROR, std::string(name) + ": " + e.what());
  } catch (...) {
    return failed(PSCAN_ERROR, std::string(name) + ": an exception of unknown type");
  }
}

// The entries' shape: checks, then the request on the policy's backend.
template <class Check>
pscan_status call(const char* name, const pscan_policy* policy, const request& r,
                  Check&& check_request) noexcept {
  return guarded(name, [&] {
    check_policy(name, policy);
    check_types(name, r.dtype, r.op);
    check_request(*policy);
    run_on_backend(*policy, r);
  });
}

void check_scalar(const char* name, const char* what, const void* p) {
  check(p != nullptr, name, std::string("`") + what + "` is a null pointer");
}

}  // namespace
}  // namespace pscan::capi

using pscan::capi::algorithm;
using pscan::capi::request;

extern "C" {

int pscan_abi_version(void) { return PSCAN_C_ABI_VERSION; }

int pscan_backend_available(pscan_backend backend) {
  switch (backend) {
    case PSCAN_SEQ:
      return 1;
    case PSCAN_OMP:
      return PSCAN_C_OPENMP;
    case PSCAN_CUDA_CHAINED:
#if PSCAN_C_CUDA
      return pscan::capi::cuda_available() ? 1 : 0;
#else
      return 0;
#endif
  }
  return 0;
}

const char* pscan_last_error(void) { return pscan::capi::last_error.c_str(); }

pscan_status pscan_synchronize(const pscan_policy* policy) {
  constexpr const char* name = "pscan_synchronize";
  return pscan::capi::guarded(name, [&] {
    pscan::capi::check_policy(name, policy);
#if PSCAN_C_CUDA
    if (policy->backend == PSCAN_CUDA_CHAINED) pscan::capi::synchronize_cuda(*policy);
#endif
  });
}

pscan_status pscan_inclusive_scan(const pscan_policy* policy, pscan_dtype dtype, pscan_op op,
                                  const void* in, void* out, int64_t n) {
  request r{algorithm::inclusive_scan, dtype, op, in, out, n};
  return pscan::capi::call("pscan_inclusive_scan", policy, r, [](const pscan_policy&) {});
}

pscan_status pscan_exclusive_scan(const pscan_policy* policy, pscan_dtype dtype, pscan_op op,
                                  const void* in, void* out, int64_t n, const void* init) {
  request r{algorithm::exclusive_scan, dtype, op, in, out, n};
  r.init = init;
  return pscan::capi::call("pscan_exclusive_scan", policy, r, [](const pscan_policy&) {});
}

pscan_status pscan_reduce(const pscan_policy* policy, pscan_dtype dtype, pscan_op op,
                          const void* in, int64_t n, const void* init, void* result) {
  constexpr const char* name = "pscan_reduce";
  request r{algorithm::reduce, dtype, op, in, nullptr, n};
  r.init = init;
  r.result = result;
  return pscan::capi::call(name, policy, r, [&](const pscan_policy&) {
    pscan::capi::check_scalar(name, "result", result);
  });
}

pscan_status pscan_inclusive_scan_by_offsets(const pscan_policy* policy, pscan_dtype dtype,
                                             pscan_op op, const void* values, int64_t n,
                                             const int64_t* offsets, int64_t num_offsets,
                                             void* out) {
  constexpr const char* name = "pscan_inclusive_scan_by_offsets";
  request r{algorithm::inclusive_scan_by_offsets, dtype, op, values, out, n, offsets, num_offsets};
  return pscan::capi::call(
      name, policy, r, [&](const pscan_policy& p) { pscan::capi::check_offsets_end(name, p, r); });
}

pscan_status pscan_exclusive_scan_by_offsets(const pscan_policy* policy, pscan_dtype dtype,
                                             pscan_op op, const void* values, int64_t n,
                                             const int64_t* offsets, int64_t num_offsets, void* out,
                                             const void* init) {
  constexpr const char* name = "pscan_exclusive_scan_by_offsets";
  request r{
      algorithm::exclusive_scan_by_offsets, dtype, op, values, out, n, offsets, num_offsets, init};
  return pscan::capi::call(
      name, policy, r, [&](const pscan_policy& p) { pscan::capi::check_offsets_end(name, p, r); });
}

pscan_status pscan_segmented_reduce(const pscan_policy* policy, pscan_dtype dtype, pscan_op op,
                                    const void* values, int64_t n, const int64_t* offsets,
                                    int64_t num_offsets, void* out, const void* init) {
  constexpr const char* name = "pscan_segmented_reduce";
  request r{algorithm::segmented_reduce, dtype, op, values, out, n, offsets, num_offsets, init};
  return pscan::capi::call(
      name, policy, r, [&](const pscan_policy& p) { pscan::capi::check_offsets_end(name, p, r); });
}

pscan_status pscan_reduce_by_key(const pscan_policy* policy, pscan_dtype key_dtype,
                                 pscan_dtype dtype, pscan_op op, const void* keys,
                                 const void* values, int64_t n, void* keys_out, void* values_out,
                                 int64_t* runs) {
  constexpr const char* name = "pscan_reduce_by_key";
  request r{algorithm::reduce_by_key, dtype, op, values, values_out, n};
  r.key_dtype = key_dtype;
  r.keys = keys;
  r.keys_out = keys_out;
  r.runs = runs;
  return pscan::capi::call(name, policy, r, [&](const pscan_policy&) {
    pscan::capi::check(
        key_dtype == PSCAN_INT32 || key_dtype == PSCAN_INT64, name,
        "`key_dtype` is " + std::to_string(key_dtype) + ", not PSCAN_INT32 or PSCAN_INT64");
    pscan::capi::check_scalar(name, "runs", runs);
  });
}

}  // extern "C"
