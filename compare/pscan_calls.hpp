#pragma once
// One call of a pscan algorithm on a cell's buffers, for any policy: shared by the CPU and CUDA
// entries and by the host reference (pscan::seq).

#include "implementation.hpp"
#include "types.hpp"

#include <pscan/pscan.hpp>

namespace compare {

// pscan's own plus for arithmetic types (a backend may recognise it); composition for affine.
template <class T>
struct pscan_op {
  using type = pscan::plus<>;
};
template <>
struct pscan_op<affine> {
  using type = compose;
};

// pscan::exact_plus over float and double (the exact rows); others never run with it.
template <class T>
struct exact_op {
  using type = std::conditional_t<std::is_floating_point_v<T>, pscan::exact_plus<>,
                                  typename pscan_op<T>::type>;
};

// Runs algorithm `a` (its row's call in algorithms.def) with policy `p` and the operator
// OpOf<T>::type. An algorithm that returns its value writes it to b.host_result when
// `value_to_host`, else to b.out[0] (host memory: CPU targets only).
template <class T, template <class> class OpOf = pscan_op, class P>
void run_pscan(const P& p, algorithm a, const cell_buffers& b, bool value_to_host) {
  const T* in = static_cast<const T*>(b.values);
  T* out = static_cast<T*>(b.out);
  const typename OpOf<T>::type op{};
  const auto result = [&]() -> T& {
    return *static_cast<T*>(value_to_host ? b.host_result : b.out);
  };
  switch (a) {
#define COMPARE_ALGORITHM(name, summary, segments, keys_as_well, writes, returns_value, on_cpu, \
                          call)                                                               \
  case algorithm::name:                                                                       \
    call;                                                                                     \
    return;
#include "algorithms.def"
#undef COMPARE_ALGORITHM
  }
}

// An implementation entry for a pscan policy; it has every algorithm, for every type.
// `bind(policy, buffers)` returns the policy a run uses (the GPU entries put it on the stream);
// it is applied when the run is prepared, so the timed call does only the algorithm. OpOf picks
// the operator (exact_op: the exact rows).
template <template <class> class OpOf = pscan_op, class P, class Bind>
implementation pscan_implementation(const char* name, target where, P policy, Bind bind) {
  implementation impl;
  impl.name = name;
  impl.library = "pscan";
  impl.where = where;
  impl.algorithms = every_algorithm();
  impl.prepare = [policy, where, bind](const cell& c, const cell_buffers& b) {
    const bool to_host = where == target::gpu;  // a value returned from the GPU is on the host
    return with_element(c.type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return prepared_run{
          [p = bind(policy, b), a = c.algo, b, to_host] {
            run_pscan<T, OpOf>(p, a, b, to_host);
          },
          to_host && describe(c.algo).returns_value};
    });
  };
  return impl;
}

template <template <class> class OpOf = pscan_op, class P>
implementation pscan_implementation(const char* name, target where, P policy) {
  return pscan_implementation<OpOf>(name, where, policy,
                                    [](P p, const cell_buffers&) { return p; });
}

// The entry of a policy with pscan::exact_plus: float and double cells only.
template <class P, class Bind>
implementation pscan_exact_implementation(const char* name, target where, P policy, Bind bind) {
  implementation impl = pscan_implementation<exact_op>(name, where, policy, bind);
  impl.unsupported = [](algorithm, element type) {
    return type != element::f32 && type != element::f64
               ? std::string("exact_plus sums float and double values")
               : std::string();
  };
  return impl;
}

template <class P>
implementation pscan_exact_implementation(const char* name, target where, P policy) {
  return pscan_exact_implementation(name, where, policy,
                                    [](P p, const cell_buffers&) { return p; });
}

}  // namespace compare
