#pragma once
// The two exception types of pscan. Nothing here needs CUDA headers: a cuda_error keeps the
// cudaError_t as its integer value; read it back with `e.code<cudaError_t>()`.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace pscan {

// Bad arguments, detected before any work is launched or any output written.
class invalid_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A failed CUDA runtime call or kernel launch.
class cuda_error : public std::runtime_error {
 public:
  cuda_error(int code, std::string error_name, std::string call, std::string file, int line,
             const std::string& description)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + call + " failed: " +
                           error_name + " (" + description + ")"),
        code_(code),
        error_name_(std::move(error_name)),
        call_(std::move(call)),
        file_(std::move(file)),
        line_(line) {}

  template <class Code = int>
  Code code() const noexcept {
    return static_cast<Code>(code_);
  }
  const std::string& error_name() const noexcept { return error_name_; }
  const std::string& call() const noexcept { return call_; }
  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

 private:
  int code_;
  std::string error_name_;
  std::string call_;
  std::string file_;
  int line_;
};

namespace detail {

// The error for a null raw pointer given as `argument` over n elements (n < 0: a count the offsets
// give, not read yet).
inline invalid_argument null_pointer_error(const char* algorithm, const char* argument,
                                           std::int64_t n) {
  return invalid_argument(std::string(algorithm) + ": `" + argument + "` is a null pointer" +
                          (n >= 0 ? " with n = " + std::to_string(n) : std::string()));
}

// True for a null raw pointer; an iterator of any other kind is never null.
template <class It>
constexpr bool is_null_pointer(const It& it) {
  if constexpr (std::is_pointer_v<It>) {
    return it == nullptr;
  } else {
    return false;
  }
}

}  // namespace detail
}  // namespace pscan
