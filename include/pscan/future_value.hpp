#pragma once
// An init that lives in device memory. pscan::future_value(ptr) hands an algorithm the address
// of its init instead of the value; the kernel reads *ptr when it runs, so the init may be the
// result of earlier work on the stream (a reduce_into, say) that the host never waited for.
// Only policies that read inits on the device take one (the CUDA policies:
// pscan::policy_takes_future_values_v); elsewhere the call fails to compile with a
// static_assert.

#include <pscan/detail/config.hpp>

#include <type_traits>

namespace pscan {

template <class T>
class future_value {
 public:
  using value_type = T;

  // `pointer`: device-accessible memory that holds the value once the work queued before the
  // call is done (stream order), and that the call itself does not write.
  PSCAN_HOST_DEVICE constexpr explicit future_value(const T* pointer) noexcept
      : pointer_(pointer) {}

  PSCAN_HOST_DEVICE constexpr const T* pointer() const noexcept { return pointer_; }

  // The value, in device memory: what a kernel reads (see detail::init_traits), never the host.
  PSCAN_HOST_DEVICE explicit operator const T&() const { return *pointer_; }

 private:
  const T* pointer_;
};

namespace detail {

// How an algorithm sees its `init`: a value, or a deferred init (future_value, and what the
// generic segmented path builds of one) that converts to its value where the kernel runs. Code
// that runs on the device reads an init of value type A as static_cast<const A&>(init): for a
// value, a cast that does nothing, so a kernel given one compiles to the code it had when it
// named its parameter directly (a helper function in between changes the optimiser's choices,
// and with them the machine code); for a deferred init, the read.
template <class Init>
struct init_traits {
  using value_type = Init;
  static constexpr bool deferred = false;
};
template <class T>
struct init_traits<future_value<T>> {
  using value_type = T;
  static constexpr bool deferred = true;
};

// The accumulator type of a call with this init.
template <class Init>
using init_value_t = typename init_traits<Init>::value_type;

template <class Init>
inline constexpr bool is_deferred_init_v = init_traits<Init>::deferred;

// An init kept in device code to be read later: a value by reference (the kernel's parameter, so
// the kernel compiles as if it named it), a deferred init by value, read once where it is kept
// (no address held in registers until then, and no reload after every store that might alias it).
template <class Init>
using kept_init_t = std::conditional_t<is_deferred_init_v<Init>, const init_value_t<Init>,
                                       const init_value_t<Init>&>;

template <class Init>
inline constexpr bool is_future_value_v = false;
template <class T>
inline constexpr bool is_future_value_v<future_value<T>> = true;

}  // namespace detail
}  // namespace pscan
