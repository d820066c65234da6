#pragma once
// What an implementation is to the harness: a name, a target, the algorithms it has, and a
// prepare step that allocates its temporaries (outside the timed region) and returns the run.
// Every implementation has one row in registry.cpp's table (its description and role) and one
// built_in object in the file that defines it.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace compare {

// The cell's data, where the implementation's target keeps it (host or device memory).
struct cell_buffers {
  const void* values = nullptr;          // n elements of the cell's type
  const flag_type* flags = nullptr;      // n, for algorithms segmented by flags
  const key_type* keys = nullptr;        // n, for those segmented by keys (or given keys as well)
  const offset_type* offsets = nullptr;  // segments + 1, for those segmented by offsets
  void* out = nullptr;                   // output_count() elements of the cell's type
  key_type* keys_out = nullptr;          // segments, for those that write keys (writes_keys)
  std::int64_t* runs_out = nullptr;      // one, for those that write keys: the runs found
  void* host_result = nullptr;           // host memory for one element: results returned by value
  std::int64_t n = 0;
  std::int64_t segments = 0;
  void* stream = nullptr;  // the GPU target's cudaStream_t (non-default)
};

struct prepared_run {
  std::function<void()> run;    // one execution; GPU: enqueued on the stream (it may synchronise)
  bool result_on_host = false;  // it wrote its single value to host_result instead of out
};

// An implementation's part in a cell. The baseline is what the other rows' speedups divide; the
// reference (pscan::seq) is timed only up to --seq-max; copy and floor are limits, never
// validated; the planted bug runs only with --plant-bug and must fail; an exact row is a pscan
// policy with exact_plus, the price of exactness beside the policy's plus row.
enum class role { contender, baseline, reference, copy, floor, planted, exact };
const char* name_of(role r);

struct implementation {
  std::string name;
  std::string library;  // pscan, cub, thrust, std, gnu, copy, ...
  target where;
  std::vector<algorithm> algorithms;  // those it has; the others are noted, not run
  // Why it cannot run one of its algorithms on this element type; empty if it can.
  std::function<std::string(algorithm, element)> unsupported = [](algorithm, element) {
    return std::string();
  };
  // Why it cannot take segments of this distribution; empty if it can.
  std::function<std::string(algorithm, const segment_lengths&)> unsupported_segments =
      [](algorithm, const segment_lengths&) { return std::string(); };
  std::function<prepared_run(const cell&, const cell_buffers&)> prepare;
  role part = role::contender;  // from its registration
};

bool implements(const implementation& impl, algorithm a);  // a is among its algorithms
// Why the implementation does not run algorithm a on this type; empty if it does.
std::string why_not(const implementation& impl, algorithm a, element type);

// Puts an implementation into this binary: one static object per implementation, in the file
// that defines it, compiled only when the implementation's dependencies were found.
struct built_in {
  explicit built_in(std::function<implementation()> make);
};

// The implementations built into this binary, in registry.cpp's order.
std::vector<implementation> available_implementations();

// Common reasons for an unsupported cell.
std::string needs_commutative(const char* api);  // reduce-like APIs that may reorder operands
std::string no_empty_segments(const char* api, algorithm a, const segment_lengths& s);

// CCCL_VERSION as "major.minor.patch", or empty when no translation unit saw CCCL.
std::string cccl_version();

}  // namespace compare
