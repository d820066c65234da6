// Variant bench for the chained scan / reduce experiments (sessions 3-7; SIZES=10,12,.. picks n = 2^k, TYPES the value types). Built once per header
// variant; times like pscan-compare (L2 flushed, CUDA events, median of 10).
#include <pscan/pscan.hpp>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); std::exit(1);} } while (0)

#ifndef VARIANT
#define VARIANT "base"
#endif

static cudaStream_t stream;
__global__ void empty_kernel() {}
static void* flush_buf;
static size_t flush_bytes;

template <class F>
double time_us(F&& f, int runs = 10) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<double> t;
  for (int r = 0; r < runs + 2; ++r) {
    CK(cudaMemsetAsync(flush_buf, r, flush_bytes, stream));
    CK(cudaEventRecord(a, stream));
    f();
    CK(cudaEventRecord(b, stream));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 2) t.push_back(ms * 1000.0);
  }
  std::sort(t.begin(), t.end());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return t[t.size() / 2];
}

template <class F>
double host_us(F&& f, int runs = 2000) {
  for (int r = 0; r < 50; ++r) f();
  CK(cudaStreamSynchronize(stream));
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < runs; ++r) f();
  CK(cudaStreamSynchronize(stream));
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / runs;
}

template <class T>
const char* tname() {
  if constexpr (std::is_same_v<T, int>) return "i32";
  else if constexpr (std::is_same_v<T, long long>) return "i64";
  else if constexpr (std::is_same_v<T, float>) return "f32";
  else return "f64";
}

template <class T>
void run_type(const std::vector<std::int64_t>& sizes, bool do_reduce, bool check) {
  const std::int64_t nmax = *std::max_element(sizes.begin(), sizes.end());
  std::vector<T> h(nmax);
  std::mt19937_64 g(42);
  for (auto& x : h) x = static_cast<T>(static_cast<int>(g() % 7) - 3);
  T *in, *out, *red;
  CK(cudaMalloc(&in, nmax * sizeof(T)));
  CK(cudaMalloc(&out, nmax * sizeof(T)));
  CK(cudaMalloc(&red, sizeof(T)));
  CK(cudaMemcpy(in, h.data(), nmax * sizeof(T), cudaMemcpyHostToDevice));
  T* pinned;
  CK(cudaMallocHost(&pinned, sizeof(T)));
  const auto chained = pscan::cuda_chained.on(stream);
  const auto det = pscan::cuda_chained.deterministic().on(stream);
  const auto multipass = pscan::cuda_multipass.on(stream);
  for (std::int64_t n : sizes) {
    size_t tb = 0, tr = 0;
    CK(cub::DeviceScan::InclusiveSum(nullptr, tb, in, out, n, stream));
    CK(cub::DeviceReduce::Sum(nullptr, tr, in, red, n, stream));
    void* temp;
    CK(cudaMalloc(&temp, std::max(tb, tr)));
    const double copy = time_us([&] { CK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice, stream)); });
    const double cub = time_us([&] { size_t t = tb; CK(cub::DeviceScan::InclusiveSum(temp, t, in, out, n, stream)); });
    const double ch = time_us([&] { pscan::inclusive_scan(chained, in, in + n, out); });
    auto matches = [&] {
      std::vector<T> o(n);
      CK(cudaMemcpy(o.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
      T acc{};
      for (std::int64_t i = 0; i < n; ++i) { acc += h[i]; if (o[i] != acc) return false; }
      return true;
    };
    const bool ok = !check || matches();
    const double dt = time_us([&] { pscan::inclusive_scan(det, in, in + n, out); });
    const bool det_ok = !check || matches();
    std::printf("%-8s scan   %s 2^%-2d copy %9.1f cub %9.1f chained %9.1f (%5.1f%% copy, %.3fx cub)%s det %9.1f (%.3fx default)%s\n",
                VARIANT, tname<T>(), 63 - __builtin_clzll(n), copy, cub, ch, 100 * copy / ch, cub / ch,
                ok ? "" : " WRONG", dt, ch / dt, det_ok ? "" : " DET-WRONG");
    if (do_reduce) {
      const double cr = time_us([&] { size_t t = tr; CK(cub::DeviceReduce::Sum(temp, t, in, red, n, stream)); });
      const double crh = time_us([&] {
        size_t t = tr;
        CK(cub::DeviceReduce::Sum(temp, t, in, red, n, stream));
        CK(cudaMemcpyAsync(pinned, red, sizeof(T), cudaMemcpyDeviceToHost, stream));
        CK(cudaStreamSynchronize(stream));
      });
      T r1{}, r2{};
      const double rc = time_us([&] { r1 = pscan::reduce(chained, in, in + n, T{}); });
      const double rm = time_us([&] { r2 = pscan::reduce(multipass, in, in + n, T{}); });
      std::printf("%-8s reduce %s 2^%-2d cub %9.1f cub+host %9.1f chained %9.1f (%.3fx) multipass %9.1f (%.3fx)%s\n",
                  VARIANT, tname<T>(), 63 - __builtin_clzll(n), cr, crh, rc, cr / rc, rm, cr / rm,
                  r1 == r2 ? "" : " MISMATCH");
    }
    CK(cudaFree(temp));
  }
  CK(cudaFree(in));
  CK(cudaFree(out));
  CK(cudaFree(red));
  CK(cudaFreeHost(pinned));
}

