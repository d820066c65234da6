#pragma once
// What makes a type an execution policy. Each backend defines its own policy type (deriving from
// execution_policy_base) and its algorithm overloads in its own namespace; the public algorithms
// find those overloads by argument-dependent lookup on the policy type. A policy type that reads
// inits in device memory (pscan::future_value) declares `static constexpr bool
// takes_future_values = true`.

#include <type_traits>

namespace pscan {

struct execution_policy_base {};

// A policy whose calls are collective over several processes (pscan::distributed): every process
// makes every call, with empty local ranges too, and an argument one process rejects must be
// rejected by all. Its backend therefore receives each call whole: the arguments unchecked, the
// empty ranges included, and it returns the algorithm's result itself.
struct collective_policy_base : execution_policy_base {};

template <class P>
inline constexpr bool is_execution_policy_v =
    std::is_base_of_v<execution_policy_base, std::remove_cv_t<std::remove_reference_t<P>>>;

template <class P>
inline constexpr bool is_collective_policy_v =
    std::is_base_of_v<collective_policy_base, std::remove_cv_t<std::remove_reference_t<P>>>;

template <class P, class = void>
struct policy_takes_future_values : std::false_type {};
template <class P>
struct policy_takes_future_values<P, std::enable_if_t<P::takes_future_values>> : std::true_type {};

template <class P>
inline constexpr bool policy_takes_future_values_v =
    policy_takes_future_values<std::remove_cv_t<std::remove_reference_t<P>>>::value;

}  // namespace pscan
