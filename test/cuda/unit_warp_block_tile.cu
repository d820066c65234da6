// cuda_common's warp, block, thread and tile pieces against host loops, with a non-commutative
// operator that detects any value combined out of order, twice or not at all (intervals that only
// join when adjacent), on 4-, 8-, 12- and 16-byte types, full and partial; the order-free warp
// reduction of the commutative integer operators against a host fold; and the range reduction of
// the segmented scans' lifted operators, which group freely but do not commute.

#include "device_fixture.cuh"
#include "unit_support.cuh"

#include <pscan/policies/cuda_common/block/block_scan.cuh>
#include <pscan/policies/cuda_common/grouping.cuh>
#include <pscan/policies/cuda_common/thread/thread_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>
#include <pscan/policies/cuda_common/block/block_range_reduce.cuh>
#include <pscan/policies/cuda_common/warp/warp_scan.cuh>

#include <pscan/detail/index_iterator.hpp>
#include <pscan/detail/runs.hpp>
#include <pscan/detail/segmented_generic.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>
#include <vector>

namespace {

using conformance::device_buffer;
using namespace unit_support;
namespace cu = pscan::cuda_common;

template <class T>
std::vector<T> download(const device_buffer<T>& b) {
  return conformance::device_memory::download(b);
}
template <class T>
device_buffer<T> upload_spans(long long count, long long first) {
  std::vector<T> v(count);
  for (long long i = 0; i < count; ++i) v[i] = make_interval<T>(first + i, first + i);
  return conformance::device_memory::upload(v);
}
void finish() {
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(conformance::test_stream()));
  PSCAN_CUDA_CHECK(cudaGetLastError());
}

// Warp w (of 32) scans and reduces lanes [32w + lane] fully and over its first w + 1 lanes.
template <class T>
__global__ void warp_kernel(T* scan, T* reduce, T* scan_part, T* reduce_part) {
  const int t = threadIdx.x;
  const T x = make_interval<T>(t, t);
  scan[t] = cu::warp_inclusive_scan(x, join{});
  reduce[t] = cu::warp_reduce(x, join{});
  scan_part[t] = cu::warp_inclusive_scan(x, join{}, cu::warp_id() + 1);
  reduce_part[t] = cu::warp_reduce(x, join{}, cu::warp_id() + 1);
}

// Bounded like every pscan kernel, so that the compiler keeps 1024 threads' registers in budget.
template <class T, int B>
__global__ void __launch_bounds__(B)
    block_kernel(int valid, unsigned warp_mask, T* inclusive, T* exclusive, int* has_prefix,
                 T* totals, T* reduced, T* warp_totals, int* has_total) {
  __shared__ typename cu::block_scan<T, B>::storage scan_storage;
  __shared__ typename cu::block_reduce<T, B>::storage reduce_storage;
  const int t = threadIdx.x;
  const T x = make_interval<T>(t, t);
  T total;
  inclusive[t] = cu::block_scan<T, B>::inclusive(x, join{}, scan_storage, total, valid);
  totals[t] = total;
  __syncthreads();
  bool has;
  exclusive[t] = cu::block_scan<T, B>::exclusive(x, join{}, scan_storage, total, has, valid);
  has_prefix[t] = has;
  totals[B + t] = total;
  reduced[t] = cu::block_reduce<T, B>::reduce(x, join{}, reduce_storage, valid);
  __syncthreads();
  // Present warps (warp_mask) carry consecutive values; absent ones must be skipped.
  const int warp = cu::warp_id();
  const int rank = __popc(warp_mask & ((1u << warp) - 1));
  warp_totals[t] = cu::block_reduce<T, B>::warp_totals(
      make_interval<T>(rank, rank), (warp_mask >> warp) & 1, join{}, reduce_storage, has);
  has_total[t] = has;
}