int main(int argc, char** argv) {
  CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int l2;
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  flush_bytes = 2 * size_t(l2);
  CK(cudaMalloc(&flush_buf, flush_bytes));
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "profile") {  // one chained scan and one CUB scan of 2^28 int32, for ncu
    const std::int64_t n = 1 << 28;
    int *in, *out;
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4));
    CK(cudaMemset(in, 1, n * 4));
    pscan::inclusive_scan(pscan::cuda_chained.on(stream), in, in + n, out);
    pscan::inclusive_scan(pscan::cuda_chained.deterministic().on(stream), in, in + n, out);
    size_t tb = 0;
    CK(cub::DeviceScan::InclusiveSum(nullptr, tb, in, out, n, stream));
    void* temp;
    CK(cudaMalloc(&temp, tb));
    CK(cub::DeviceScan::InclusiveSum(temp, tb, in, out, n, stream));
    CK(cudaStreamSynchronize(stream));
    return 0;
  }
  if (mode == "hostparts") {  // host cost of the pieces in front of a reduce launch
    int *in, *out;
    CK(cudaMalloc(&in, 1 << 20));
    CK(cudaMalloc(&out, 1 << 20));
    CK(cudaMemset(in, 0, 1 << 20));
    const auto p = pscan::cuda_chained.on(stream);
    auto k = &empty_kernel;
    volatile int sink = 0;
    std::printf("hostparts: empty launch %.2f | pointer check %.2f | capture check %.2f | cudaGetDevice %.2f | device_info %.2f | occupancy cache %.2f | call_state %.2f | explicit_stream %.2f | chained reduce 1024 %.2f | chained reduce 2^18 %.2f | multipass reduce 2^18 %.2f\n",
      host_us([&] { empty_kernel<<<1, 32, 0, stream>>>(); }),
      host_us([&] { pscan::cuda::check_device_accessible("a", "b", in); }),
      host_us([&] { pscan::cuda::reject_graph_capture(stream, "x"); }),
      host_us([&] { int d; CK(cudaGetDevice(&d)); }),
      host_us([&] { sink = pscan::cuda::current_device_info().sm_count; }),
      host_us([&] { sink = pscan::cuda::max_active_blocks_per_sm(reinterpret_cast<const void*>(k), 32); }),
      host_us([&] { pscan::chained::call_state s(p, 4096, 0); sink = s.epoch(); }),
      host_us([&] { sink = pscan::cuda::explicit_stream(stream) == nullptr; }),
      host_us([&] { sink = pscan::reduce(p, in, in + 1024, 0); }),
      host_us([&] { sink = pscan::reduce(p, in, in + (1 << 18), 0); }),
      host_us([&] { sink = pscan::reduce(pscan::cuda_multipass.on(stream), in, in + (1 << 18), 0); }));
    return 0;
  }
  if (mode == "trace") {
#ifdef PSCAN_TRACE
    const std::int64_t n = std::int64_t{1} << (argc > 3 ? std::atoi(argv[3]) : 28);
    int *in, *out;
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4));
    CK(cudaMemset(in, 1, n * 4));
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    using cfg = pscan::chained::tuning<int>;
    const std::int64_t small = n / cfg::small_tile_items;  // the shape scan.cuh picks
    const std::int64_t tiles = small <= cfg::small_tiles_per_sm * sms ? small : n / cfg::tile_items;
    unsigned long long* trace;
    CK(cudaMalloc(&trace, tiles * 4 * 8));
    CK(cudaMemcpyToSymbol(pscan::chained::scan_trace, &trace, sizeof trace));
    unsigned long long* lb;
    CK(cudaMalloc(&lb, tiles * 2 * 8));
    CK(cudaMemset(lb, 0, tiles * 16));
    CK(cudaMemcpyToSymbol(pscan::chained::lb_trace, &lb, sizeof lb));
    for (int det = 0; det < 2; ++det) {
      for (int r = 0; r < 3; ++r) {
        CK(cudaMemsetAsync(flush_buf, r, flush_bytes, stream));
        if (det) pscan::inclusive_scan(pscan::cuda_chained.deterministic().on(stream), in, in + n, out);
        else pscan::inclusive_scan(pscan::cuda_chained.on(stream), in, in + n, out);
      }
      CK(cudaStreamSynchronize(stream));
      std::vector<unsigned long long> h(tiles * 6);
      CK(cudaMemcpy(h.data(), trace, tiles * 32, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(h.data() + tiles * 4, lb, tiles * 16, cudaMemcpyDeviceToHost));
      FILE* f = std::fopen((std::string(argv[2]) + (det ? "_det.bin" : ".bin")).c_str(), "wb");
      std::fwrite(h.data(), 8, h.size(), f);
      std::fclose(f);
    }
    std::printf("trace: %lld tiles written\n", (long long)tiles);
#endif
    return 0;
  }
  const bool reduce = mode == "reduce";
  std::vector<std::int64_t> sizes = {1 << 14, 1 << 16, 1 << 20, 1 << 22, 1 << 24, 1 << 28};
  if (const char* list = std::getenv("SIZES")) {  // exponents, comma-separated
    sizes.clear();
    for (const char* p = list; *p;) {
      char* end;
      sizes.push_back(std::int64_t{1} << std::strtol(p, &end, 10));
      p = *end ? end + 1 : end;
    }
  }
  // TYPES=i32,i64,f32,f64 (any of them; default i32,i64). The inputs are small integers, so
  // float sums are exact and checked like the integer ones.
  const std::string types = std::getenv("TYPES") ? std::getenv("TYPES") : "i32,i64";
  if (types.find("i32") != std::string::npos) run_type<int>(sizes, reduce, true);
  if (types.find("i64") != std::string::npos) run_type<long long>(sizes, reduce, true);
  if (types.find("f32") != std::string::npos) run_type<float>(sizes, reduce, true);
  if (types.find("f64") != std::string::npos) run_type<double>(sizes, reduce, true);
  if (reduce) {
    // Host-side cost of one call (no L2 flush, back to back).
    int* in;
    int* red;
    int* pinned;
    CK(cudaMalloc(&in, 1024 * 4));
    CK(cudaMalloc(&red, 4));
    CK(cudaMemset(in, 0, 4096));
    CK(cudaMallocHost(&pinned, 4));
    int* scan_out;
    CK(cudaMalloc(&scan_out, 4096));
    size_t tr = 0;
    CK(cub::DeviceReduce::Sum(nullptr, tr, in, red, 1024, stream));
    void* temp;
    CK(cudaMalloc(&temp, tr));
    const auto chained = pscan::cuda_chained.on(stream);
    const auto multipass = pscan::cuda_multipass.on(stream);
    volatile int sink = 0;
    std::printf("host: cub reduce launch %.2f us; cub reduce+copy+sync %.2f us; chained reduce %.2f us; multipass reduce %.2f us; chained scan launch %.2f us; empty sync %.2f us\n",
                host_us([&] { size_t t = tr; CK(cub::DeviceReduce::Sum(temp, t, in, red, 1024, stream)); }),
                host_us([&] { size_t t = tr; CK(cub::DeviceReduce::Sum(temp, t, in, red, 1024, stream));
                              CK(cudaMemcpyAsync(pinned, red, 4, cudaMemcpyDeviceToHost, stream));
                              CK(cudaStreamSynchronize(stream)); }),
                host_us([&] { sink = pscan::reduce(chained, in, in + 1024, 0); }),
                host_us([&] { sink = pscan::reduce(multipass, in, in + 1024, 0); }),
                host_us([&] { pscan::inclusive_scan(chained, in, in + 1024, scan_out); }, 200),
                host_us([&] { CK(cudaStreamSynchronize(stream)); }));
  }
  return 0;
}
