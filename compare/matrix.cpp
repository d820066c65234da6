#include "matrix.hpp"

namespace compare {

const char* name_of(target t) { return t == target::cpu ? "cpu" : "gpu"; }

const char* name_of(algorithm a) {
  switch (a) {
    case algorithm::inclusive_scan:
      return "inclusive_scan";
    case algorithm::exclusive_scan:
      return "exclusive_scan";
    case algorithm::reduce:
      return "reduce";
    case algorithm::reduce_into:
      return "reduce_into";
    case algorithm::segmented_inclusive_scan:
      return "segmented_inclusive_scan";
    case algorithm::inclusive_scan_by_key:
      return "inclusive_scan_by_key";
    case algorithm::exclusive_scan_by_key:
      return "exclusive_scan_by_key";
    case algorithm::segmented_reduce:
      return "segmented_reduce";
  }
  return "?";
}

const char* name_of(element e) {
  switch (e) {
    case element::i32:
      return "i32";
    case element::i64:
      return "i64";
    case element::f32:
      return "f32";
    case element::f64:
      return "f64";
    case element::affine:
      return "affine";
  }
  return "?";
}

std::size_t size_of(element e) {
  switch (e) {
    case element::i32:
    case element::f32:
      return 4;
    case element::i64:
    case element::f64:
      return 8;
    case element::affine:
      return 16;
  }
  return 0;
}

bool is_segmented(algorithm a) {
  return a == algorithm::segmented_inclusive_scan || uses_keys(a) ||
         a == algorithm::segmented_reduce;
}

bool uses_keys(algorithm a) {
  return a == algorithm::inclusive_scan_by_key || a == algorithm::exclusive_scan_by_key;
}

bool is_reduction(algorithm a) { return a == algorithm::reduce || a == algorithm::reduce_into; }

bool parse(const std::string& text, algorithm& out) {
  for (algorithm a : all_algorithms) {
    if (text == name_of(a)) {
      out = a;
      return true;
    }
  }
  return false;
}

bool parse(const std::string& text, element& out) {
  for (element e : all_elements) {
    if (text == name_of(e)) {
      out = e;
      return true;
    }
  }
  return false;
}

std::string format_count(std::int64_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    int log = 0;
    while ((std::int64_t{1} << log) < n) ++log;
    return "2^" + std::to_string(log);
  }
  return std::to_string(n);
}

std::string name_of(const segment_lengths& s) {
  switch (s.shape) {
    case segment_shape::none:
      return "";
    case segment_shape::uniform:
      return format_count(s.mean);
    case segment_shape::one:
      return "one";
    case segment_shape::log:
      return "log";
    case segment_shape::gaps:
      return "gaps";
  }
  return "?";
}

bool parse(const std::string& text, segment_lengths& out) {
  for (segment_shape shape : {segment_shape::one, segment_shape::log, segment_shape::gaps}) {
    if (text == name_of(segment_lengths{shape, 0})) {
      out = segment_lengths{shape, 0};
      return true;
    }
  }
  return false;
}

bool has_empty_segments(const segment_lengths& s) { return s.shape == segment_shape::gaps; }

std::int64_t traffic_bytes(const cell& c, std::int64_t segments) {
  const std::int64_t value = static_cast<std::int64_t>(size_of(c.type));
  switch (c.algo) {
    case algorithm::inclusive_scan:
    case algorithm::exclusive_scan:
      return 2 * c.n * value;
    case algorithm::reduce:
    case algorithm::reduce_into:
      return c.n * value;
    case algorithm::segmented_inclusive_scan:
      return 2 * c.n * value + c.n * static_cast<std::int64_t>(sizeof(flag_type));
    case algorithm::inclusive_scan_by_key:
    case algorithm::exclusive_scan_by_key:
      return 2 * c.n * value + c.n * static_cast<std::int64_t>(sizeof(key_type));
    case algorithm::segmented_reduce:
      return c.n * value + (segments + 1) * static_cast<std::int64_t>(sizeof(offset_type)) +
             segments * value;
  }
  return 0;
}

}  // namespace compare
