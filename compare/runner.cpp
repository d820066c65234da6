#include "runner.hpp"

#include "data.hpp"
#include "gpu.hpp"
#include "progress.hpp"
#include "pscan_calls.hpp"
#include "report_format.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

namespace compare {
namespace {

struct device_lost : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
std::string show(const T& v) {
  std::ostringstream s;
  if constexpr (std::is_same_v<T, affine>)
    s << "{a=" << v.a << ", b=" << v.b << "}";
  else
    s << +v;
  return s.str();
}

template <class T>
std::string describe_mismatch(std::int64_t bad, std::int64_t outputs, std::int64_t first,
                              const T& got, const T& want) {
  return std::to_string(bad) + " of " + std::to_string(outputs) + " outputs wrong; first at " +
         std::to_string(first) + ": got " + show(got) + ", expected " + show(want);
}

template <class T>
std::string compare_on_host(const T* got, const T* want, std::int64_t count) {
  std::int64_t bad = 0, first = count;
#pragma omp parallel for reduction(+ : bad) reduction(min : first)
  for (std::int64_t i = 0; i < count; ++i) {
    if (!matches(got[i], want[i])) {
      ++bad;
      first = std::min(first, i);
    }
  }
  return bad == 0 ? "" : describe_mismatch(bad, count, first, got[first], want[first]);
}

std::string cell_label(const cell& c) { return cell_name(c) + " " + format_count(c.n); }

stats time_on_cpu(const std::function<void()>& run, const timing_plan& plan) {
  return time_runs(
      [&] {
        const auto start = std::chrono::steady_clock::now();
        run();
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
      },
      plan);
}

// A device copy of a host array, or nothing for CPU cells.
template <class T>
gpu::buffer to_device(const T* host, std::int64_t count, bool gpu) {
  if (!gpu || count == 0) return {};
  gpu::buffer d(static_cast<std::size_t>(count) * sizeof(T));
  gpu::upload(d.get(), host, static_cast<std::size_t>(count) * sizeof(T));
  return d;
}

class matrix_runner {
 public:
  matrix_runner(const options& o, report& r, progress_bar& bar, const cell_done& done)
      : o_(o), r_(r), bar_(bar), done_(done) {}
  bool complete() const { return complete_; }  // false if a (size, type) had to be skipped

  void run_group(const planned_group& pg) {
    std::vector<std::int64_t> sizes = pg.g.sizes;
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (std::int64_t n : sizes) {
      segments_.clear();  // segmentations are shared by the types of one size
      for (element type : pg.g.types) {
        if (!pg.fits(n, type)) continue;
        try {
          with_element(type,
                       [&](auto tag) { run_size<typename decltype(tag)::type>(pg, type, n); });
        } catch (const device_lost&) {
          throw;
        } catch (const std::exception& e) {  // outside any one implementation: data, transfers
          const bool oom = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
          note(std::string(name_of(pg.g.where)) + " " + name_of(type) + " " + format_count(n) +
               " skipped: " + (oom ? "out of host memory" : e.what()));
          complete_ = false;
        }
      }
    }
  }

 private:
  void note(const std::string& text) {
    r_.notes.push_back(text);
    bar_.say("note: " + text);
  }

  const segmentation& segments(std::int64_t n, const segment_lengths& lengths) {
    auto it = segments_.find(lengths);
    if (it == segments_.end()) it = segments_.emplace(lengths, make_segmentation(n, lengths)).first;
    return it->second;
  }

  // Elements the output and the reference hold: n, or more where segments outnumber elements
  // (empty segments at tiny sizes).
  std::int64_t output_capacity(const planned_group& pg, std::int64_t n) {
    std::int64_t most = n;
    for (algorithm a : pg.g.algos) {
      if (!is_segmented(a)) continue;
      for (const segment_lengths& s : o_.segments)
        most = std::max(most, output_count(a, n, segments(n, s).segments()));
    }
    return most;
  }

