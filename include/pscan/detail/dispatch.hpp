#pragma once
// Finding a backend's algorithm. For each algorithm name, namespace adl_<name> hides the public
// pscan::<name> function objects behind a deleted function, so an unqualified call there finds
// only the overloads that argument-dependent lookup brings from the policy's namespace, and
// algorithm::<name> is its tag for the exact_algorithm hook (backend_call).

#include <pscan/error.hpp>
#include <pscan/functional.hpp>
#include <pscan/future_value.hpp>
#include <pscan/policy.hpp>

#include <cstdint>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

namespace pscan::detail {

template <class...>
inline constexpr bool dependent_false = false;

template <class Void, template <class...> class Expr, class... A>
struct detect : std::false_type {};
template <template <class...> class Expr, class... A>
struct detect<std::void_t<Expr<A...>>, Expr, A...> : std::true_type {};

// A policy whose backend has some algorithms of its own and runs the others as another policy
// does: the hook runs_as(policy), found by argument-dependent lookup, returns that policy
// (pscan::distributed over NCCL runs the algorithms it has no NCCL path for as over MPI).
namespace adl_runs_as {
template <class P>
void runs_as(const P&) = delete;
template <class P>
using expr = decltype(runs_as(std::declval<const P&>()));
template <class P>
inline constexpr bool available = detect<void, expr, P>::value;
template <class P>
auto call(const P& policy) {
  return runs_as(policy);
}
}  // namespace adl_runs_as

// An algorithm's dispatch: `own` where the policy's namespace has an overload for these
// arguments, `available` where it or the policy it runs as (runs_as) has one.
#define PSCAN_DETAIL_DISPATCH(name)                                                     \
  namespace adl_##name {                                                                \
  void name() = delete;                                                                 \
  template <class P, class... A>                                                        \
  using expr = decltype(name(std::declval<const P&>(), std::declval<A>()...));          \
  template <class P, class... A>                                                        \
  inline constexpr bool own = detect<void, expr, P, A...>::value;                       \
  template <class P, class... A>                                                        \
  constexpr bool reached() {                                                            \
    if constexpr (own<P, A...>) {                                                       \
      return true;                                                                      \
    } else if constexpr (adl_runs_as::available<P>) {                                   \
      return reached<std::decay_t<adl_runs_as::expr<P>>, A...>();                       \
    } else {                                                                            \
      return false;                                                                     \
    }                                                                                   \
  }                                                                                     \
  template <class P, class... A>                                                        \
  inline constexpr bool available = reached<P, A...>();                                 \
  template <class P, class... A>                                                        \
  decltype(auto) call(const P& policy, A&&... args) {                                   \
    if constexpr (own<P, A&&...>) {                                                     \
      return name(policy, std::forward<A>(args)...);                                    \
    } else if constexpr (adl_runs_as::available<P>) {                                   \
      return adl_##name::call(adl_runs_as::call(policy), std::forward<A>(args)...);     \
    } else {                                                                            \
      static_assert(dependent_false<P, A...>,                                           \
                    "pscan::" #name ": this policy's backend does not implement " #name \
                    " for these argument types (no overload in the policy's namespace)"); \
    }                                                                                   \
  }                                                                                     \
  }

// An algorithm's dispatch and its tag, written beside its entry (PSCAN_DETAIL_ALGORITHM(name,
// lifting) in the entry's header): the tag names it to the exact_algorithm hook (backend_call),
// reaches the backend's own (own_or) and names how it runs over exact sums (exact.hpp).
#define PSCAN_DETAIL_ALGORITHM(name, lifting)                         \
  PSCAN_DETAIL_DISPATCH(name)                                         \
  namespace algorithm {                                               \
  struct name {                                                       \
    using exact_lifting = lifting;                                    \
    template <class P, class... A>                                    \
    static constexpr bool available = adl_##name::available<P, A...>; \
    template <class P, class... A>                                    \
    static decltype(auto) call(const P& policy, A&&... args) {        \
      return adl_##name::call(policy, std::forward<A>(args)...);      \
    }                                                                 \
  };                                                                  \
  }

PSCAN_DETAIL_DISPATCH(check_iterator)
PSCAN_DETAIL_DISPATCH(exact_algorithm)