// Thread t has N items [base + i] (base = 10 + tN) of which the first t % (N + 1) are valid; the
// carry is [base - 5, base - 1], used by the inclusive scan on odd threads.
template <class T, int N>
__global__ void thread_kernel(T* reduced, T* inclusive, T* exclusive) {
  const int t = threadIdx.x, valid = t % (N + 1), base = 10 + t * N;
  T a[N], b[N];
  for (int i = 0; i < N; ++i) a[i] = b[i] = make_interval<T>(base + i, base + i);
  const T carry = make_interval<T>(base - 5, base - 1);
  if (valid > 0) reduced[t] = cu::thread_reduce<N>(a, join{}, valid);
  cu::thread_inclusive_scan<N>(a, join{}, valid, t % 2 == 1, carry);
  cu::thread_exclusive_scan<N>(b, join{}, valid, carry);
  for (int i = 0; i < N; ++i) {
    inclusive[t * N + i] = a[i];
    exclusive[t * N + i] = b[i];
  }
}

template <class T, int B, int ITEMS, class InIt, class OutIt>
__global__ void tile_kernel(InIt in, int valid, T* blocked, OutIt out) {
  __shared__ typename cu::tile_io<T, B, ITEMS>::storage storage;
  T items[ITEMS];
  for (int i = 0; i < ITEMS; ++i) items[i] = make_interval<T>(-7, -7);  // "untouched"
  cu::tile_io<T, B, ITEMS>::load(in, valid, items, storage);
  for (int i = 0; i < ITEMS; ++i) blocked[threadIdx.x * ITEMS + i] = items[i];
  cu::tile_io<T, B, ITEMS>::store(out, valid, items, storage);
}

template <class T, int B, int ITEMS, class InIt>
__global__ void range_kernel(InIt in, long long count, T* result, int* has) {
  __shared__ typename cu::block_range_reduce<T, B, ITEMS>::storage storage;
  bool has_total;
  const T total =
      cu::block_range_reduce<T, B, ITEMS>::reduce(in, count, join{}, storage, has_total);
  if (threadIdx.x == 0) { *result = total; *has = has_total; }
}

// *result = in[0] op ... op in[count-1] by block_range_reduce, for any operator.
template <class T, int B, int ITEMS, class Op>
__global__ void range_op_kernel(const T* in, int count, Op op, T* result) {
  __shared__ typename cu::block_range_reduce<T, B, ITEMS>::storage storage;
  bool has_total;
  const T total = cu::block_range_reduce<T, B, ITEMS>::reduce(in, count, op, storage, has_total);
  if (threadIdx.x == 0 && has_total) *result = total;
}

// Every lane gets the total of the 32 lanes' values.
template <class T, class Op>
__global__ void any_order_kernel(const T* values, T* totals, Op op) {
  totals[threadIdx.x] = cu::warp_reduce_any_order(values[threadIdx.x], op);
}

// Random values of either sign where T has one, small enough that 32 of them add up without
// overflow; the host folds them in order.
template <class T, class Op>
void check_any_order(Op op) {
  CAPTURE(sizeof(T));
  CAPTURE(static_cast<int>(cu::redux_kind_v<T, Op>));
  conformance::random_source random(conformance::fresh_seed());
  const std::int64_t limit = static_cast<std::int64_t>(std::numeric_limits<T>::max() / 64) + 1;
  std::vector<T> values(32);
  for (T& v : values) v = static_cast<T>(random.between(std::is_signed_v<T> ? -limit : 0, limit));
  T want = values[0];
  for (int i = 1; i < 32; ++i) want = static_cast<T>(op(want, values[i]));
  const auto in = conformance::device_memory::upload(values);
  device_buffer<T> totals(32);
  any_order_kernel<<<1, 32, 0, conformance::test_stream()>>>(in.begin(), totals.begin(), op);
  finish();
  for (const T& total : download(totals)) CHECK(total == want);
}

}  // namespace

