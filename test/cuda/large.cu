// More than 2^31 elements (and segments) on every CUDA policy: 64-bit sizes, tile counts and
// offsets. uint8 values with wrapping plus keep the memory at ~2 GiB per array; inputs are
// generated and outputs checked on the device (a scan is right iff every element follows from its
// predecessor).

#include <pscan/detail/index_iterator.hpp>

#include <algorithm>
#include <cstdint>

#include "device_fixture.cuh"

namespace {

using byte = std::uint8_t;
constexpr std::int64_t n = (std::int64_t{1} << 31) + (std::int64_t{1} << 20) + 7;
constexpr byte init = 7;
const pscan::plus<byte> wrapping_plus{};

__host__ __device__ byte value_at(std::int64_t i) {
  const std::uint64_t h = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
  return static_cast<byte>(h >> 56);
}

__global__ void fill(byte* values, byte* flags, std::int64_t count) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    values[i] = value_at(i);
    flags[i] = (value_at(i * 31 + 5) == 0 && value_at(i * 17 + 1) < 16) ? 3 : 0;  // ~1 in 4096
  }
}

// The scans (segmented: by the flags, or in periods of `period` elements), segmented_reduce over
// segments of one element each (out[i] = init + in[i]) and the inclusive scan of those
// (out[i] = in[i]).
enum class scan_form {
  inclusive,
  exclusive,
  segmented_inclusive,
  periodic_inclusive,
  single_element_segments,
  single_element_scan
};

// offsets[i] = i: every segment holds one element.
struct position {
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i; }
};

// Segments of `period` elements, the last one shorter: their offsets, and keys that name them.
constexpr std::int64_t period = std::int64_t{1} << 20;
constexpr std::int64_t periods = (n + period - 1) / period;
struct period_start {
  __host__ __device__ std::int64_t operator()(std::int64_t s) const {
    return s * period < n ? s * period : n;
  }
};
struct period_of {
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i / period; }
};

// Counts positions where out breaks the scan's recurrence and keeps the first of them.
__global__ void check_recurrence(scan_form form, const byte* in, const byte* flags, const byte* out,
                                 std::int64_t count, unsigned long long* bad,
                                 unsigned long long* first_bad) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    byte expected;
    if (form == scan_form::single_element_segments) {
      expected = byte(init + in[i]);
    } else if (form == scan_form::single_element_scan ||
               (form == scan_form::periodic_inclusive && i % period == 0)) {
      expected = in[i];
    } else if (form == scan_form::exclusive) {
      expected = i == 0 ? init : byte(out[i - 1] + in[i - 1]);
    } else if (form == scan_form::segmented_inclusive && flags[i] != 0) {
      expected = in[i];
    } else {
      expected = i == 0 ? in[0] : byte(out[i - 1] + in[i]);
    }
    if (out[i] != expected) {
      atomicAdd(bad, 1ull);
      atomicMin(first_bad, static_cast<unsigned long long>(i));
    }
  }
}

constexpr int grid = 4096, block = 256;

template <class F>
void check_scan(scan_form form, const conformance::device_buffer<byte>& in,
                const conformance::device_buffer<byte>& flags,
                const conformance::device_buffer<byte>& out) {
  conformance::device_buffer<unsigned long long> counters(2);
  const unsigned long long start[2] = {0, ~0ull};
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(counters.begin(), start, sizeof start, cudaMemcpyHostToDevice,
                            conformance::test_stream()));
  check_recurrence<<<grid, block, 0, conformance::test_stream()>>>(
      form, in.begin(), flags.begin(), out.begin(), n, counters.begin(), counters.begin() + 1);
  PSCAN_CUDA_CHECK(cudaGetLastError());
  const auto result = F::download(counters);
  CHECK_MESSAGE(result[0] == 0, result[0], " wrong outputs, the first at ", result[1]);
}

