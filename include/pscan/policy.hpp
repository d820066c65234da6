#pragma once
// What makes a type an execution policy. Each backend defines its own policy type (deriving from
// execution_policy_base) and its algorithm overloads in its own namespace; the public algorithms
// find those overloads by argument-dependent lookup on the policy type.

#include <type_traits>

namespace pscan {

struct execution_policy_base {};

template <class P>
inline constexpr bool is_execution_policy_v =
    std::is_base_of_v<execution_policy_base, std::remove_cv_t<std::remove_reference_t<P>>>;

}  // namespace pscan