TEST_CASE("warp_reduce_any_order: every grouping-free operator, redux.sync or butterfly") {
  CHECK(cu::redux_kind_v<std::int32_t, pscan::plus<>> == cu::redux_kind::add);
  CHECK(cu::redux_kind_v<std::uint32_t, pscan::minimum<>> == cu::redux_kind::min);
  CHECK(cu::redux_kind_v<std::int64_t, pscan::plus<>> == cu::redux_kind::none);
  CHECK(cu::redux_kind_v<float, pscan::plus<>> == cu::redux_kind::none);
  check_any_order<std::int32_t>(pscan::plus<>{});
  check_any_order<std::uint32_t>(pscan::plus<std::uint32_t>{});
  check_any_order<std::int32_t>(pscan::minimum<>{});
  check_any_order<std::int32_t>(pscan::maximum<std::int32_t>{});
  check_any_order<std::uint32_t>(pscan::minimum<>{});
  check_any_order<std::uint32_t>(pscan::maximum<>{});
  check_any_order<std::int64_t>(pscan::plus<>{});
  check_any_order<std::int64_t>(pscan::minimum<>{});
  check_any_order<std::uint64_t>(pscan::maximum<>{});
  check_any_order<std::int16_t>(pscan::maximum<>{});
  check_any_order<std::int8_t>(pscan::plus<>{});
  // std's bitwise function objects are host-only (constexpr, not __device__): redux.sync never
  // calls them, so they reduce on the device all the same.
  check_any_order<std::int32_t>(std::bit_and<>{});
  check_any_order<std::uint32_t>(std::bit_or<std::uint32_t>{});
  check_any_order<std::int32_t>(std::bit_xor<>{});
}

// The lifted operators of the segmented scans and reduce_by_key over integer + give the same bits
// in any grouping, not in any order: a range reduction must keep their order (the distributed
// segmented scans reduce (value, head) pairs for a rank's total, on the local policy).
TEST_CASE("block_range_reduce keeps the order of lifted operators over integer +") {
  using flagged = pscan::detail::flagged<std::int32_t>;
  using counted = pscan::detail::counted<std::int32_t>;
  using lifted = pscan::detail::lifted_op<pscan::plus<>>;
  using counting = pscan::detail::counted_op<pscan::plus<>>;
  CHECK(cu::grouping_free_v<flagged, lifted>);
  CHECK(cu::grouping_free_v<counted, counting>);
  CHECK_FALSE(cu::order_free_v<flagged, lifted>);
  CHECK_FALSE(cu::order_free_v<counted, counting>);
  CHECK(cu::order_free_v<std::int32_t, pscan::plus<>>);

  constexpr int B = 128, ITEMS = 8, warp_items = 32 * ITEMS;
  conformance::random_source random(conformance::fresh_seed());
  const auto check = [&](auto op, auto make) {
    using T = decltype(make(0, false));
    for (const int count : {1, warp_items - 1, warp_items, warp_items + 1, 3 * B * ITEMS + 5}) {
      for (const std::uint64_t rate : {2u, 16u, 1000u}) {
        CAPTURE(count);
        CAPTURE(rate);
        std::vector<T> values(static_cast<std::size_t>(count));
        for (T& v : values) {
          const auto value = static_cast<std::int32_t>(random.between(-1000, 1000));
          v = make(value, random.next() % rate == 0);
        }
        T want = values[0];
        for (int i = 1; i < count; ++i) want = op(want, values[static_cast<std::size_t>(i)]);
        const auto in = conformance::device_memory::upload(values);
        device_buffer<T> result(1);
        range_op_kernel<T, B, ITEMS><<<1, B, 0, conformance::test_stream()>>>(
            in.begin(), count, op, result.begin());
        finish();
        const T got = download(result)[0];
        CHECK(got.value == want.value);
        if constexpr (std::is_same_v<T, flagged>) {
          CHECK(got.head == want.head);
        } else {
          CHECK(got.runs == want.runs);
        }
      }
    }
  };
  check(lifted{}, [](std::int32_t v, bool head) { return flagged{v, head}; });
  check(counting{}, [](std::int32_t v, bool head) { return counted{v, head ? 1 : 0}; });
}

