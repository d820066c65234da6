#pragma once
// The value kinds every case runs over: numbers, a user struct, two non-commutative operators,
// and a tainted type that catches operator calls on values not derived from the input. A kind
// bundles a value type, an operator, a generator and an `init` that is not the identity. All
// values keep every association order exact, so any correct policy matches bit for bit.

#include <ostream>

#include "support.hpp"

namespace conformance {

// A 12-byte user struct: its size rules out assuming 8- or 16-byte vector loads.
struct vec3 {
  std::int32_t x, y, z;
};
inline bool operator==(const vec3& a, const vec3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}
inline std::ostream& operator<<(std::ostream& o, const vec3& v) {
  return o << '(' << v.x << ", " << v.y << ", " << v.z << ')';
}
struct vec3_plus {
  CONFORMANCE_HD vec3 operator()(const vec3& a, const vec3& b) const {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
  }
};

// 2x2 matrices [[a b] [c d]] over uint32 (wrapping, so exact); the product is not commutative.
struct mat2 {
  std::uint32_t a, b, c, d;
};
inline bool operator==(const mat2& l, const mat2& r) {
  return l.a == r.a && l.b == r.b && l.c == r.c && l.d == r.d;
}
inline std::ostream& operator<<(std::ostream& o, const mat2& m) {
  return o << "[[" << m.a << ' ' << m.b << "] [" << m.c << ' ' << m.d << "]]";
}
struct mat2_product {
  CONFORMANCE_HD mat2 operator()(const mat2& l, const mat2& r) const {
    return {l.a * r.a + l.b * r.c, l.a * r.b + l.b * r.d, l.c * r.a + l.d * r.c,
            l.c * r.b + l.d * r.d};
  }
};

// The map x -> a*x + b over uint32; op(f, g) is "f, then g", which is not commutative.
struct affine {
  std::uint32_t a, b;
};
inline bool operator==(const affine& l, const affine& r) { return l.a == r.a && l.b == r.b; }
inline std::ostream& operator<<(std::ostream& o, const affine& f) {
  return o << f.a << "x+" << f.b;
}
struct affine_then {
  CONFORMANCE_HD affine operator()(const affine& f, const affine& g) const {
    return {g.a * f.a, g.a * f.b + g.b};
  }
};

// Default-constructed values are poisoned; inputs and init are clean; a result is poisoned when
// either operand was. A poisoned output means op met padding or uninitialised storage.
struct tainted {
  std::uint32_t value = 0;
  bool clean = false;
};
inline bool operator==(const tainted& l, const tainted& r) {
  return l.value == r.value && l.clean == r.clean;
}
inline bool is_poisoned(const tainted& t) { return !t.clean; }
inline std::ostream& operator<<(std::ostream& o, const tainted& t) {
  return o << t.value << (t.clean ? "" : " (poisoned)");
}
struct tainted_plus {
  CONFORMANCE_HD tainted operator()(const tainted& l, const tainted& r) const {
    return {l.value + r.value, l.clean && r.clean};
  }
};

struct int32_plus {
  using value_type = std::int32_t;
  using op_type = pscan::plus<>;
  static constexpr const char* name = "int32, plus";
  // |values| <= 100 keeps every partial sum of 2^24 values inside int32.
  static value_type make(random_source& r) { return static_cast<value_type>(r.between(-100, 100)); }
  static value_type init() { return 7; }
};

struct int64_plus {
  using value_type = std::int64_t;
  using op_type = pscan::plus<>;
  static constexpr const char* name = "int64, plus";
  static value_type make(random_source& r) {
    return r.between(-(std::int64_t{1} << 40), std::int64_t{1} << 40);
  }
  static value_type init() { return 7; }
};

struct float_plus {
  using value_type = float;
  using op_type = pscan::plus<>;
  static constexpr const char* name = "float, plus";
  // Small integers: every partial sum of 2^22 of them is exact in a float.
  static value_type make(random_source& r) { return static_cast<float>(r.between(-4, 4)); }
  static value_type init() { return 7.0f; }
};

struct int32_maximum {
  using value_type = std::int32_t;
  using op_type = pscan::maximum<>;
  static constexpr const char* name = "int32, maximum";
  static value_type make(random_source& r) {
    return static_cast<value_type>(static_cast<std::uint32_t>(r.next()));
  }
  static value_type init() { return 7; }
};

struct int64_minimum {
  using value_type = std::int64_t;
  using op_type = pscan::minimum<>;
  static constexpr const char* name = "int64, minimum";
  static value_type make(random_source& r) { return static_cast<value_type>(r.next()); }
  static value_type init() { return 7; }
};

struct vec3_sum {
  using value_type = vec3;
  using op_type = vec3_plus;
  static constexpr const char* name = "user struct vec3, componentwise plus";
  static value_type make(random_source& r) {
    return {static_cast<std::int32_t>(r.between(-100, 100)),
            static_cast<std::int32_t>(r.between(-100, 100)),
            static_cast<std::int32_t>(r.between(-100, 100))};
  }
  static value_type init() { return {7, -7, 1}; }
};

struct mat2_chain {
  using value_type = mat2;
  using op_type = mat2_product;
  static constexpr const char* name = "2x2 uint32 matrix, product";
  static value_type make(random_source& r) {
    const std::uint64_t a = r.next(), b = r.next();
    return {std::uint32_t(a), std::uint32_t(a >> 32), std::uint32_t(b), std::uint32_t(b >> 32)};
  }
  static value_type init() { return {2, 1, 1, 1}; }
};

struct affine_chain {
  using value_type = affine;
  using op_type = affine_then;
  static constexpr const char* name = "affine map, composition";
  static value_type make(random_source& r) {
    const std::uint64_t bits = r.next();
    return {std::uint32_t(bits), std::uint32_t(bits >> 32)};
  }
  static value_type init() { return {3, 7}; }
};

struct tainted_sum {
  using value_type = tainted;
  using op_type = tainted_plus;
  static constexpr const char* name = "tainted struct, plus";
  static value_type make(random_source& r) { return {std::uint32_t(r.next()), true}; }
  static value_type init() { return {7, true}; }
};

// The transform of every value kind (transform_ algorithms): x op x, a value of the kind derived
// from one input element only (for a non-commutative op, a composition of x with itself).
template <class Op>
struct self_combined {
  Op op;
  template <class T>
  CONFORMANCE_HD T operator()(const T& x) const {
    return op(x, x);
  }
};

template <class... Kinds>
struct kind_list {};

using all_kinds = kind_list<int32_plus, int64_plus, float_plus, int32_maximum, int64_minimum,
                            vec3_sum, mat2_chain, affine_chain, tainted_sum>;

// Calls fn(kind, n) for every kind and size, with both in the failure messages.
template <class... Kinds, class Fn>
void for_each_kind_and_size(kind_list<Kinds...>, const std::vector<std::int64_t>& sizes, Fn&& fn) {
  const auto run_kind = [&](auto kind) {
    const std::string kind_name = decltype(kind)::name;  // doctest prints a char* as a pointer
    INFO("values: ", kind_name);
    for (std::int64_t n : sizes) {
      INFO("n = ", n);
      fn(kind, n);
    }
  };
  (run_kind(Kinds{}), ...);
}

}  // namespace conformance