  template <class T>
  void run_size(const planned_group& pg, element type, std::int64_t n) {
    const bool gpu = pg.g.where == target::gpu;
    bar_.stage(std::string(name_of(pg.g.where)) + " " + name_of(type) + " " + format_count(n));
    const host_array<T> values = make_values<T>(n);
    const std::int64_t capacity = output_capacity(pg, n);
    const host_array<T> host_out(gpu ? 0 : capacity);
    const host_array<T> reference(capacity);  // reused by every cell: touched once, in parallel
    poison_host(reference.get(), capacity * static_cast<std::int64_t>(sizeof(T)));
    const gpu::buffer d_values = to_device(values.get(), n, gpu);
    const gpu::buffer d_out =
        gpu ? gpu::buffer(static_cast<std::size_t>(capacity) * sizeof(T)) : gpu::buffer();
    cell_buffers b;
    b.values = gpu ? d_values.get() : values.get();
    b.out = gpu ? d_out.get() : host_out.get();
    b.n = n;
    b.stream = gpu ? gpu::stream() : nullptr;

    const cell copy_cell{pg.g.where, algorithm::inclusive_scan, type, n, {}};
    result copy = measure(*pg.copy, copy_cell, b, nullptr);
    copy.bytes = 2 * n * static_cast<std::int64_t>(sizeof(T));  // n read, n written
    copy.limit = true;
    bar_.step(work_of(copy_cell), cell_label(copy_cell) + " copy");
    std::optional<result> floor;  // n values read, the same for every distribution
    if (pg.measures_floor(type)) {
      const cell floor_cell{pg.g.where, algorithm::reduce, type, n, {}};
      floor = measure(*pg.floor, floor_cell, b, nullptr);
      floor->limit = true;
      bar_.step(work_of(floor_cell), cell_label(floor_cell) + " " + pg.floor->name);
    }
    for (algorithm a : pg.g.algos) {
      for (const segment_lengths& s : segment_lengths_of(a, o_)) {
        const cell c{pg.g.where, a, type, n, s};
        const bool floored = floor && describe(a).writes == output_shape::per_segment;
        run_cell<T>(pg, c, values, reference, b, copy, floored ? &*floor : nullptr);
      }
    }
  }

  // The cell's rows: each implementation's, then the limits (floor, copy) it is compared with.
  template <class T>
  void run_cell(const planned_group& pg, const cell& c, const host_array<T>& values,
                const host_array<T>& reference, cell_buffers b, result copy, const result* floor) {
    std::vector<const implementation*> impls;
    for (const implementation* impl : pg.impls) {
      if (runs_cell(*impl, c, o_)) impls.push_back(impl);
    }
    if (impls.empty()) return;  // no reference needed
    const bool gpu = c.where == target::gpu;
    const segmentation* seg =
        c.lengths.shape == segment_shape::none ? nullptr : &segments(c.n, c.lengths);
    cell_buffers host = b;
    host.values = values.get();
    if (seg) {
      host.flags = seg->flags.get();
      host.keys = seg->keys.get();
      host.offsets = seg->offsets.data();
      host.segments = seg->segments();
    }
    const std::int64_t outputs = output_count(c.algo, c.n, host.segments);
    const algorithm_descriptor& d = describe(c.algo);
    // Room for a key a segment: reduce_by_key writes them, and so does a library that reduces
    // segments by their keys.
    const bool keys_out = writes_keys(c.algo) || d.keys_as_well;
    const host_array<key_type> host_keys_out(keys_out ? host.segments : 0);
    std::int64_t host_runs = 0;
    host.out = reference.get();
    host.keys_out = host_keys_out.get();
    host.runs_out = &host_runs;
    run_pscan<T>(pscan::seq, c.algo, host, false);

    // The implementation's view: segment data and the reference where its target reads them.
    const bool flags = d.segments == segments_by::flags;
    const bool keys = d.segments == segments_by::keys || d.keys_as_well;
    const bool offsets = d.segments == segments_by::offsets;
    const gpu::buffer d_flags = to_device(host.flags, flags ? c.n : 0, gpu);
    const gpu::buffer d_keys = to_device(host.keys, keys ? c.n : 0, gpu);
    const gpu::buffer d_offsets = to_device(host.offsets, offsets ? host.segments + 1 : 0, gpu);
    const gpu::buffer d_reference = to_device(reference.get(), outputs, gpu);
    const gpu::buffer d_keys_out = to_device(host.keys_out, gpu && keys_out ? host.segments : 0, gpu);
    const gpu::buffer d_runs_out = to_device(host.runs_out, gpu && keys_out ? 1 : 0, gpu);
    b.segments = host.segments;
    b.keys_out = gpu ? static_cast<key_type*>(d_keys_out.get()) : host.keys_out;
    b.runs_out = gpu ? static_cast<std::int64_t*>(d_runs_out.get()) : host.runs_out;
    if (seg) {
      b.flags = gpu ? static_cast<const flag_type*>(d_flags.get()) : host.flags;
      b.keys = gpu ? static_cast<const key_type*>(d_keys.get()) : host.keys;
      b.offsets = gpu ? static_cast<const offset_type*>(d_offsets.get()) : host.offsets;
    }
    T host_result{};
    b.host_result = &host_result;

    auto validate = [&](const prepared_run& run) -> std::string {
      if (run.result_on_host) return compare_on_host(&host_result, reference.get(), 1);
      if (!gpu) return compare_on_host(static_cast<const T*>(b.out), reference.get(), outputs);
      const gpu::mismatch m = gpu::compare(c.type, b.out, d_reference.get(), outputs);
      if (m.count == 0) return "";
      T got{};
      gpu::download(&got, static_cast<const T*>(b.out) + m.first, sizeof(T));
      return describe_mismatch(m.count, outputs, m.first, got, reference.get()[m.first]);
    };
    const std::int64_t out_bytes = outputs * static_cast<std::int64_t>(sizeof(T));
    std::vector<result> rows;
    for (const implementation* impl : impls) {
      rows.push_back(measure(*impl, c, b, validate, out_bytes));
      bar_.step(work_of(c), cell_label(c) + " " + impl->name);
    }
    auto in_this_cell = [&](result limit) {
      limit.c = c;
      limit.segment_count = b.segments;
      return limit;
    };
    if (floor) rows.push_back(in_this_cell(*floor));
    copy = in_this_cell(copy);
    if (pg.show_copy) rows.push_back(copy);
    finalize_cell(rows, copy);
    r_.results.insert(r_.results.end(), rows.begin(), rows.end());
    bar_.clear();
    done_(rows);
  }