template <class T>
struct exact_sum;
template <class T>
inline constexpr bool is_exact_sum_v = false;
template <class T>
inline constexpr bool is_exact_sum_v<exact_sum<T>> = true;

// Whether a call with operator Op over accumulator type A sums exactly (pscan::exact_plus).
template <class Op, class A>
inline constexpr bool exact_call_v =
    (std::is_same_v<Op, exact_plus<>> || std::is_same_v<Op, exact_plus<A>>) &&
    (std::is_same_v<A, float> || std::is_same_v<A, double>);

// Where every algorithm meets its backend, after its checks: call(op, args...) runs it. A call
// with exact_plus over float or double A goes to the backend's hook
// exact_algorithm(policy, algorithm::<name>{}, args...) where it has one (kernels of its own over
// the values), and otherwise runs `call` over exact sums (exact_lifting, exact.hpp): the generic
// path, which every backend holding values of any type can take.
template <class A, class Tag, class P, class Op, class Call, class... Args>
decltype(auto) backend_call(const P& policy, Tag tag, Op op, Call&& call, Args... args) {
  if constexpr (!exact_call_v<Op, A>) {
    return call(op, args...);
  } else if constexpr (adl_exact_algorithm::available<P, Tag, Args...>) {
    return adl_exact_algorithm::call(policy, tag, args...);
  } else {
    return Tag::exact_lifting::template run<A>(policy, call, args...);
  }
}

// Where an algorithm has a generic path (a segmented scan over any scan, reduce_by_key over
// any segmented scan): the backend's own algorithm Tag over args where it has one, else
// generic(args...). A collective policy has its own: no rank runs a generic path alone.
template <class Tag, class P, class Generic, class... Args>
decltype(auto) own_or(const P& policy, const Generic& generic, Args... args) {
  if constexpr (is_collective_policy_v<P> || Tag::template available<P, Args...>) {
    return Tag::call(policy, args...);
  } else {
    return generic(args...);
  }
}

// Runs an entry's backend call run() and returns where the output ends: `end` on a
// single-process policy, whose backend returns nothing; a collective policy's backend returns
// its rank's end itself.
template <class P, class End, class Run>
auto ends_at(const P&, End end, const Run& run) {
  if constexpr (is_collective_policy_v<P>) {
    return run();
  } else {
    run();
    return end;
  }
}

// own_or for an algorithm whose single-process backends return nothing (ends_at).
template <class Tag, class P, class End, class Generic, class... Args>
auto own_or_to(const P& policy, End end, const Generic& generic, Args... args) {
  return ends_at(policy, end, [&] { return own_or<Tag>(policy, generic, args...); });
}

// The checks below are a single-process policy's, done before the backend call. A collective
// policy's backend receives the call unchecked and checks on every rank (policy.hpp): the
// checks do nothing for it, and a distance is taken as it is.

// Whether an entry over n elements (or segments) returns at once: nothing to do on a
// single-process policy (every rank of a collective one takes part in every call).
template <class P>
bool nothing_to_do(const P&, std::int64_t n) {
  return !is_collective_policy_v<P> && n <= 0;
}

// The checks of an iterator argument over n elements (-1: a count the call learns later, from
// the offsets), before any work: on every policy a null raw pointer with n > 0 throws
// pscan::invalid_argument (with n = -1 the backend checks once it knows the count); then the
// optional backend hook check_iterator throws for iterators that backend cannot use (a host
// pointer given to a CUDA policy). Named apart from the hook: argument-dependent lookup on
// iterators from this namespace (index_iterator) must not find it in place of the backend's.
template <class P, class It>
void check_argument(const P& policy, const char* algorithm, const char* argument, It it,
                    std::int64_t n) {
  if constexpr (is_collective_policy_v<P>) return;
  if (n > 0 && is_null_pointer(it)) throw null_pointer_error(algorithm, argument, n);
  if constexpr (adl_check_iterator::available<P, const char*, const char*, It, std::int64_t>) {
    adl_check_iterator::call(policy, algorithm, argument, it, n);
  }
}

template <class P>
constexpr void require_policy() {
  static_assert(is_execution_policy_v<P>,
                "pscan: the first argument must be an execution policy such as pscan::seq, "
                "pscan::omp, pscan::cuda_multipass or pscan::cuda_chained");
}

