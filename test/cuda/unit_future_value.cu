// pscan::future_value and reduce_into on every CUDA policy. An init in device memory gives the
// same results as the value itself in every algorithm that takes an init (n = 0 included, where
// reduce and reduce_into still read it); reduce_into gives reduce's bits; a captured graph reads
// the init's current value on every replay; and reduce_into chained into an exclusive scan whose
// init is its result, captured as one graph on a non-default stream, replays over new input with
// no host in between. With exact_plus, an init in device memory gives what the value gives (the
// value's results are checked against an exact reference in conformance/exact_cases.hpp), in a
// captured graph too.

#include "conformance/exact_cases.hpp"
#include "conformance/reference.hpp"
#include "conformance/segments.hpp"
#include "conformance/value_kinds.hpp"
#include "device_fixture.cuh"
#include "stream_support.cuh"

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace conformance {
namespace {

// Empty, one block, a cluster, the chained kernel's small and large tiles, multi-pass levels.
std::vector<std::int64_t> init_sizes() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n : {0, 1, 1000, 40000, 100003, 300001, (1 << 22) + 3}) {
    if (n <= size_cap()) sizes.push_back(n);
  }
  return sizes;
}

// Several 32-bit ints, a non-commutative 8-byte map, 16-byte matrices, and the tainted type
// (any operator call on a value not read from the input or the init shows).
using init_kinds = kind_list<int32_plus, affine_chain, mat2_chain, tainted_sum>;

// Every algorithm with an init, for kind K over n elements: run(out, init) with the value and
// with a future_value of it write the same outputs, and those are the reference's.
template <class F, class K>
void check_every_algorithm(random_source& random, std::int64_t n) {
  using T = typename K::value_type;
  const typename K::op_type op{};
  const T init = K::init();
  auto init_on_device = F::upload(std::vector<T>{init});
  const auto future = pscan::future_value(init_on_device.begin());
  const auto p = F::policy();

  const auto input = make_values<K>(random, n);
  const auto flags = make_head_flags(random, n, 16);
  const auto keys = make_keys(random, n, 16);
  const auto offsets = make_offsets<std::int64_t>(random, n, offsets_layout::mixed);
  auto in = F::upload(input);
  auto flags_in = F::upload(flags);
  auto keys_in = F::upload(keys);
  auto offsets_in = F::upload(offsets);

  const auto both = [&](const char* algorithm, const std::vector<T>& expected, auto run) {
    const std::string name = algorithm;  // doctest prints a char* as a pointer
    INFO(name);
    auto with_value = F::upload(make_values<K>(random, static_cast<std::int64_t>(expected.size())));
    auto with_future =
        F::upload(make_values<K>(random, static_cast<std::int64_t>(expected.size())));
    run(with_value.begin(), init);
    run(with_future.begin(), future);
    const auto from_value = F::download(with_value);
    check_equal(expected, from_value);
    check_equal(from_value, F::download(with_future));
  };

  both("inclusive_scan with init", expected_inclusive_scan(input, op, init), [&](T* out, auto i) {
    pscan::inclusive_scan(p, in.begin(), in.end(), out, op, i);
  });
  both("exclusive_scan", expected_exclusive_scan(input, init, op), [&](T* out, auto i) {
    pscan::exclusive_scan(p, in.begin(), in.end(), out, i, op);
  });
  both("reduce_into", {expected_reduce(input, init, op)}, [&](T* out, auto i) {
    pscan::reduce_into(p, in.begin(), in.end(), out, i, op);
  });
  both("segmented_exclusive_scan",
       expected_segmented_exclusive_scan(input, heads_from_flags(flags), init, op),
       [&](T* out, auto i) {
         pscan::segmented_exclusive_scan(p, in.begin(), in.end(), flags_in.begin(), out, i, op);
       });
  both("exclusive_scan_by_key",
       expected_segmented_exclusive_scan(input, heads_from_keys(keys, pscan::equal_to<>{}), init,
                                         op),
       [&](T* out, auto i) {
         pscan::exclusive_scan_by_key(p, keys_in.begin(), keys_in.end(), in.begin(), out, i, op);
       });
  both("segmented_reduce", expected_segmented_reduce(input, offsets, init, op),
       [&](T* out, auto i) {
         pscan::segmented_reduce(p, in.begin(), offsets_in.begin(), offsets_in.end(), out, i, op);
       });
  INFO("reduce");
  const T total = pscan::reduce(p, in.begin(), in.end(), init, op);
  check_equal(std::vector{expected_reduce(input, init, op)}, std::vector{total});
  check_equal(std::vector{total}, std::vector{pscan::reduce(p, in.begin(), in.end(), future, op)});
}

}  // namespace
}  // namespace conformance

