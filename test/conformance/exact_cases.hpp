#pragma once
// Conformance: pscan::exact_plus over float and double. Every output must be the exact real sum
// of its terms (and init) rounded once to nearest-even, bit for bit. The reference sums in
// big-integer arithmetic of its own (sign and magnitude, terms taken apart by frexp) and rounds
// through the C library's hexadecimal strtod/strtof, which round correctly: it shares no code
// with the library's accumulator. The inputs are made to defeat naive summation: full-range
// magnitudes, cancelling pairs, runs of ties, values near overflow and subnormals, infinities
// and NaN, signed zeros. Instantiate with CONFORMANCE_EXACT_CASES(fixtures...).

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "support.hpp"

namespace conformance {

// The exact sum of T values: an integer count of T's smallest subnormal, in sign and magnitude
// (32-bit words, little-endian), and the IEEE specials seen.
template <class T>
class exact_reference {
 public:
  static constexpr int digits = std::numeric_limits<T>::digits;
  // The unit: 2^-149, 2^-1074.
  static constexpr int unit_exponent = std::numeric_limits<T>::min_exponent - digits;
  // The finite range's bits, 64 of headroom for the count of terms, and a spare word.
  static constexpr int words = (std::numeric_limits<T>::max_exponent - unit_exponent + 64) / 32 + 2;

  void add(T x) {
    if (std::isnan(x)) {
      nan_ = true;
      return;
    }
    if (std::isinf(x)) {
      (x > 0 ? plus_infinity_ : minus_infinity_) = true;
      return;
    }
    all_negative_zero_ = all_negative_zero_ && x == 0 && std::signbit(x);
    if (x == 0) return;
    int exponent = 0;
    const T fraction = std::frexp(std::fabs(x), &exponent);  // |x| = fraction * 2^exponent
    auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, digits));
    int position = exponent - digits - unit_exponent;
    for (; position < 0; ++position) mantissa >>= 1;  // a subnormal: its low bits are zeros
    std::vector<std::uint32_t> term(words, 0);
    for (int bit = 0; bit < 64; ++bit) {
      if ((mantissa >> bit) & 1) {
        const int at = position + bit;
        term[static_cast<std::size_t>(at / 32)] |= std::uint32_t{1} << (at % 32);
      }
    }
    add_signed(term, x < 0);
  }

  T value() const {
    if (nan_ || (plus_infinity_ && minus_infinity_)) return std::numeric_limits<T>::quiet_NaN();
    if (plus_infinity_) return std::numeric_limits<T>::infinity();
    if (minus_infinity_) return -std::numeric_limits<T>::infinity();
    std::string hex;
    for (int w = words - 1; w >= 0; --w) {
      char digits_of_word[9];
      std::snprintf(digits_of_word, sizeof digits_of_word, "%08x",
                    static_cast<unsigned>(magnitude_[static_cast<std::size_t>(w)]));
      hex += digits_of_word;
    }
    const std::size_t first = hex.find_first_not_of('0');
    if (first == std::string::npos) return all_negative_zero_ ? T(-0.0) : T(0.0);
    const std::string text = std::string(negative_ ? "-" : "") + "0x" + hex.substr(first) + "p" +
                             std::to_string(unit_exponent);
    if constexpr (std::is_same_v<T, float>) {
      return std::strtof(text.c_str(), nullptr);
    } else {
      return std::strtod(text.c_str(), nullptr);
    }
  }

 private:
  static bool less(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    for (int w = words - 1; w >= 0; --w) {
      const auto i = static_cast<std::size_t>(w);
      if (a[i] != b[i]) return a[i] < b[i];
    }
    return false;
  }
  // a - b for a >= b, into a.
  static void subtract(std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::int64_t d = std::int64_t{a[i]} - b[i] - borrow;
      borrow = d < 0;
      a[i] = static_cast<std::uint32_t>(d + (borrow << 32));
    }
  }
  void add_signed(std::vector<std::uint32_t> term, bool negative) {
    if (negative == negative_) {
      std::uint64_t carry = 0;
      for (std::size_t i = 0; i < magnitude_.size(); ++i) {
        carry += std::uint64_t{magnitude_[i]} + term[i];
        magnitude_[i] = static_cast<std::uint32_t>(carry);
        carry >>= 32;
      }
    } else if (less(magnitude_, term)) {
      subtract(term, magnitude_);
      magnitude_ = term;
      negative_ = negative;
    } else {
      subtract(magnitude_, term);
    }
  }

  std::vector<std::uint32_t> magnitude_ = std::vector<std::uint32_t>(words, 0);
  bool negative_ = false;
  bool nan_ = false, plus_infinity_ = false, minus_infinity_ = false;
  bool all_negative_zero_ = true;
};

