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

// The segmented algorithms of `a`: the segmented scans, segmented_reduce and reduce_by_key.
template <class T, class P, class Op>
void run_pscan_segmented(const P& p, algorithm a, const cell_buffers& b, const Op& op) {
  const T* in = static_cast<const T*>(b.values);
  T* out = static_cast<T*>(b.out);
  switch (a) {
    case algorithm::segmented_inclusive_scan:
      pscan::segmented_inclusive_scan(p, in, in + b.n, b.flags, out, op);
      return;
    case algorithm::inclusive_scan_by_key:
      pscan::inclusive_scan_by_key(p, b.keys, b.keys + b.n, in, out, op);
      return;
    case algorithm::exclusive_scan_by_key:
      pscan::exclusive_scan_by_key(p, b.keys, b.keys + b.n, in, out, identity_value<T>(), op);
      return;
    case algorithm::segmented_reduce:
      pscan::segmented_reduce(p, in, b.offsets, b.offsets + b.segments + 1, out,
                              identity_value<T>(), op);
      return;
    case algorithm::inclusive_scan_by_offsets:
      pscan::inclusive_scan_by_offsets_into(p, in, b.offsets, b.offsets + b.segments + 1, out,
                                            op);
      return;
    case algorithm::reduce_by_key:
      pscan::reduce_by_key_into(p, b.keys, b.keys + b.n, in, b.keys_out, out, b.runs_out,
                                pscan::equal_to<>{}, op);
      return;
    default:
      return;
  }
}

// Runs algorithm `a` with policy `p` and the operator OpOf<T>::type. An algorithm that returns
// its value writes it to b.host_result when `value_to_host`, else to b.out[0] (host memory: CPU
// targets only).
template <class T, template <class> class OpOf = pscan_op, class P>
void run_pscan(const P& p, algorithm a, const cell_buffers& b, bool value_to_host) {
  const T* in = static_cast<const T*>(b.values);
  T* out = static_cast<T*>(b.out);
  const typename OpOf<T>::type op{};
  switch (a) {
    case algorithm::inclusive_scan:
      pscan::inclusive_scan(p, in, in + b.n, out, op);
      return;
    case algorithm::exclusive_scan:
      pscan::exclusive_scan(p, in, in + b.n, out, identity_value<T>(), op);
      return;
    case algorithm::transform_inclusive_scan:
      pscan::transform_inclusive_scan(p, in, in + b.n, out, op, self_combined<T>{});
      return;
    case algorithm::transform_exclusive_scan:
      pscan::transform_exclusive_scan(p, in, in + b.n, out, identity_value<T>(), op,
                                      self_combined<T>{});
      return;
    case algorithm::reduce:
      *static_cast<T*>(value_to_host ? b.host_result : b.out) =
          pscan::reduce(p, in, in + b.n, identity_value<T>(), op);
      return;
    case algorithm::reduce_into:
      pscan::reduce_into(p, in, in + b.n, out, identity_value<T>(), op);
      return;
    case algorithm::transform_reduce:
      *static_cast<T*>(value_to_host ? b.host_result : b.out) =
          pscan::transform_reduce(p, in, in + b.n, identity_value<T>(), op, self_combined<T>{});
      return;
    default:
      break;
  }
  run_pscan_segmented<T>(p, a, b, op);
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
