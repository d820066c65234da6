#pragma once
// What an implementation is to the harness: a name, a target, the cells it supports, and a
// prepare step that allocates its temporaries (outside the timed region) and returns the run.

#include "matrix.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace compare {

// The cell's data, where the implementation's target keeps it (host or device memory).
struct cell_buffers {
  const void* values = nullptr;          // n elements of the cell's type
  const flag_type* flags = nullptr;      // n, for segmented_inclusive_scan
  const key_type* keys = nullptr;        // n, for the scans by key and segmented_reduce
  const offset_type* offsets = nullptr;  // segments + 1, for segmented_reduce
  void* out = nullptr;          // n elements (scans), segments (segmented_reduce), 1 (reduce)
  void* host_result = nullptr;  // host memory for one element: reduce results returned by value
  std::int64_t n = 0;
  std::int64_t segments = 0;
  void* stream = nullptr;  // the GPU target's cudaStream_t (non-default)
};

struct prepared_run {
  std::function<void()> run;    // one execution; GPU: enqueued on the stream (it may synchronise)
  bool result_on_host = false;  // reduce wrote its value to host_result instead of out
};

struct implementation {
  std::string name;
  std::string library;  // pscan, cub, thrust, std, gnu, copy, ...
  target where;
  // Why the implementation cannot run this algorithm on this element type; empty if it can.
  std::function<std::string(algorithm, element)> unsupported;
  // Why it cannot take segments of this distribution; empty if it can (the default).
  std::function<std::string(algorithm, const segment_lengths&)> unsupported_segments =
      [](algorithm, const segment_lengths&) { return std::string(); };
  std::function<prepared_run(const cell&, const cell_buffers&)> prepare;
  bool is_copy = false;       // the physical-limit measurement: copies n elements, never validated
  bool is_floor = false;      // segmented_reduce's limit: reduces the n values, never validated
  bool is_planted = false;    // deliberately wrong; only with --plant-bug
  bool is_reference = false;  // pscan::seq: timed only up to --seq-max elements
};

// Every implementation name the harness knows, built into this binary or not (for --impl).
const std::vector<std::string>& known_implementation_names();
// Whether a known name runs only on the GPU, and whether it is one of pscan's CUDA backends.
bool is_gpu_only_implementation(const std::string& name);
bool is_pscan_cuda_implementation(const std::string& name);

// The implementations built into this binary, in report order.
std::vector<implementation> available_implementations();

// Registration, one function per translation unit.
void add_pscan_cpu(std::vector<implementation>& out);
void add_std_baselines(std::vector<implementation>& out);
void add_thrust_omp(std::vector<implementation>& out);
void add_pscan_cuda(std::vector<implementation>& out);
void add_cub(std::vector<implementation>& out);
void add_thrust_cuda(std::vector<implementation>& out);

// Common reasons for an unsupported cell.
std::string needs_commutative(const char* api);  // reduce-like APIs that may reorder operands
std::string no_such_algorithm(const char* library, algorithm a);
std::string no_empty_segments(const char* api, algorithm a, const segment_lengths& s);

// CCCL_VERSION as "major.minor.patch", or empty when no translation unit saw CCCL.
std::string cccl_version();

}  // namespace compare
