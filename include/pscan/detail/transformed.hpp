#pragma once
// The input of the transform_ algorithms: element i is f(first[i]), as the accumulator type A.
// Over a raw pointer to a type of A's size, GPU kernels move the pointer's bytes as they move a
// raw pointer's (16-byte units, cp.async) and apply f on the way (tile/tile_io.cuh): the
// transform costs no memory bandwidth.

#include <pscan/detail/config.hpp>
#include <pscan/detail/index_iterator.hpp>

#include <cstdint>
#include <type_traits>

namespace pscan::detail {

template <class A, class InIt, class F>
struct transformed {
  InIt first;
  F f;
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE A operator()(std::int64_t i) const { return static_cast<A>(f(first[i])); }
};

template <class A, class InIt, class F>
index_iterator<transformed<A, InIt, F>> transform_input(InIt first, F f) {
  return {transformed<A, InIt, F>{first, f}};
}

// Whether It is a transform_ algorithm's input: a backend that names the algorithm in its
// messages names the transform_ form then.
template <class It>
inline constexpr bool is_transform_input_v = false;
template <class A, class InIt, class F>
inline constexpr bool is_transform_input_v<index_iterator<transformed<A, InIt, F>>> = true;

// Whether It reads f(p[i]) as T from a raw pointer p to trivially copyable values of T's size;
// then where its elements lie, and an element from the value there.
template <class It, class T>
struct transformed_pointer : std::false_type {};
template <class T, class U, class F>
struct transformed_pointer<index_iterator<transformed<T, U*, F>>, T>
    : std::bool_constant<sizeof(U) == sizeof(T) && std::is_trivially_copyable_v<U>> {
  using source_type = std::remove_cv_t<U>;
  using iterator = index_iterator<transformed<T, U*, F>>;
  // The value that element 0 of `it` is made from.
  PSCAN_HOST_DEVICE static const source_type* memory(const iterator& it) {
    return it.function().first + it.position();
  }
  // An element of `it` from its value `raw`.
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE static T item(const iterator& it, const source_type& raw) {
    return static_cast<T>(it.function().f(raw));
  }
};
template <class It, class T>
inline constexpr bool is_transformed_pointer_v = transformed_pointer<It, T>::value;

}  // namespace pscan::detail
