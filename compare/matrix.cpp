#include "matrix.hpp"

namespace compare {

const char* name_of(target t) { return t == target::cpu ? "cpu" : "gpu"; }

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

bool parse(const std::string& text, algorithm& out) {
  for (const algorithm_descriptor& d : algorithm_table) {
    if (text == d.name) {
      out = d.id;
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

std::int64_t output_count(algorithm a, std::int64_t n, std::int64_t segments) {
  switch (describe(a).writes) {
    case output_shape::per_element:
      return n;
    case output_shape::per_segment:
      return segments;
    case output_shape::one:
      break;
  }
  return 1;
}

std::int64_t segment_bytes(algorithm a, std::int64_t n, std::int64_t segments) {
  switch (describe(a).segments) {
    case segments_by::none:
      break;
    case segments_by::flags:
      return n * static_cast<std::int64_t>(sizeof(flag_type));
    case segments_by::keys:
      return (n + (writes_keys(a) ? segments : 0)) * static_cast<std::int64_t>(sizeof(key_type));
    case segments_by::offsets:
      return (segments + 1) * static_cast<std::int64_t>(sizeof(offset_type));
  }
  return 0;
}

std::int64_t traffic_bytes(const cell& c, std::int64_t segments) {
  const auto value = static_cast<std::int64_t>(size_of(c.type));
  const std::int64_t written = is_reduction(c.algo) ? 0 : output_count(c.algo, c.n, segments);
  return (c.n + written) * value + segment_bytes(c.algo, c.n, segments);
}

}  // namespace compare