#define SPAN_TYPES span4, span8, span12, span16

TEST_CASE_TEMPLATE("warp_inclusive_scan and warp_reduce, full and partial", T, SPAN_TYPES) {
  device_buffer<T> scan(1024), reduce(1024), scan_part(1024), reduce_part(1024);
  warp_kernel<T><<<1, 1024, 0, conformance::test_stream()>>>(
      scan.begin(), reduce.begin(), scan_part.begin(), reduce_part.begin());
  finish();
  const auto s = download(scan), r = download(reduce), sp = download(scan_part),
             rp = download(reduce_part);
  for (int t = 0; t < 1024; ++t) {
    const int w = t / 32, lane = t % 32, valid = w + 1;
    CHECK(is(s[t], 32 * w, t));
    CHECK(is(r[t], 32 * w, 32 * w + 31));
    CHECK(is(sp[t], lane < valid ? 32 * w : t, t));  // lanes past valid keep their value
    CHECK(is(rp[t], 32 * w, 32 * w + valid - 1));
  }
}

template <class T, int B>
void check_block(int valid, unsigned warp_mask) {
  CAPTURE(B);
  CAPTURE(valid);
  device_buffer<T> inclusive(B), exclusive(B), totals(2 * B), reduced(B), warp_totals(B);
  device_buffer<int> has_prefix(B), has_total(B);
  block_kernel<T, B><<<1, B, 0, conformance::test_stream()>>>(
      valid, warp_mask, inclusive.begin(), exclusive.begin(), has_prefix.begin(), totals.begin(),
      reduced.begin(), warp_totals.begin(), has_total.begin());
  finish();
  const auto in = download(inclusive), ex = download(exclusive), tot = download(totals),
             red = download(reduced), wt = download(warp_totals);
  const auto hp = download(has_prefix), ht = download(has_total);
  const int present = __builtin_popcount(warp_mask);
  for (int t = 0; t < B; ++t) {
    CHECK(is(tot[t], 0, valid - 1));
    CHECK(is(tot[B + t], 0, valid - 1));
    CHECK(is(red[t], 0, valid - 1));
    CHECK(ht[t] == (present > 0));
    if (present > 0) CHECK(is(wt[t], 0, present - 1));
    if (t >= valid) continue;  // results of threads past the valid ones are meaningless
    CHECK(is(in[t], 0, t));
    CHECK(hp[t] == (t > 0));
    if (t > 0) CHECK(is(ex[t], 0, t - 1));
  }
}

TEST_CASE_TEMPLATE("block_scan and block_reduce, full and partial blocks", T, SPAN_TYPES) {
  for (int valid : {1, 2, 31, 32, 33, 100, 255, 256}) check_block<T, 256>(valid, 0xa5u);
  for (int valid : {1, 64, 65, 1000, 1024}) check_block<T, 1024>(valid, 0xffffffffu);
  check_block<T, 64>(64, 0u);
  check_block<T, 64>(40, 2u);
}

TEST_CASE_TEMPLATE("thread_reduce and thread scans over a valid prefix", T, SPAN_TYPES) {
  constexpr int N = 5, threads = 64;
  device_buffer<T> reduced(threads), inclusive(threads * N), exclusive(threads * N);
  thread_kernel<T, N><<<1, threads, 0, conformance::test_stream()>>>(
      reduced.begin(), inclusive.begin(), exclusive.begin());
  finish();
  const auto r = download(reduced), in = download(inclusive), ex = download(exclusive);
  for (int t = 0; t < threads; ++t) {
    const int valid = t % (N + 1), base = 10 + t * N;
    if (valid > 0) CHECK(is(r[t], base, base + valid - 1));
    const bool carried = t % 2 == 1;
    for (int i = 0; i < N; ++i) {
      const int at = t * N + i;  // items past `valid` are untouched
      CHECK(is(in[at], i < valid ? (carried ? base - 5 : base) : base + i, base + i));
      CHECK(is(ex[at], i < valid ? base - 5 : base + i, i < valid ? base + i - 1 : base + i));
    }
  }
}

