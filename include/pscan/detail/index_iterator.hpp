#pragma once
// A random-access iterator over positions 0, 1, 2, ... whose element at i is f(i). With an f that
// returns a value it is an input iterator; with one that returns a write proxy, an output iterator.
// The generic segmented algorithms build their (value, head) inputs and outputs from it, on host
// and device alike: the members that copy or call f call host code only from their host side.

#include <pscan/detail/config.hpp>

#include <cstdint>
#include <iterator>
#include <type_traits>

namespace pscan::detail {

template <class F>
class index_iterator {
 public:
  using difference_type = std::int64_t;
  using reference = decltype(std::declval<const F&>()(difference_type{}));
  using value_type = std::remove_cv_t<std::remove_reference_t<reference>>;
  using pointer = void;
  using iterator_category = std::random_access_iterator_tag;

  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE index_iterator(F f, difference_type i = 0) : f_(f), i_(i) {}

  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE reference operator*() const { return f_(i_); }
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE reference operator[](difference_type d) const { return f_(i_ + d); }

  PSCAN_HOST_DEVICE index_iterator& operator++() { ++i_; return *this; }
  PSCAN_HOST_DEVICE index_iterator& operator--() { --i_; return *this; }
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE index_iterator operator++(int) { auto t = *this; ++i_; return t; }
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE index_iterator operator--(int) { auto t = *this; --i_; return t; }
  PSCAN_HOST_DEVICE index_iterator& operator+=(difference_type d) { i_ += d; return *this; }
  PSCAN_HOST_DEVICE index_iterator& operator-=(difference_type d) { i_ -= d; return *this; }
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE index_iterator operator+(difference_type d) const { return {f_, i_ + d}; }
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE index_iterator operator-(difference_type d) const { return {f_, i_ - d}; }
  PSCAN_CALLS_WHAT_IT_IS_GIVEN
  PSCAN_HOST_DEVICE friend index_iterator operator+(difference_type d, const index_iterator& it) {
    return it + d;
  }
  PSCAN_HOST_DEVICE difference_type operator-(const index_iterator& o) const { return i_ - o.i_; }

  PSCAN_HOST_DEVICE bool operator==(const index_iterator& o) const { return i_ == o.i_; }
  PSCAN_HOST_DEVICE bool operator!=(const index_iterator& o) const { return i_ != o.i_; }
  PSCAN_HOST_DEVICE bool operator<(const index_iterator& o) const { return i_ < o.i_; }
  PSCAN_HOST_DEVICE bool operator>(const index_iterator& o) const { return i_ > o.i_; }
  PSCAN_HOST_DEVICE bool operator<=(const index_iterator& o) const { return i_ <= o.i_; }
  PSCAN_HOST_DEVICE bool operator>=(const index_iterator& o) const { return i_ >= o.i_; }

  PSCAN_HOST_DEVICE const F& function() const { return f_; }
  PSCAN_HOST_DEVICE difference_type position() const { return i_; }

 private:
  F f_;
  difference_type i_;
};

// How many input values one element of an iterator stands for (1 but for the exact sums of
// blocks, exact.hpp): the CPU backends size their teams and chunks by values.
template <class It>
inline constexpr std::int64_t element_values_v = 1;

template <class F>
PSCAN_HOST_DEVICE index_iterator<F> make_index_iterator(F f, std::int64_t i = 0) {
  return {f, i};
}

}  // namespace pscan::detail