TEST_CASE_TEMPLATE_DEFINE("an init in device memory gives what the value gives", F,
                          every_algorithm_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_kind_and_size(init_kinds{}, init_sizes(), [&](auto kind, std::int64_t n) {
    check_every_algorithm<F, decltype(kind)>(random, n);
  });
}

// Floats of mixed magnitudes round differently under different association orders: reduce_into
// matches reduce bit for bit only if it combines in the same order.
TEST_CASE_TEMPLATE_DEFINE("reduce_into gives reduce's bits", F, same_bits_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for (std::int64_t n :
       {std::int64_t{1}, std::int64_t{1000}, capped(100003), capped((1 << 22) + 3)}) {
    INFO("n = ", n);
    std::vector<float> input(static_cast<std::size_t>(n));
    for (float& v : input) {
      v = std::ldexp(float(random.between(1, 1 << 23)), int(random.between(-40, 0)));
    }
    auto in = F::upload(input);
    auto result = F::upload(std::vector<float>{-1.0f});
    const float total = pscan::reduce(F::policy(), in.begin(), in.end(), 0.5f);
    pscan::reduce_into(F::policy(), in.begin(), in.end(), result.begin(), 0.5f);
    const float into = F::download(result)[0];
    CHECK(std::memcmp(&total, &into, sizeof total) == 0);
  }
}

namespace conformance {
namespace {

// exclusive_scan, reduce_into and exclusive_scan_by_key of `input` (segments: `keys`) from an
// init in device memory, on a stream of their own, captured once as one graph; run(value)
// replays it from that init.
template <class F, class T, class Op>
struct init_graph {
  using policy_type = decltype(F::policy().on(std::declval<cudaStream_t>()));
  owned_stream stream;
  device_buffer<T> in, scanned, by_key, result, init;
  device_buffer<std::int32_t> keys_in;
  policy_type p;
  bool loaded;  // the input and keys copied before the capture begins
  captured_graph graph;

  init_graph(const std::vector<T>& input, const std::vector<std::int32_t>& keys, Op op)
      : in(input.size()),
        scanned(input.size()),
        by_key(input.size()),
        result(1),
        init(1),
        keys_in(keys.size()),
        p(F::policy().on(stream.get())),
        loaded((copy_to_device(in.begin(), input, stream.get()),
                copy_to_device(keys_in.begin(), keys, stream.get()), true)),
        graph(stream.get(), [&] {
          const auto future = pscan::future_value(init.begin());
          pscan::exclusive_scan(p, in.begin(), in.end(), scanned.begin(), future, op);
          pscan::reduce_into(p, in.begin(), in.end(), result.begin(), future, op);
          pscan::exclusive_scan_by_key(p, keys_in.begin(), keys_in.end(), in.begin(),
                                       by_key.begin(), future, op);
        }) {}

  void run(const T& value) {
    copy_to_device(init.begin(), std::vector<T>{value}, stream.get());
    graph.launch(stream.get());
  }
  std::vector<T> host(device_buffer<T>& b, std::size_t size) {
    return copy_to_host(b.begin(), size, stream.get());
  }
};

}  // namespace
}  // namespace conformance

// One graph, captured once, reads the init where it lies each time it runs.
TEST_CASE_TEMPLATE_DEFINE("a captured graph reads the init's current value", F, graph_init_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  using K = affine_chain;
  using T = K::value_type;
  const K::op_type op{};
  const std::int64_t n = capped((1 << 20) + 3);
  const auto input = make_values<K>(random, n);
  const auto keys = make_keys(random, n, 64);
  init_graph<F, T, K::op_type> g(input, keys, op);
  for (int replay = 0; replay < 2; ++replay) {
    INFO("replay ", replay);
    const T value = K::make(random);
    g.run(value);
    check_equal(expected_exclusive_scan(input, value, op), g.host(g.scanned, input.size()));
    check_equal(std::vector{expected_reduce(input, value, op)}, g.host(g.result, 1));
    check_equal(expected_segmented_exclusive_scan(
                    input, heads_from_keys(keys, pscan::equal_to<>{}), value, op),
                g.host(g.by_key, input.size()));
  }
}