// Loads a tile of `valid` items from `in` (element i must be [i, i]) and stores it to out.
template <class T, int B, int ITEMS, class InIt>
void check_tile(InIt in, int valid, int out_shift) {
  CAPTURE(valid);
  CAPTURE(out_shift);
  constexpr int tile = B * ITEMS;
  constexpr long long sentinel = -20000;  // fits the 16-bit spans
  device_buffer<T> blocked(tile), out = upload_spans<T>(tile + out_shift, sentinel);
  tile_kernel<T, B, ITEMS><<<1, B, 0, conformance::test_stream()>>>(in, valid, blocked.begin(),
                                                                    out.begin() + out_shift);
  finish();
  const auto b = download(blocked), o = download(out);
  for (int i = 0; i < tile; ++i) {
    CHECK(is(b[i], i < valid ? i : -7, i < valid ? i : -7));
    const long long untouched = sentinel + out_shift + i;
    CHECK(is(o[out_shift + i], i < valid ? i : untouched, i < valid ? i : untouched));
  }
}

TEST_CASE_TEMPLATE("tile_io load and store: vectors, scalars, fancy iterators, partial tiles", T,
                   SPAN_TYPES) {
  constexpr int B = 128, ITEMS = 8, tile = B * ITEMS;
  const auto aligned = upload_spans<T>(tile, 0);
  // Element 1 is [0, 0]: misaligned for 16-byte units.
  const auto shifted = upload_spans<T>(tile + 1, -1);
  const auto fancy = pscan::detail::make_index_iterator(interval_at<T>{0});
  for (int valid : {tile, tile - 1, 1, 31, 32, 33, 257, 600}) {
    check_tile<T, B, ITEMS>(aligned.begin(), valid, 0);
    check_tile<T, B, ITEMS>(aligned.begin(), valid, 1);
    check_tile<T, B, ITEMS>(shifted.begin() + 1, valid, 0);
    check_tile<T, B, ITEMS>(fancy, valid, 0);
  }
}

template <class T, int B, int ITEMS, class InIt>
void check_range(InIt in, long long count) {
  CAPTURE(count);
  device_buffer<T> result(1);
  device_buffer<int> has(1);
  range_kernel<T, B, ITEMS>
      <<<1, B, 0, conformance::test_stream()>>>(in, count, result.begin(), has.begin());
  finish();
  CHECK(download(has)[0] == (count > 0));
  if (count > 0) CHECK(is(download(result)[0], 0, count - 1));
}

TEST_CASE_TEMPLATE("block_range_reduce over ranges of any length", T, SPAN_TYPES) {
  constexpr int B = 128, ITEMS = 8, warp_items = 32 * ITEMS;
  const long long longest = 20 * B * ITEMS + 17;
  const auto aligned = upload_spans<T>(longest, 0);
  const auto shifted = upload_spans<T>(longest + 1, -1);  // shifted[1 + i] = [i, i]
  for (long long count : {0LL, 1LL, 31LL, 33LL, warp_items - 1LL, 1LL * warp_items,
                          warp_items + 1LL, 1LL * B * ITEMS, 3LL * B * ITEMS + 5, longest}) {
    check_range<T, B, ITEMS>(aligned.begin(), count);
    check_range<T, B, ITEMS>(shifted.begin() + 1, count);
    check_range<T, B, ITEMS>(pscan::detail::make_index_iterator(interval_at<T>{0}), count);
  }
}