byte byte_at(const conformance::device_buffer<byte>& buffer, std::int64_t i) {
  byte value = 0;
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(&value, buffer.begin() + i, 1, cudaMemcpyDeviceToHost,
                            conformance::test_stream()));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(conformance::test_stream()));
  return value;
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("more than 2^31 elements", F, large_case) {
  using namespace conformance;
  std::size_t free_bytes = 0, total_bytes = 0;
  PSCAN_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < 3 * static_cast<std::size_t>(n) + (std::size_t{1} << 30)) {
    skip_case("the device has " + std::to_string(free_bytes >> 20) +
              " MiB free, this test needs ~7 GiB");
  }
  device_buffer<byte> in(n), flags(n), out(n);
  fill<<<grid, block, 0, test_stream()>>>(in.begin(), flags.begin(), n);
  PSCAN_CUDA_CHECK(cudaGetLastError());
  const auto p = F::policy();

  pscan::inclusive_scan(p, in.begin(), in.end(), out.begin(), wrapping_plus);
  check_scan<F>(scan_form::inclusive, in, flags, out);
  const byte total = byte_at(out, n - 1);
  CHECK(int(pscan::reduce(p, in.begin(), in.end(), init, wrapping_plus)) == byte(init + total));
  {
    INFO("reduce with exact_plus (the values as double: their sum, below 2^39, exactly)");
    std::int64_t sum = 0;
    for (std::int64_t i = 0; i < n; ++i) sum += value_at(i);
    CHECK(pscan::reduce(p, in.begin(), in.end(), 0.5, pscan::exact_plus<>{}) ==
          0.5 + static_cast<double>(sum));
  }

  pscan::segmented_inclusive_scan(p, in.begin(), in.end(), flags.begin(), out.begin(),
                                  wrapping_plus);
  check_scan<F>(scan_form::segmented_inclusive, in, flags, out);

  pscan::exclusive_scan(p, in.begin(), in.end(), out.begin(), init, wrapping_plus);
  check_scan<F>(scan_form::exclusive, in, flags, out);

  // The exclusive output gives every prefix sum: sum of [0, i) = out[i] - init.
  const auto prefix = [&](std::int64_t i) { return i == n ? total : byte(byte_at(out, i) - init); };
  const std::int64_t two_31 = std::int64_t{1} << 31;
  for (const std::vector<std::int64_t>& offsets :
       {std::vector<std::int64_t>{0, 0, 1, two_31 - 1, two_31 + 3, n - 2, n},
        std::vector<std::int64_t>{2, n - 1, n - 1}}) {
    auto offs = F::upload(offsets);
    auto sums = F::upload(std::vector<byte>(offsets.size() - 1));
    pscan::segmented_reduce(p, in.begin(), offs.begin(), offs.end(), sums.begin(), init,
                            wrapping_plus);
    const auto actual = F::download(sums);
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
      INFO("segment [", offsets[s], ", ", offsets[s + 1], ")");
      CHECK(int(actual[s]) == byte(init + byte(prefix(offsets[s + 1]) - prefix(offsets[s]))));
    }
  }

  {
    INFO("reduce_by_key over runs of `period` equal keys");
    const auto keys = pscan::detail::make_index_iterator(period_of{});
    device_buffer<std::int64_t> run_keys(periods), runs(1);
    device_buffer<byte> run_sums(periods);
    pscan::reduce_by_key_into(p, keys, keys + n, in.begin(), run_keys.begin(), run_sums.begin(),
                              runs.begin(), pscan::equal_to<>{}, wrapping_plus);
    CHECK(F::download(runs)[0] == periods);
    const auto key_of_run = F::download(run_keys);
    const auto sum_of_run = F::download(run_sums);
    for (std::int64_t r = 0; r < periods; ++r) {
      const byte expected = byte(prefix(std::min(n, (r + 1) * period)) - prefix(r * period));
      if (key_of_run[r] != r || sum_of_run[r] != expected) {
        CHECK_MESSAGE(false, "run ", r, ": key ", key_of_run[r], ", sum ", int(sum_of_run[r]),
                      " (expected ", int(expected), ")");
        break;
      }
    }
  }

  // The scan by offsets of the same periods.
  const auto starts = pscan::detail::make_index_iterator(period_start{});
  CHECK(pscan::inclusive_scan_by_offsets(p, in.begin(), starts, starts + (periods + 1),
                                         out.begin(), wrapping_plus) == out.end());
  check_scan<F>(scan_form::periodic_inclusive, in, flags, out);

  // More than 2^31 segments (n of one element each), offsets from an iterator.
  const auto offsets = pscan::detail::make_index_iterator(position{});
  pscan::segmented_reduce(p, in.begin(), offsets, offsets + (n + 1), out.begin(), init,
                          wrapping_plus);
  check_scan<F>(scan_form::single_element_segments, in, flags, out);
  CHECK(pscan::inclusive_scan_by_offsets(p, in.begin(), offsets, offsets + (n + 1), out.begin(),
                                         wrapping_plus) == out.end());
  check_scan<F>(scan_form::single_element_scan, in, flags, out);
}

TEST_CASE_TEMPLATE_INVOKE(large_case, CUDA_FIXTURES);