// Bit for bit, any NaN equal to any NaN.
template <class T>
struct exact_bits {
  T value;
  friend bool operator==(const exact_bits& a, const exact_bits& b) {
    return (std::isnan(a.value) && std::isnan(b.value)) ||
           std::memcmp(&a.value, &b.value, sizeof(T)) == 0;
  }
  friend std::ostream& operator<<(std::ostream& o, const exact_bits& b) {
    char text[64];
    std::snprintf(text, sizeof text, "%a", static_cast<double>(b.value));
    return o << text;
  }
};
template <class T>
std::vector<exact_bits<T>> as_bits(const std::vector<T>& values) {
  std::vector<exact_bits<T>> bits;
  for (const T& v : values) bits.push_back({v});
  return bits;
}

// The families of inputs, each hard for naive summation in its own way.
enum class exact_family { wide, cancelling, ties, extremes, specials, zeros, clustered, mirrored };
inline constexpr exact_family all_exact_families[] = {
    exact_family::wide,     exact_family::cancelling, exact_family::ties,
    exact_family::extremes, exact_family::specials,   exact_family::zeros,
    exact_family::clustered};
inline const char* name_of(exact_family f) {
  switch (f) {
    case exact_family::wide: return "wide";
    case exact_family::cancelling: return "cancelling";
    case exact_family::ties: return "ties";
    case exact_family::extremes: return "extremes";
    case exact_family::specials: return "specials";
    case exact_family::zeros: return "zeros";
    case exact_family::clustered: return "clustered";
    case exact_family::mirrored: return "mirrored";
  }
  return "?";
}

// Any finite T: a random sign, fraction and exponent over the whole range, subnormals included.
template <class T>
T any_finite(random_source& random) {
  constexpr int digits = std::numeric_limits<T>::digits;
  const T fraction = std::ldexp(T(random.between(0, (std::int64_t{1} << (digits - 1)) - 1) +
                                  (std::int64_t{1} << (digits - 1))),
                                -digits);
  const int exponent = static_cast<int>(random.between(
      std::numeric_limits<T>::min_exponent - digits + 1, std::numeric_limits<T>::max_exponent));
  const T x = std::ldexp(fraction, exponent);
  return random.one_in(2) ? -x : x;
}

