// The checks only a CUDA policy has: host pointers and null future_value inits are rejected
// before any launch. The suite's cases (test/conformance/*_cases.hpp) run on the CUDA policies
// through the translation units pscan_conformance_sources writes (test/CMakeLists.txt).

#include "conformance/error_cases.hpp"
#include "device_fixture.cuh"

namespace conformance {

// On systems where the device reads pageable memory (HMM, ATS) a host pointer is valid input.
inline bool device_reads_pageable_memory() {
  int device = 0, pageable = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  PSCAN_CUDA_CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  return pageable != 0;
}

}  // namespace conformance

TEST_CASE_TEMPLATE_DEFINE("host pointers are rejected before any launch", F, host_pointer_case) {
  using namespace conformance;
  if (device_reads_pageable_memory()) {
    skip_case("this device reads pageable host memory, so host pointers are valid input");
  }
  const std::vector<std::int32_t> untouched(64, sentinel);
  std::vector<std::int32_t> host_values(64, 1), host_out = untouched;
  std::vector<std::uint8_t> host_flags(64, 0);
  std::vector<std::int64_t> host_offsets = {0, 8, 64};
  auto values = F::upload(host_values);
  auto keys = F::upload(host_values);
  auto offsets = F::upload(host_offsets);
  auto out = F::upload(untouched);
  const auto p = F::policy();
  std::int32_t* const host_first = host_values.data();
  std::int32_t* const host_last = host_first + host_values.size();

  check_rejected([&] { pscan::inclusive_scan(p, host_first, host_last, out.begin()); },
                 {"inclusive_scan", "first"});
  check_rejected([&] { pscan::inclusive_scan(p, values.begin(), values.end(), host_out.data()); },
                 {"inclusive_scan", "out"});
  check_rejected([&] { pscan::exclusive_scan(p, host_first, host_last, out.begin(), 7); },
                 {"exclusive_scan", "first"});
  check_rejected([&] { pscan::reduce(p, host_first, host_last, 7); }, {"reduce", "first"});
  check_rejected([&] { pscan::reduce_into(p, host_first, host_last, out.begin(), 7); },
                 {"reduce_into", "first"});
  check_rejected(
      [&] { pscan::reduce_into(p, values.begin(), values.end(), host_out.data(), 7); },
      {"reduce_into", "result"});
  // An init in host memory, where the kernel would read it.
  const auto host_init = pscan::future_value(host_values.data());
  check_rejected(
      [&] { pscan::exclusive_scan(p, values.begin(), values.end(), out.begin(), host_init); },
      {"exclusive_scan", "init"});
  check_rejected(
      [&] { pscan::reduce_into(p, values.begin(), values.end(), out.begin(), host_init); },
      {"reduce_into", "init"});
  check_rejected(
      [&] {
        pscan::segmented_reduce(p, values.begin(), offsets.begin(), offsets.end(), out.begin(),
                                host_init);
      },
      {"segmented_reduce", "init"});
  check_rejected(
      [&] {
        pscan::segmented_inclusive_scan(p, values.begin(), values.end(), host_flags.data(),
                                        out.begin());
      },
      {"segmented_inclusive_scan", "head_flags"});
  check_rejected(
      [&] { pscan::inclusive_scan_by_key(p, host_first, host_last, values.begin(), out.begin()); },
      {"inclusive_scan_by_key", "keys_first"});
  check_rejected(
      [&] {
        pscan::exclusive_scan_by_key(p, keys.begin(), keys.end(), host_first, out.begin(), 7);
      },
      {"exclusive_scan_by_key", "values"});
  check_rejected(
      [&] {
        pscan::segmented_reduce(p, values.begin(), host_offsets.data(),
                                host_offsets.data() + host_offsets.size(), out.begin(), 7);
      },
      {"segmented_reduce", "offsets_first"});
  check_rejected(
      [&] {
        pscan::segmented_reduce(p, host_first, offsets.begin(), offsets.end(), out.begin(), 7);
      },
      {"segmented_reduce", "values"});
  CHECK(host_out == untouched);
  CHECK(F::download(out) == untouched);
}

TEST_CASE_TEMPLATE_DEFINE("a null future_value init is rejected where the call reads it", F,
                          null_init_case) {
  using namespace conformance;
  const std::vector<std::int32_t> untouched(64, sentinel);
  auto values = F::upload(std::vector<std::int32_t>(64, 1));
  auto out = F::upload(untouched);
  const auto p = F::policy();
  std::int32_t* const null = nullptr;
  const pscan::future_value<std::int32_t> null_init(nullptr);
  check_rejected(
      [&] {
        pscan::inclusive_scan(p, values.begin(), values.end(), out.begin(), pscan::plus<>{},
                              null_init);
      },
      {"inclusive_scan", "init"});
  check_rejected(
      [&] {
        pscan::exclusive_scan_by_key(p, values.begin(), values.end(), values.begin(), out.begin(),
                                     null_init);
      },
      {"exclusive_scan_by_key", "init"});
  check_rejected(
      [&] { pscan::reduce_into(p, values.begin(), values.end(), out.begin(), null_init); },
      {"reduce_into", "init"});
  // reduce and reduce_into read the init for n == 0 too.
  check_rejected([&] { pscan::reduce(p, null, null, null_init); }, {"reduce", "init"});
  check_rejected([&] { pscan::reduce_into(p, null, null, out.begin(), null_init); },
                 {"reduce_into", "init"});
  CHECK(F::download(out) == untouched);

  INFO("an unread null init is valid");
  CHECK_NOTHROW(pscan::exclusive_scan(p, null, null, null, null_init));
}

TEST_CASE_TEMPLATE_INVOKE(host_pointer_case, CUDA_FIXTURES);
TEST_CASE_TEMPLATE_INVOKE(null_init_case, CUDA_FIXTURES);
