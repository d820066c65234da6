#pragma once
// The memory of the host fixtures: data in std::vector; upload copies, the policy runs
// synchronously, download copies back.

#include <utility>
#include <vector>

namespace conformance {

template <class T>
class host_buffer {
 public:
  explicit host_buffer(std::vector<T> values) : values_(std::move(values)) {}
  T* begin() { return values_.data(); }
  T* end() { return values_.data() + values_.size(); }
  const std::vector<T>& values() const { return values_; }

 private:
  std::vector<T> values_;
};

struct host_memory {
  template <class T>
  static host_buffer<T> upload(const std::vector<T>& values) {
    return host_buffer<T>(values);
  }
  template <class T>
  static std::vector<T> download(const host_buffer<T>& buffer) {
    return buffer.values();
  }
};

}  // namespace conformance
