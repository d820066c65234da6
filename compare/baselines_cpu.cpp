// CPU baselines from the standard library: std::inclusive_scan / exclusive_scan / reduce
// (sequential, and std::execution::par when TBB backs it), GNU parallel mode, and the CPU copy.

#include "implementation.hpp"
#include "types.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#if PSCAN_COMPARE_WITH_STD_PAR
#include <execution>
#endif
#if defined(_OPENMP)
#include <omp.h>
#if __has_include(<parallel/numeric>)
#include <parallel/numeric>
#define PSCAN_COMPARE_HAS_GNU_PARALLEL 1
#endif
#endif

namespace compare {
namespace {

template <class T>
struct typed {
  const T* in;
  T* out;
  std::int64_t n;
  explicit typed(const cell_buffers& b)
      : in(static_cast<const T*>(b.values)), out(static_cast<T*>(b.out)), n(b.n) {}
};

// Builds an implementation from `body(type_tag<T>, algorithm, cell_buffers)` run per call.
template <class Body>
implementation cpu_implementation(const char* name, const char* library,
                                  std::vector<algorithm> algorithms, Body body) {
  implementation impl;
  impl.name = name;
  impl.library = library;
  impl.where = target::cpu;
  impl.algorithms = std::move(algorithms);
  impl.prepare = [body](const cell& c, const cell_buffers& b) {
    return with_element(c.type, [&](auto tag) {
      return prepared_run{[body, tag, a = c.algo, b] { body(tag, a, b); }};
    });
  };
  return impl;
}

// <numeric>'s algorithms with an optional execution policy in front.
template <class... Policy>
implementation numeric_implementation(const char* name, Policy... policy) {
  auto body = [policy...](auto tag, algorithm a, const cell_buffers& b) {
    using T = typename decltype(tag)::type;
    const typed<T> d(b);
    const op_t<T> op{};
    if (a == algorithm::inclusive_scan) std::inclusive_scan(policy..., d.in, d.in + d.n, d.out, op);
    if (a == algorithm::exclusive_scan) {
      std::exclusive_scan(policy..., d.in, d.in + d.n, d.out, identity_value<T>(), op);
    }
    if (a == algorithm::reduce || a == algorithm::reduce_into) {
      *d.out = std::reduce(policy..., d.in, d.in + d.n, identity_value<T>(), op);
    }
    const self_combined<T> f{};
    if (a == algorithm::transform_inclusive_scan) {
      std::transform_inclusive_scan(policy..., d.in, d.in + d.n, d.out, op, f);
    }
    if (a == algorithm::transform_exclusive_scan) {
      std::transform_exclusive_scan(policy..., d.in, d.in + d.n, d.out, identity_value<T>(), op,
                                    f);
    }
    if (a == algorithm::transform_reduce) {
      *d.out = std::transform_reduce(policy..., d.in, d.in + d.n, identity_value<T>(), op, f);
    }
  };
  implementation impl = cpu_implementation(
      name, "std",
      {algorithm::inclusive_scan, algorithm::exclusive_scan, algorithm::reduce,
       algorithm::reduce_into, algorithm::transform_inclusive_scan,
       algorithm::transform_exclusive_scan, algorithm::transform_reduce},
      body);
  impl.unsupported = [](algorithm a, element e) {
    return is_reduction(a) && e == element::affine ? needs_commutative("std::reduce") : "";
  };
  return impl;
}

#if PSCAN_COMPARE_HAS_GNU_PARALLEL
implementation gnu_parallel() {
  auto body = [](auto tag, algorithm a, const cell_buffers& b) {
    using T = typename decltype(tag)::type;
    const typed<T> d(b);
    if (a == algorithm::inclusive_scan)
      __gnu_parallel::partial_sum(d.in, d.in + d.n, d.out, op_t<T>{});
    if (is_reduction(a)) {
      *d.out = __gnu_parallel::accumulate(d.in, d.in + d.n, identity_value<T>(), op_t<T>{});
    }
  };
  implementation impl = cpu_implementation(
      "gnu_parallel", "gnu", {algorithm::inclusive_scan, algorithm::reduce, algorithm::reduce_into},
      body);
  impl.unsupported = [](algorithm a, element e) {
    return is_reduction(a) && e == element::affine ? needs_commutative("__gnu_parallel::accumulate")
                                                   : "";
  };
  return impl;
}
#endif

// The physical limit: copy the n input elements to the output, one contiguous chunk per thread,
// with no more threads than MiBs (a team costs more than it saves on small copies).
implementation cpu_copy() {
  auto body = [](auto tag, algorithm, const cell_buffers& b) {
    using T = typename decltype(tag)::type;
    const auto* src = static_cast<const char*>(b.values);
    auto* dst = static_cast<char*>(b.out);
    const std::int64_t bytes = b.n * static_cast<std::int64_t>(sizeof(T));
#if defined(_OPENMP)
    const int team =
        static_cast<int>(std::min<std::int64_t>(omp_get_max_threads(), 1 + (bytes >> 20)));
#pragma omp parallel num_threads(team) if (team > 1)
    {
      const std::int64_t threads = omp_get_num_threads();
      const std::int64_t t = omp_get_thread_num();
      const std::int64_t begin = bytes * t / threads;
      const std::int64_t end = bytes * (t + 1) / threads;
      std::memcpy(dst + begin, src + begin, static_cast<std::size_t>(end - begin));
    }
#else
    std::memcpy(dst, src, static_cast<std::size_t>(bytes));
#endif
  };
  return cpu_implementation("copy", "copy", {}, body);
}

const built_in std_entry([] { return numeric_implementation("std"); });
#if PSCAN_COMPARE_WITH_STD_PAR
const built_in std_par_entry([] { return numeric_implementation("std_par", std::execution::par); });
#endif
#if PSCAN_COMPARE_HAS_GNU_PARALLEL
const built_in gnu_parallel_entry(gnu_parallel);
#endif
const built_in copy_entry(cpu_copy);

}  // namespace
}  // namespace compare