// reduce_into(a) -> reduce_into(b, init: that result) -> exclusive_scan(c, init: the total of
// a and b): each step's init is the previous step's result, in device memory, and the graph runs
// them with no host in between; new input is copied into the same buffers between replays.
TEST_CASE_TEMPLATE_DEFINE("reduce_into and a scan from its result, captured as one graph", F,
                          graph_chain_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  using K = affine_chain;
  using T = K::value_type;
  const K::op_type op{};
  const std::int64_t na = capped(300001), nb = capped(1000), nc = capped((1 << 21) + 5);
  owned_stream stream;
  device_buffer<T> a(static_cast<std::size_t>(na)), b(static_cast<std::size_t>(nb)),
      c(static_cast<std::size_t>(nc)), out(static_cast<std::size_t>(nc)), sum_a(1), total(1);
  const auto p = F::policy().on(stream.get());
  const T init = K::init();
  const captured_graph graph(stream.get(), [&] {
    pscan::reduce_into(p, a.begin(), a.end(), sum_a.begin(), init, op);
    pscan::reduce_into(p, b.begin(), b.end(), total.begin(), pscan::future_value(sum_a.begin()),
                       op);
    pscan::exclusive_scan(p, c.begin(), c.end(), out.begin(), pscan::future_value(total.begin()),
                          op);
  });
  for (int replay = 0; replay < 3; ++replay) {
    INFO("replay ", replay);
    const auto host_a = make_values<K>(random, na);
    const auto host_b = make_values<K>(random, nb);
    const auto host_c = make_values<K>(random, nc);
    copy_to_device(a.begin(), host_a, stream.get());
    copy_to_device(b.begin(), host_b, stream.get());
    copy_to_device(c.begin(), host_c, stream.get());
    graph.launch(stream.get());
    const T want_a = expected_reduce(host_a, init, op);
    const T want_total = expected_reduce(host_b, want_a, op);
    check_equal(std::vector{want_a}, copy_to_host(sum_a.begin(), 1, stream.get()));
    check_equal(std::vector{want_total}, copy_to_host(total.begin(), 1, stream.get()));
    check_equal(expected_exclusive_scan(host_c, want_total, op),
                copy_to_host(out.begin(), host_c.size(), stream.get()));
  }
}

// f(random, n) for float and double values of cancelling magnitudes, at sizes from empty to
// many GPU tiles.
template <class F>
void for_each_exact_size(conformance::random_source& random, F&& f) {
  for (std::int64_t n : {0, 1, 1000, 4097, 100003}) {
    INFO("n = ", n);
    f(random, conformance::exact_values<float>(random, conformance::capped(n),
                                               conformance::exact_family::cancelling));
    f(random, conformance::exact_values<double>(random, conformance::capped(n),
                                                conformance::exact_family::cancelling));
  }
}

TEST_CASE_TEMPLATE_DEFINE("exact_plus: an init in device memory gives what the value gives", F,
                          exact_init_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  for_each_exact_size(random, [&](random_source& random, const auto& input) {
    using T = typename std::decay_t<decltype(input)>::value_type;
    const auto n = static_cast<std::int64_t>(input.size());
    const std::string type = sizeof(T) == 4 ? "float" : "double";
    INFO(type);
    const pscan::exact_plus<> op;
    const T init = any_finite<T>(random);
    auto init_on_device = F::upload(std::vector<T>{init});
    const auto future = pscan::future_value(init_on_device.begin());
    const auto p = F::policy();
    auto in = F::upload(input);
    auto flags_in = F::upload(make_head_flags(random, n, 16));
    auto keys_in = F::upload(make_keys(random, n, 16));
    const auto offsets = make_offsets<std::int64_t>(random, n, offsets_layout::mixed);
    auto offsets_in = F::upload(offsets);
    const auto both = [&](const char* algorithm, std::size_t size, auto run) {
      const std::string name = algorithm;  // doctest prints a char* as a pointer
      INFO(name);
      // The same fill: a scan by offsets writes only within offsets[0] .. offsets[m-1].
      auto with_value = F::upload(std::vector<T>(size, T(7)));
      auto with_future = F::upload(std::vector<T>(size, T(7)));
      run(with_value.begin(), init);
      run(with_future.begin(), future);
      check_equal(as_bits(F::download(with_value)), as_bits(F::download(with_future)));
    };
    both("inclusive_scan with init", input.size(), [&](T* out, auto i) {
      pscan::inclusive_scan(p, in.begin(), in.end(), out, op, i);
    });
    both("exclusive_scan", input.size(), [&](T* out, auto i) {
      pscan::exclusive_scan(p, in.begin(), in.end(), out, i, op);
    });
    both("reduce_into", 1, [&](T* out, auto i) {
      pscan::reduce_into(p, in.begin(), in.end(), out, i, op);
    });
    both("segmented_exclusive_scan", input.size(), [&](T* out, auto i) {
      pscan::segmented_exclusive_scan(p, in.begin(), in.end(), flags_in.begin(), out, i, op);
    });
    both("exclusive_scan_by_key", input.size(), [&](T* out, auto i) {
      pscan::exclusive_scan_by_key(p, keys_in.begin(), keys_in.end(), in.begin(), out, i, op);
    });
    both("exclusive_scan_by_offsets", input.size(), [&](T* out, auto i) {
      pscan::exclusive_scan_by_offsets(p, in.begin(), offsets_in.begin(), offsets_in.end(), out,
                                       i, op);
    });
    both("segmented_reduce", offsets.size() - 1, [&](T* out, auto i) {
      pscan::segmented_reduce(p, in.begin(), offsets_in.begin(), offsets_in.end(), out, i, op);
    });
    INFO("reduce");
    check_equal(as_bits(std::vector{pscan::reduce(p, in.begin(), in.end(), init, op)}),
                as_bits(std::vector{pscan::reduce(p, in.begin(), in.end(), future, op)}));
  });
}