  // Prepare, validate (unless it is the copy), then time. Any exception becomes an error row;
  // a device that no longer works ends the GPU part.
  template <class Validate = std::nullptr_t>
  result measure(const implementation& impl, const cell& c, const cell_buffers& b,
                 const Validate& validate, std::int64_t out_bytes = 0) {
    const bool gpu = c.where == target::gpu;
    result r;
    r.c = c;
    r.segment_count = b.segments;
    r.impl = impl.name;
    r.library = impl.library;
    r.bytes = traffic_bytes(c, b.segments);
    try {
      const prepared_run run = impl.prepare(c, b);
      if constexpr (!std::is_same_v<Validate, std::nullptr_t>) {
        if (gpu)
          gpu::poison(b.out, static_cast<std::size_t>(out_bytes));
        else
          poison_host(b.out, out_bytes);
        std::memset(b.host_result, 0xFF, size_of(c.type));
        run.run();
        if (gpu) gpu::check_device();
        r.message = validate(run);
        if (!r.message.empty()) {
          r.outcome = status::failed;
          return r;
        }
      }
      r.timing = gpu ? gpu::time_runs(run.run, o_.plan) : time_on_cpu(run.run, o_.plan);
      // After the timing, which its extra calls (rewriting the same outputs) must not disturb. A
      // value returned to the host waits for the device by contract: not measurable.
      if (gpu && o_.host_cost.enabled && c.n <= o_.host_cost.max_n && !run.result_on_host)
        r.host_us = gpu::host_us_per_call(run.run, o_.host_cost);
    } catch (const std::exception& e) {
      r.outcome = status::error;
      r.message = e.what();
      if (gpu) {
        try {
          gpu::check_device();
        } catch (const std::exception& fatal) {
          throw device_lost(cell_label(c) + " " + impl.name + ": " + fatal.what());
        }
      }
    }
    return r;
  }

  const options& o_;
  report& r_;
  progress_bar& bar_;
  const cell_done& done_;
  std::map<segment_lengths, segmentation> segments_;
  bool complete_ = true;
};

}  // namespace

bool run_plan(const plan& p, const options& o, report& r, const cell_done& done) {
  progress_bar bar(p.work, o.progress);
  matrix_runner runner(o, r, bar, done);
  bool device_ok = true;
  for (const planned_group& pg : p.groups) {
    try {
      runner.run_group(pg);
    } catch (const device_lost& e) {
      r.notes.push_back(std::string("GPU part stopped after a device error: ") + e.what());
      bar.say("error: " + r.notes.back());
      device_ok = false;
    }
  }
  bar.clear();
  return device_ok && runner.complete();
}

}  // namespace compare
