// Thrust baselines (CUDA system). Thrust has no two-phase size query; a caching allocator passed
// in the execution policy keeps its temporaries between calls, so after the validation run no
// timed call allocates.

#include "flagged_iterators.cuh"
#include "implementation.hpp"

#include <pscan/runtime/check.cuh>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>
#include <thrust/transform_scan.h>

#include <map>
#include <memory>

namespace compare {
namespace {

// Thrust's allocator protocol (value_type, allocate, deallocate): blocks are kept on free and
// handed out again for requests they can hold.
class caching_allocator {
 public:
  using value_type = char;
  caching_allocator() = default;
  caching_allocator(const caching_allocator&) = delete;
  caching_allocator& operator=(const caching_allocator&) = delete;
  ~caching_allocator() {
    for (auto& [bytes, p] : free_) cudaFree(p);
    for (auto& [p, bytes] : used_) cudaFree(p);
  }
  char* allocate(std::ptrdiff_t bytes) {
    auto it = free_.lower_bound(bytes);
    char* p = nullptr;
    if (it != free_.end()) {
      bytes = it->first;
      p = it->second;
      free_.erase(it);
    } else {
      PSCAN_CUDA_CHECK(cudaMalloc(&p, static_cast<std::size_t>(bytes)));
    }
    used_.emplace(p, bytes);
    return p;
  }
  void deallocate(char* p, std::size_t) {
    auto it = used_.find(p);
    free_.emplace(it->second, p);
    used_.erase(it);
  }

 private:
  std::multimap<std::ptrdiff_t, char*> free_;
  std::map<char*, std::ptrdiff_t> used_;
};

std::string thrust_unsupported(algorithm a, element e) {
  if (a == algorithm::reduce_into) return "thrust::reduce_into needs CCCL 3.2 or later";
  if (a == algorithm::reduce && e == element::affine) return needs_commutative("thrust::reduce");
  if (a == algorithm::transform_reduce && e == element::affine) {
    return needs_commutative("thrust::transform_reduce");
  }
  return "";
}

// Everything the run keeps alive: its temporaries.
struct thrust_state {
  caching_allocator allocator;
};

template <class T>
void thrust_call(thrust_state& st, algorithm a, const cell_buffers& b) {
  const T* in = static_cast<const T*>(b.values);
  T* out = static_cast<T*>(b.out);
  const op_t<T> op{};
  const auto policy =
      thrust::cuda::par_nosync(st.allocator).on(static_cast<cudaStream_t>(b.stream));
  switch (a) {
    case algorithm::inclusive_scan:
      thrust::inclusive_scan(policy, in, in + b.n, out, op);
      return;
    case algorithm::exclusive_scan:
      thrust::exclusive_scan(policy, in, in + b.n, out, identity_value<T>(), op);
      return;
    case algorithm::reduce:
      *static_cast<T*>(b.host_result) =
          thrust::reduce(policy, in, in + b.n, identity_value<T>(), op);
      return;
    case algorithm::segmented_inclusive_scan:
      thrust::inclusive_scan(policy, flagged_input(in, b.flags), flagged_input(in, b.flags) + b.n,
                             flagged_output(out), lifted<op_t<T>>{op});
      return;
    case algorithm::inclusive_scan_by_key:
    case algorithm::inclusive_scan_by_offsets:  // by the keys of the same segments
      thrust::inclusive_scan_by_key(policy, b.keys, b.keys + b.n, in, out,
                                    thrust::equal_to<key_type>{}, op);
      return;
    case algorithm::exclusive_scan_by_key:
      thrust::exclusive_scan_by_key(policy, b.keys, b.keys + b.n, in, out, identity_value<T>(),
                                    thrust::equal_to<key_type>{}, op);
      return;
    case algorithm::segmented_reduce:  // by the keys of the same segments (none of them empty)
    case algorithm::reduce_by_key:
      thrust::reduce_by_key(policy, b.keys, b.keys + b.n, in, b.keys_out, out,
                            thrust::equal_to<key_type>{}, op);
      return;
    case algorithm::transform_inclusive_scan:
      thrust::transform_inclusive_scan(policy, in, in + b.n, out, self_combined<T>{}, op);
      return;
    case algorithm::transform_exclusive_scan:
      thrust::transform_exclusive_scan(policy, in, in + b.n, out, self_combined<T>{},
                                       identity_value<T>(), op);
      return;
    case algorithm::transform_reduce:
      *static_cast<T*>(b.host_result) = thrust::transform_reduce(
          policy, in, in + b.n, self_combined<T>{}, identity_value<T>(), op);
      return;
    default:  // reduce_into (ruled out by thrust_unsupported), or not among its algorithms
      return;
  }
}

implementation thrust_cuda() {
  implementation impl;
  impl.name = "thrust";
  impl.library = "thrust";
  impl.where = target::gpu;
  impl.algorithms = every_algorithm();  // reduce_into: see thrust_unsupported
  impl.unsupported = thrust_unsupported;
  impl.unsupported_segments = [](algorithm a, const segment_lengths& s) {
    return no_empty_segments("thrust::reduce_by_key", a, s);
  };
  impl.prepare = [](const cell& c, const cell_buffers& b) {
    return with_element(c.type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto st = std::make_shared<thrust_state>();
      return prepared_run{[st, a = c.algo, b] { thrust_call<T>(*st, a, b); },
                          describe(c.algo).returns_value};
    });
  };
  return impl;
}

const built_in thrust_entry(thrust_cuda);

}  // namespace
}  // namespace compare