// One graph of exact_plus calls, captured once, reads the init where it lies each time it runs.
TEST_CASE_TEMPLATE_DEFINE("exact_plus: a captured graph reads the init's current value", F,
                          exact_graph_case) {
  using namespace conformance;
  CONFORMANCE_SEEDED_RANDOM(random);
  using T = double;
  const pscan::exact_plus<> op;
  const std::int64_t n = capped((1 << 20) + 3);
  const auto input = exact_values<T>(random, n, exact_family::cancelling);
  const auto keys = make_keys(random, n, 64);
  init_graph<F, T, pscan::exact_plus<>> g(input, keys, op);
  device_buffer<T> expected(input.size());
  const auto bits = [&](device_buffer<T>& b, std::size_t size) { return as_bits(g.host(b, size)); };
  for (int replay = 0; replay < 2; ++replay) {
    INFO("replay ", replay);
    const T value = any_finite<T>(random);
    g.run(value);
    // The same calls given the value, outside the graph.
    pscan::exclusive_scan(g.p, g.in.begin(), g.in.end(), expected.begin(), value, op);
    check_equal(bits(expected, input.size()), bits(g.scanned, input.size()));
    pscan::reduce_into(g.p, g.in.begin(), g.in.end(), expected.begin(), value, op);
    check_equal(bits(expected, 1), bits(g.result, 1));
    pscan::exclusive_scan_by_key(g.p, g.keys_in.begin(), g.keys_in.end(), g.in.begin(),
                                 expected.begin(), value, op);
    check_equal(bits(expected, input.size()), bits(g.by_key, input.size()));
  }
}

TEST_CASE_TEMPLATE_INVOKE(every_algorithm_case, CUDA_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(exact_init_case, CUDA_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(exact_graph_case, CUDA_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(same_bits_case, CUDA_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(graph_init_case, CUDA_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(graph_chain_case, CUDA_FIXTURES);

#if PSCAN_TEST_CUDA_CHAINED
// cuda_chained's reduce_into is one kernel (the graph holds no other), for n = 0 too.
TEST_CASE("cuda_chained's reduce_into is one kernel launch") {
  using namespace conformance;
  owned_stream stream;
  const auto p = pscan::cuda_chained.on(stream.get());
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{5}, capped((1 << 24) + 1)}) {
    INFO("n = ", n);
    device_buffer<std::int32_t> in(static_cast<std::size_t>(n)), result(1);
    PSCAN_CUDA_CHECK(
        cudaMemsetAsync(in.begin(), 0, in.size() * sizeof(std::int32_t), stream.get()));
    const captured_graph graph(stream.get(), [&] {
      pscan::reduce_into(p, in.begin(), in.end(), result.begin(), 7);
    });
    CHECK(graph.kernel_nodes() == 1);
    graph.launch(stream.get());
    CHECK(copy_to_host(result.begin(), 1, stream.get())[0] == 7);
  }
}
#endif