template <class T>
std::vector<T> exact_values(random_source& random, std::int64_t n, exact_family family) {
  constexpr int digits = std::numeric_limits<T>::digits;
  const T big = std::numeric_limits<T>::max();
  const T tiny = std::numeric_limits<T>::denorm_min();
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) {
    T& x = v[i];
    switch (family) {
      case exact_family::wide:
        x = any_finite<T>(random);
        break;
      case exact_family::cancelling:  // x then -x a few places on, and small change between
        if (i >= 3 && random.one_in(2)) {
          x = -v[i - 1 - static_cast<std::size_t>(random.between(0, 2))];
        } else {
          x = std::ldexp(T(random.between(1, 1 << 20)), int(random.between(-60, 60))) *
              (random.one_in(2) ? T(1) : T(-1));
          if (random.one_in(8)) x = std::ldexp(x, int(random.between(200, 900)) % 100 + 20);
        }
        break;
      case exact_family::ties:  // 1, then halves of 1's last place: every other prefix a tie
        x = i % 97 == 0
                ? T(random.one_in(2) ? 1 : -1) * std::ldexp(T(1), int(random.between(0, 3)))
                : std::ldexp(T(random.one_in(4) ? -1 : 1), -digits + int(random.between(0, 1)));
        break;
      case exact_family::extremes:  // near overflow, near underflow, side by side
        switch (random.between(0, 5)) {
          case 0: x = big; break;
          case 1: x = -big; break;
          case 2: x = std::numeric_limits<T>::min(); break;
          case 3: x = tiny * T(random.between(1, 5)); break;
          case 4: x = -tiny; break;
          default: x = std::ldexp(T(1), std::numeric_limits<T>::max_exponent - 1 -
                                            int(random.between(0, 2)));
        }
        break;
      case exact_family::specials:
        x = random.one_in(60) ? std::numeric_limits<T>::infinity()
            : random.one_in(60) ? -std::numeric_limits<T>::infinity()
            : random.one_in(200) ? std::numeric_limits<T>::quiet_NaN()
                                 : any_finite<T>(random);
        break;
      case exact_family::zeros:  // -0 only, or with +0 now and then
        x = random.one_in(n > 40 ? 50 : 4) ? T(0.0) : T(-0.0);
        break;
      case exact_family::clustered:  // a few binades wide, now and then far below, or -0: the
                                     // floating-point fast path, and the bits it must not drop
        x = std::ldexp(T(random.between(1, 1 << 20)), int(random.between(-28, -12))) *
            (random.one_in(2) ? T(1) : T(-1));
        if (random.one_in(64)) x = std::ldexp(x, -int(random.between(30, 90)));
        if (random.one_in(97)) x = T(-0.0);
        break;
      case exact_family::mirrored:  // full fractions over hundreds of binades, then each negated,
                                    // in reverse: the sum is the odd last term, so every lower
                                    // bit of every partial sum counts
        if (i < v.size() / 2 || (v.size() % 2 == 1 && i + 1 == v.size())) {
          const int spread = sizeof(T) == 4 ? 100 : 400;
          x = std::ldexp(T(random.between(std::int64_t{1} << (digits - 1),
                                          (std::int64_t{1} << digits) - 1)),
                         int(random.between(-spread, spread)) - digits) *
              (random.one_in(2) ? T(1) : T(-1));
        } else {
          x = -v[v.size() / 2 * 2 - 1 - i];
        }
        break;
    }
  }
  return v;
}

// exact_plus as a value kind, for suites that run every kind through their cases: values of
// every magnitude up to 2^1000 (so that x + x stays finite) and halves of 1's last place.
template <class T>
struct exact_plus_kind {
  using value_type = T;
  using op_type = pscan::exact_plus<>;
  static constexpr const char* name = sizeof(T) == 4 ? "float, exact_plus" : "double, exact_plus";
  static value_type make(random_source& random) {
    constexpr int digits = std::numeric_limits<T>::digits;
    if (random.one_in(3)) return std::ldexp(T(1), -digits);
    const T x = any_finite<T>(random);
    return std::fabs(x) < std::ldexp(T(1), std::numeric_limits<T>::max_exponent - 24) ? x : T(1);
  }
  static value_type init() { return T(0.1); }
};

// A segmentation of n values, about one segment start in `every` positions: head flags (head 0
// set), keys (a run a segment) and offsets (one empty segment for n = 0).
struct exact_segments {
  std::vector<unsigned char> heads;
  std::vector<std::int32_t> keys;
  std::vector<std::int64_t> offsets;
};
inline exact_segments make_exact_segments(random_source& random, std::int64_t n, int every) {
  exact_segments s;
  for (std::int64_t i = 0; i < n; ++i) {
    const bool head = i == 0 || random.one_in(static_cast<std::uint64_t>(every));
    s.heads.push_back(head);
    s.keys.push_back((i > 0 ? s.keys.back() : 0) + head);
    if (head) s.offsets.push_back(i);
  }
  s.offsets.push_back(n);
  if (n == 0) s.offsets = {0, 0};
  return s;
}