template <class It>
constexpr void require_random_access() {
  static_assert(std::is_base_of_v<std::random_access_iterator_tag,
                                  typename std::iterator_traits<It>::iterator_category>,
                "pscan: iterators must be random access (pointers, vector iterators, or fancy "
                "random-access iterators)");
}

template <class It>
using value_type_t = typename std::iterator_traits<It>::value_type;

// Whether f(a, b) is callable on two values of A. An extended __device__ lambda (nvcc
// --extended-lambda) cannot be queried from host code: it is taken on trust.
template <class F, class A>
constexpr bool callable_on_pair() {
#if defined(__CUDACC_EXTENDED_LAMBDA__)
  if constexpr (__nv_is_extended_device_lambda_closure_type(F)) return true;
#endif
  return std::is_invocable_v<const F&, const A&, const A&>;
}

// Whether a call's policy and operator (over accumulator type A) are of the right kind. A
// static_assert says what is not, and the public entry then returns before instantiating any
// backend code, so that message is the only one.
template <class P, class Op, class A>
constexpr bool accepts() {
  require_policy<P>();
  static_assert(callable_on_pair<Op, A>(),
                "pscan: `op` must be callable as op(a, b) on two values of the accumulator type "
                "(the input's value_type, or the type of `init` when one is given)");
  // An exact sum (exact_plus's generic path) is 40 to 300 bytes: not a value for the GPU kernels
  // (the CUDA policies, which read future_value inits, run exact_plus by the exact_algorithm hook).
  constexpr bool holds = !is_exact_sum_v<A> || !policy_takes_future_values_v<P>;
  static_assert(holds,
                "pscan::exact_plus: the CUDA policies take it with kernels of their own, not "
                "as exact sums: pscan::distributed takes it over the CPU policies");
  return is_execution_policy_v<P> && callable_on_pair<Op, A>() && holds;
}

// accepts() for a call with an `init`: the accumulator is the init's value type, and a
// future_value init needs a policy that reads it on the device.
template <class P, class Op, class Init>
constexpr bool accepts_init() {
  constexpr bool readable = !is_future_value_v<Init> || policy_takes_future_values_v<P>;
  static_assert(readable,
                "pscan: a pscan::future_value init is read on the device: only the CUDA policies "
                "take it (give this policy the value itself)");
  return readable && accepts<P, Op, init_value_t<Init>>();
}

template <class KeyEq, class Key>
constexpr bool accepts_keys() {
  static_assert(callable_on_pair<KeyEq, Key>(),
                "pscan: `eq` must be callable as eq(a, b) on two keys");
  return callable_on_pair<KeyEq, Key>();
}

// last - first; throws pscan::invalid_argument naming the algorithm and the arguments when
// last < first.
template <class P, class It>
std::int64_t checked_distance(const P&, const char* algorithm, const char* first_name,
                              const char* last_name, It first, It last) {
  require_random_access<It>();
  const std::int64_t n = last - first;
  if (!is_collective_policy_v<P> && n < 0) {
    throw invalid_argument(std::string(algorithm) + ": `" + last_name + "` precedes `" +
                           first_name + "` (distance " + std::to_string(n) + ")");
  }
  return n;
}

// An iterator argument and its name, for the messages.
template <class It>
struct named {
  const char* name;
  It it;
};
template <class It>
named<It> arg(const char* name, It it) {
  return {name, it};
}

// The checks of every entry over a range [first, last): the distance (last < first throws), then
// the backend's check_iterator on first and on every other iterator, each over n elements.
// Returns n.
template <class P, class It, class... Its>
std::int64_t checked_range(const P& policy, const char* algorithm, named<It> first, named<It> last,
                           named<Its>... others) {
  const std::int64_t n =
      checked_distance(policy, algorithm, first.name, last.name, first.it, last.it);
  check_argument(policy, algorithm, first.name, first.it, n);
  (check_argument(policy, algorithm, others.name, others.it, n), ...);
  return n;
}

// check_argument on a future_value's pointer (argument "init") when the call reads the init; a
// plain init has nothing to check.
template <class P, class Init>
void check_init(const P& policy, const char* algorithm, const Init& init, bool read) {
  if constexpr (is_future_value_v<Init>) {
    check_argument(policy, algorithm, "init", init.pointer(), read ? 1 : 0);
  }
}

}  // namespace pscan::detail
