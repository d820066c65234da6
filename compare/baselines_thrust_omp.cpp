// thrust_omp: CCCL's Thrust with the OpenMP system (thrust::omp::par), compiled as plain C++
// with -fopenmp. Thrust's OpenMP scans fall back to its sequential C++ system; reduce and
// reduce_by_key are parallel.

#include "implementation.hpp"
#include "types.hpp"

#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/version.h>

namespace compare {

std::string cccl_version_of_thrust_omp() {
  return std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
         std::to_string(CCCL_PATCH_VERSION);
}

namespace {

std::string thrust_omp_unsupported(algorithm a, element e) {
  return is_reduction(a) && e == element::affine ? needs_commutative("thrust::reduce") : "";
}

template <class T>
void run_thrust_omp(algorithm a, const cell_buffers& b) {
  const T* in = static_cast<const T*>(b.values);
  T* out = static_cast<T*>(b.out);
  const op_t<T> op{};
  switch (a) {
    case algorithm::inclusive_scan:
      thrust::inclusive_scan(thrust::omp::par, in, in + b.n, out, op);
      return;
    case algorithm::exclusive_scan:
      thrust::exclusive_scan(thrust::omp::par, in, in + b.n, out, identity_value<T>(), op);
      return;
    case algorithm::reduce:
    case algorithm::reduce_into:  // on the host, the same call
      *out = thrust::reduce(thrust::omp::par, in, in + b.n, identity_value<T>(), op);
      return;
    case algorithm::inclusive_scan_by_key:
    case algorithm::inclusive_scan_by_offsets:  // by the keys of the same segments
      thrust::inclusive_scan_by_key(thrust::omp::par, b.keys, b.keys + b.n, in, out,
                                    thrust::equal_to<key_type>{}, op);
      return;
    case algorithm::exclusive_scan_by_key:
      thrust::exclusive_scan_by_key(thrust::omp::par, b.keys, b.keys + b.n, in, out,
                                    identity_value<T>(), thrust::equal_to<key_type>{}, op);
      return;
    case algorithm::segmented_reduce:  // by the keys of the same segments (none of them empty)
    case algorithm::reduce_by_key:
      thrust::reduce_by_key(thrust::omp::par, b.keys, b.keys + b.n, in, b.keys_out, out,
                            thrust::equal_to<key_type>{}, op);
      return;
    default:  // not among its algorithms
      return;
  }
}

implementation thrust_omp() {
  implementation impl;
  impl.name = "thrust_omp";
  impl.library = "thrust";
  impl.where = target::cpu;
  impl.algorithms = {algorithm::inclusive_scan,        algorithm::exclusive_scan,
                     algorithm::reduce,                algorithm::reduce_into,
                     algorithm::inclusive_scan_by_key, algorithm::exclusive_scan_by_key,
                     algorithm::segmented_reduce,      algorithm::inclusive_scan_by_offsets,
                     algorithm::reduce_by_key};
  impl.unsupported = thrust_omp_unsupported;
  impl.unsupported_segments = [](algorithm a, const segment_lengths& s) {
    return no_empty_segments("thrust::reduce_by_key", a, s);
  };
  impl.prepare = [](const cell& c, const cell_buffers& b) {
    return with_element(c.type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return prepared_run{[a = c.algo, b] { run_thrust_omp<T>(a, b); }};
    });
  };
  return impl;
}

const built_in thrust_omp_entry(thrust_omp);

}  // namespace
}  // namespace compare