// The reference scans: out[i] the exact sum of the segment's terms before (exclusive) or up to
// (inclusive) i, after init when given.
template <class T>
std::vector<T> exact_scan_reference(const std::vector<T>& values,
                                    const std::vector<unsigned char>& heads, bool inclusive,
                                    const typename std::vector<T>::value_type* init) {
  std::vector<T> out(values.size());
  exact_reference<T> sum;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (heads[i]) {
      sum = exact_reference<T>{};
      if (init) sum.add(*init);
    }
    if (inclusive) sum.add(values[i]);
    out[i] = sum.value();
    if (!inclusive) sum.add(values[i]);
  }
  return out;
}

template <class T>
T exact_sum_reference(const std::vector<T>& values, std::size_t from, std::size_t to,
                      const typename std::vector<T>::value_type* init) {
  exact_reference<T> sum;
  if (init) sum.add(*init);
  for (std::size_t i = from; i < to; ++i) sum.add(values[i]);
  return sum.value();
}

// f(x) = -x, on host and device: the transform forms sum the negated terms.
struct exact_negate {
  template <class T>
  CONFORMANCE_HD T operator()(T x) const {
    return -x;
  }
};

inline std::vector<std::int64_t> exact_sizes(exact_family family) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n : {0, 1, 2, 3, 33, 1021, 4097}) sizes.push_back(capped(n));
  // Many chunks and tiles: where a policy's grouping would show.
  if (family == exact_family::wide || family == exact_family::ties ||
      family == exact_family::clustered) {
    sizes.push_back(capped(12289));
  }
  return sizes;
}

// body(random, values, n) for float and double values of every family and size.
template <class Body>
void for_each_exact_input(random_source& random, Body&& body) {
  const auto run = [&](auto type) {
    using T = decltype(type);
    for (exact_family family : all_exact_families) {
      const std::string family_name = name_of(family);
      INFO("values: ", family_name, sizeof(T) == 4 ? " float" : " double");
      for (std::int64_t n : exact_sizes(family)) {
        INFO("n = ", n);
        body(random, exact_values<T>(random, n, family), n);
      }
    }
  };
  run(float{});
  run(double{});
}

}  // namespace conformance

TEST_CASE_TEMPLATE_DEFINE("exact_plus: scans", F, exact_scan_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_exact_input(random, [&](random_source& random, const auto& values, std::int64_t n) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    const pscan::exact_plus<> op;
    const T init = any_finite<T>(random);
    std::vector<unsigned char> one_segment(values.size(), 0);
    if (n > 0) one_segment[0] = 1;
    auto expected_scan = [&](const std::vector<T>& terms, bool inclusive, const T* from) {
      return as_bits(exact_scan_reference(terms, one_segment, inclusive, from));
    };
    auto in = F::upload(values);
    auto out = F::upload(std::vector<T>(values.size(), T(7)));
    const auto p = F::policy();

    CHECK(pscan::inclusive_scan(p, in.begin(), in.end(), out.begin(), op) == out.end());
    check_equal(expected_scan(values, true, nullptr), as_bits(F::download(out)));
    pscan::inclusive_scan(p, in.begin(), in.end(), out.begin(), op, init);
    check_equal(expected_scan(values, true, &init), as_bits(F::download(out)));
    CHECK(pscan::exclusive_scan(p, in.begin(), in.end(), out.begin(), init, op) == out.end());
    check_equal(expected_scan(values, false, &init), as_bits(F::download(out)));
    auto in_place = F::upload(values);
    pscan::inclusive_scan(p, in_place.begin(), in_place.end(), in_place.begin(), op);
    check_equal(expected_scan(values, true, nullptr), as_bits(F::download(in_place)));
    in_place = F::upload(values);
    pscan::exclusive_scan(p, in_place.begin(), in_place.end(), in_place.begin(), init, op);
    check_equal(expected_scan(values, false, &init), as_bits(F::download(in_place)));

    std::vector<T> negated(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) negated[i] = -values[i];
    pscan::transform_inclusive_scan(p, in.begin(), in.end(), out.begin(), op, exact_negate{});
    check_equal(expected_scan(negated, true, nullptr), as_bits(F::download(out)));
    pscan::transform_exclusive_scan(p, in.begin(), in.end(), out.begin(), init, op,
                                    exact_negate{});
    check_equal(expected_scan(negated, false, &init), as_bits(F::download(out)));
  });
  // Many blocks and tiles of every policy's.
  const auto many = [&](auto type) {
    using T = decltype(type);
    const std::int64_t n = capped((std::int64_t{1} << 16) + 1);
    INFO("values: cancelling, n = 2^16 + 1", sizeof(T) == 4 ? " float" : " double");
    const auto values = exact_values<T>(random, n, exact_family::cancelling);
    const T init = any_finite<T>(random);
    std::vector<unsigned char> one_segment(values.size(), 0);
    if (n > 0) one_segment[0] = 1;
    auto in = F::upload(values);
    auto out = F::upload(std::vector<T>(values.size(), T(7)));
    pscan::inclusive_scan(F::policy(), in.begin(), in.end(), out.begin(), pscan::exact_plus<>{});
    check_equal(as_bits(exact_scan_reference(values, one_segment, true, nullptr)),
                as_bits(F::download(out)));
    pscan::exclusive_scan(F::policy(), in.begin(), in.end(), out.begin(), init,
                          pscan::exact_plus<>{});
    check_equal(as_bits(exact_scan_reference(values, one_segment, false, &init)),
                as_bits(F::download(out)));
  };
  many(float{});
  many(double{});
}

// The reductions, also over 2^16 + 1 values (many blocks of every policy's) of three families,
// and over the mirrored family at every size: its sums need every bit of every partial sum, and
// from -0 no init hides a lost one.
TEST_CASE_TEMPLATE_DEFINE("exact_plus: reductions", F, exact_reduction_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  const auto body = [&](random_source& random, const auto& values, std::int64_t) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    const pscan::exact_plus<> op;
    const T init = any_finite<T>(random);
    auto in = F::upload(values);
    const auto p = F::policy();
    const T total = exact_sum_reference(values, 0, values.size(), &init);
    check_equal(as_bits(std::vector{total}),
                as_bits(std::vector{pscan::reduce(p, in.begin(), in.end(), init, op)}));
    // From -0, which no sum notices: an init that dwarfs the terms would hide their low bits.
    const T from_zero = T(-0.0);
    check_equal(as_bits(std::vector{exact_sum_reference(values, 0, values.size(), &from_zero)}),
                as_bits(std::vector{pscan::reduce(p, in.begin(), in.end(), from_zero, op)}));
    auto result = F::upload(std::vector<T>{T(7)});
    pscan::reduce_into(p, in.begin(), in.end(), result.begin(), init, op);
    check_equal(as_bits(std::vector{total}), as_bits(F::download(result)));
    std::vector<T> negated(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) negated[i] = -values[i];
    check_equal(as_bits(std::vector{exact_sum_reference(negated, 0, negated.size(), &init)}),
                as_bits(std::vector{pscan::transform_reduce(p, in.begin(), in.end(), init, op,
                                                            exact_negate{})}));
  };
  for_each_exact_input(random, body);
  for (const exact_family family :
       {exact_family::wide, exact_family::cancelling, exact_family::mirrored}) {
    INFO("values: ", name_of(family), ", n = 2^16 + 1");
    const std::int64_t n = capped((std::int64_t{1} << 16) + 1);
    body(random, exact_values<float>(random, n, family), n);
    body(random, exact_values<double>(random, n, family), n);
  }
  for (const std::int64_t n : exact_sizes(exact_family::mirrored)) {
    INFO("values: mirrored, n = ", n);
    body(random, exact_values<float>(random, n, exact_family::mirrored), n);
    body(random, exact_values<double>(random, n, exact_family::mirrored), n);
  }
}

// Segments of about 2 and 40 values, and of 5000: longer than a GPU tile (4096 values).
inline constexpr int exact_segment_lengths[] = {2, 40, 5000};

TEST_CASE_TEMPLATE_DEFINE("exact_plus: segmented scans", F, exact_segmented_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_exact_input(random, [&](random_source& random, const auto& values, std::int64_t n) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    const pscan::exact_plus<> op;
    const T init = any_finite<T>(random);
    const auto p = F::policy();
    for (const int every : exact_segment_lengths) {
      INFO("a segment every ", every, " elements");
      const exact_segments seg = make_exact_segments(random, n, every);
      const auto inclusive = as_bits(exact_scan_reference(values, seg.heads, true, nullptr));
      const auto exclusive = as_bits(exact_scan_reference(values, seg.heads, false, &init));
      auto in = F::upload(values);
      auto flags = F::upload(seg.heads);
      auto keys = F::upload(seg.keys);
      auto offs = F::upload(seg.offsets);
      auto out = F::upload(std::vector<T>(values.size(), T(7)));

      pscan::segmented_inclusive_scan(p, in.begin(), in.end(), flags.begin(), out.begin(), op);
      check_equal(inclusive, as_bits(F::download(out)));
      pscan::segmented_exclusive_scan(p, in.begin(), in.end(), flags.begin(), out.begin(), init,
                                      op);
      check_equal(exclusive, as_bits(F::download(out)));
      pscan::inclusive_scan_by_key(p, keys.begin(), keys.end(), in.begin(), out.begin(), op);
      check_equal(inclusive, as_bits(F::download(out)));
      pscan::exclusive_scan_by_key(p, keys.begin(), keys.end(), in.begin(), out.begin(), init,
                                   op);
      check_equal(exclusive, as_bits(F::download(out)));
      pscan::inclusive_scan_by_offsets(p, in.begin(), offs.begin(), offs.end(), out.begin(), op);
      check_equal(inclusive, as_bits(F::download(out)));
      pscan::exclusive_scan_by_offsets(p, in.begin(), offs.begin(), offs.end(), out.begin(), init,
                                       op);
      check_equal(exclusive, as_bits(F::download(out)));
      pscan::inclusive_scan_by_offsets_into(p, in.begin(), offs.begin(), offs.end(), out.begin(),
                                            op);
      check_equal(inclusive, as_bits(F::download(out)));
      pscan::exclusive_scan_by_offsets_into(p, in.begin(), offs.begin(), offs.end(), out.begin(),
                                            init, op);
      check_equal(exclusive, as_bits(F::download(out)));
      auto in_place = F::upload(values);
      pscan::segmented_inclusive_scan(p, in_place.begin(), in_place.end(), flags.begin(),
                                      in_place.begin(), op);
      check_equal(inclusive, as_bits(F::download(in_place)));
    }
  });
}

TEST_CASE_TEMPLATE_DEFINE("exact_plus: segmented_reduce", F, exact_segmented_reduce_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_exact_input(random, [&](random_source& random, const auto& values, std::int64_t n) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    const T init = any_finite<T>(random);
    for (const int every : exact_segment_lengths) {
      INFO("a segment every ", every, " elements");
      const exact_segments seg = make_exact_segments(random, n, every);
      auto in = F::upload(values);
      auto offs = F::upload(seg.offsets);
      // One sum a segment, init first: an empty segment gives init.
      std::vector<T> expected;
      for (std::size_t s = 0; s + 1 < seg.offsets.size(); ++s) {
        expected.push_back(exact_sum_reference(values, static_cast<std::size_t>(seg.offsets[s]),
                                               static_cast<std::size_t>(seg.offsets[s + 1]),
                                               &init));
      }
      auto sums = F::upload(std::vector<T>(expected.size(), T(7)));
      pscan::segmented_reduce(F::policy(), in.begin(), offs.begin(), offs.end(), sums.begin(),
                              init, pscan::exact_plus<>{});
      check_equal(as_bits(expected), as_bits(F::download(sums)));
    }
  });
}

TEST_CASE_TEMPLATE_DEFINE("exact_plus: reduce_by_key", F, exact_reduce_by_key_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_exact_input(random, [&](random_source& random, const auto& values, std::int64_t n) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    for (const int every : exact_segment_lengths) {
      INFO("a run every ", every, " elements");
      const exact_segments seg = make_exact_segments(random, n, every);
      std::vector<T> expected;
      for (std::size_t s = 0; s + 1 < seg.offsets.size() && n > 0; ++s) {
        expected.push_back(exact_sum_reference(values, static_cast<std::size_t>(seg.offsets[s]),
                                               static_cast<std::size_t>(seg.offsets[s + 1]),
                                               nullptr));
      }
      auto in = F::upload(values);
      auto keys = F::upload(seg.keys);
      auto run_keys = F::upload(std::vector<std::int32_t>(values.size(), -1));
      auto run_sums = F::upload(std::vector<T>(values.size(), T(7)));
      const auto ends = pscan::reduce_by_key(F::policy(), keys.begin(), keys.end(), in.begin(),
                                             run_keys.begin(), run_sums.begin(),
                                             pscan::equal_to<>{}, pscan::exact_plus<>{});
      const auto runs = static_cast<std::int64_t>(expected.size());
      REQUIRE(ends.second - run_sums.begin() == runs);
      CHECK(ends.first - run_keys.begin() == runs);
      check_equal(as_bits(expected), as_bits(leading(F::download(run_sums), runs)));
    }
  });
}

// The exact path keeps the algorithms' checks: bad arguments throw before anything is written.
TEST_CASE_TEMPLATE_DEFINE("exact_plus: bad ranges and offsets are rejected before any write", F,
                          exact_rejected_case) {
  using namespace conformance;
  const std::vector<double> untouched(16, 7.0);
  auto in = F::upload(std::vector<double>(16, 1.0));
  auto flags = F::upload(std::vector<unsigned char>(16, 0));
  auto bad_offsets = F::upload(std::vector<std::int64_t>{0, 8, 4, 16});
  auto out = F::upload(untouched);
  const auto p = F::policy();
  const pscan::exact_plus<> op;
  const auto first = in.begin() + 8, last = in.begin();  // last < first
  check_rejected([&] { pscan::inclusive_scan(p, first, last, out.begin(), op); },
                 {"inclusive_scan", "last"});
  check_rejected([&] { pscan::exclusive_scan(p, first, last, out.begin(), 0.5, op); },
                 {"exclusive_scan", "last"});
  check_rejected([&] { pscan::reduce(p, first, last, 0.5, op); }, {"reduce", "last"});
  check_rejected(
      [&] { pscan::segmented_inclusive_scan(p, first, last, flags.begin(), out.begin(), op); },
      {"segmented_inclusive_scan", "last"});
  check_rejected([&] {
    pscan::segmented_reduce(p, in.begin(), bad_offsets.begin(), bad_offsets.end(), out.begin(),
                            0.5, op);
  }, {"segmented_reduce", "offsets"});
  check_rejected([&] {
    pscan::inclusive_scan_by_offsets(p, in.begin(), bad_offsets.begin(), bad_offsets.end(),
                                     out.begin(), op);
  }, {"inclusive_scan_by_offsets", "offsets"});
  check_equal(untouched, F::download(out));
}

#define CONFORMANCE_EXACT_CASES(...)                                   \
  TEST_CASE_TEMPLATE_INVOKE(exact_reduction_case, __VA_ARGS__);        \
  TEST_CASE_TEMPLATE_INVOKE(exact_scan_case, __VA_ARGS__);             \
  TEST_CASE_TEMPLATE_INVOKE(exact_segmented_case, __VA_ARGS__);        \
  TEST_CASE_TEMPLATE_INVOKE(exact_segmented_reduce_case, __VA_ARGS__); \
  TEST_CASE_TEMPLATE_INVOKE(exact_reduce_by_key_case, __VA_ARGS__);    \
  TEST_CASE_TEMPLATE_INVOKE(exact_rejected_case, __VA_ARGS__)
