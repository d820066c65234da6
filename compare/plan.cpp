#include "plan.hpp"

#include "data.hpp"
#include "gpu.hpp"
#include "registry.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace compare {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

void add_note(std::vector<std::string>& notes, const std::string& note) {
  if (!contains(notes, note)) notes.push_back(note);
}

std::string gib(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  return text;
}

// Drops (size, type) pairs that do not fit in memory; returns the messages.
std::vector<std::string> check_memory(planned_group& pg, const options& o, std::int64_t host_free,
                                      std::int64_t device_free) {
  std::vector<std::string> messages;
  for (std::int64_t n : pg.g.sizes) {
    for (element type : pg.g.types) {
      const footprint need = estimate_footprint(pg.g.where, type, n, pg.g.algos, o.segments);
      std::string why;
      if (host_free >= 0 && need.host > host_free) {
        why = "needs about " + gib(need.host) + " of host memory, " + gib(host_free) + " available";
      } else if (need.device > device_free) {
        why = "needs about " + gib(need.device) + " of GPU memory, " + gib(device_free) + " free";
      }
      if (!why.empty()) {
        pg.too_big.emplace_back(n, type);
        messages.push_back(std::string(name_of(pg.g.where)) + " " + name_of(type) + " " +
                           format_count(n) + " does not fit: " + why);
      }
    }
  }
  return messages;
}

bool per_segment(algorithm a) { return describe(a).writes == output_shape::per_segment; }

// Notes what the group's implementations will not run: one note for the algorithms an
// implementation lacks, and one per reason for the types (named unless it is all of them) and
// segments it cannot take, naming the algorithms it applies to ("every algorithm" where it is
// all those the implementation has). The floor is noted for the per-segment algorithms, by what
// it runs: a reduce.
void note_unsupported(const planned_group& pg, const options& o, std::vector<std::string>& notes) {
  std::vector<const implementation*> impls = pg.impls;
  if (pg.floor) impls.push_back(pg.floor);
  for (const implementation* impl : impls) {
    const bool floor = impl->part == role::floor;
    std::string lacking;
    int implemented = 0;
    // "types: why" and "segments S: why", each with the algorithms it applies to, in order.
    std::vector<std::pair<std::string, std::vector<std::string>>> reasons;
    auto add_reason = [&](const std::string& what, algorithm a) {
      auto at = std::find_if(reasons.begin(), reasons.end(),
                             [&](const auto& r) { return r.first == what; });
      if (at == reasons.end()) at = reasons.insert(reasons.end(), {what, {}});
      at->second.push_back(name_of(a));
    };
    for (algorithm a : pg.g.algos) {
      if (floor && !per_segment(a)) continue;
      const algorithm runs = floor ? algorithm::reduce : a;
      if (!implements(*impl, runs)) {
        lacking += std::string(lacking.empty() ? "" : ", ") + name_of(a);
        continue;
      }
      ++implemented;
      std::map<std::string, std::vector<element>> types_by_reason;
      for (element type : pg.g.types) {
        const std::string why = impl->unsupported(runs, type);
        if (!why.empty()) types_by_reason[why].push_back(type);
      }
      for (const auto& [why, types] : types_by_reason) {
        std::string which;
        for (element type : types) which += std::string(which.empty() ? "" : ",") + name_of(type);
        add_reason(types.size() == pg.g.types.size() ? ": " + why : " " + which + ": " + why, a);
      }
      for (const segment_lengths& s : segment_lengths_of(a, o)) {
        const std::string why = impl->unsupported_segments(a, s);
        if (!why.empty()) add_reason(" segments " + name_of(s) + ": " + why, a);
      }
    }
    for (const auto& [what, algos] : reasons) {
      std::string which;
      for (const std::string& a : algos) which += std::string(which.empty() ? "" : ", ") + a;
      if (implemented > 1 && static_cast<int>(algos.size()) == implemented) {
        which = "every algorithm";
      }
      add_note(notes, impl->name + " n/a for " + which + what);
    }
    if (!lacking.empty()) {
      add_note(notes, impl->name + " n/a for " + lacking + ": not implemented by " + impl->name);
    }
    const auto& sizes = pg.g.sizes;
    const bool beyond_seq_max = *std::max_element(sizes.begin(), sizes.end()) > o.seq_max;
    if (impl->part == role::reference && beyond_seq_max) {
      add_note(notes, impl->name + " is timed up to " + format_count(o.seq_max) +
                          " elements (--seq-max); it computes the reference at every size");
    }
    if (impl->part == role::exact && pg.g.where == target::cpu && beyond_seq_max) {
      add_note(notes, impl->name + " is timed up to " + format_count(o.seq_max) +
                          " elements (--seq-max): exact sums cost a long run per cell beyond");
    }
  }
}

// Notes the known implementations of the group's target this binary lacks, among those the group
// would run (a GPU part that cannot run gets one note, its reason).
void note_missing(const group& g, const std::vector<implementation>& impls,
                  std::vector<std::string>& notes) {
  for (const registration& r : registrations()) {
    const bool built = std::any_of(impls.begin(), impls.end(),
                                   [&](const implementation& i) { return i.name == r.name; });
    if (!built && r.part != role::planted && runs_on(r, g.where) &&
        (g.impls.empty() || contains(g.impls, r.name))) {
      add_note(notes, std::string(r.name) + " not run: " + r.needs);
    }
  }
}

// The work of a group's runs, the copies included.
std::int64_t count_work(const planned_group& pg, const options& o, std::int64_t& runs) {
  std::int64_t work = 0;
  for (std::int64_t n : pg.g.sizes) {
    for (element type : pg.g.types) {
      if (!pg.fits(n, type)) continue;
      work += work_of(cell{pg.g.where, algorithm::inclusive_scan, type, n, {}});  // the copy
      if (pg.measures_floor(type))
        work += work_of(cell{pg.g.where, algorithm::reduce, type, n, {}});
      for (algorithm a : pg.g.algos) {
        for (const segment_lengths& s : segment_lengths_of(a, o)) {
          const cell c{pg.g.where, a, type, n, s};
          for (const implementation* impl : pg.impls) {
            if (!runs_cell(*impl, c, o)) continue;
            work += work_of(c);
            ++runs;
          }
        }
      }
    }
  }
  return work;
}

}  // namespace

bool planned_group::fits(std::int64_t n, element type) const {
  return std::find(too_big.begin(), too_big.end(), std::make_pair(n, type)) == too_big.end();
}

bool planned_group::measures_floor(element type) const {
  return floor != nullptr && why_not(*floor, algorithm::reduce, type).empty();
}

std::int64_t work_of(const cell& c) { return traffic_bytes(c, expected_segments(c.n, c.lengths)); }

std::vector<segment_lengths> segment_lengths_of(algorithm a, const options& o) {
  if (!is_segmented(a)) return {segment_lengths{}};
  std::vector<segment_lengths> lengths;
  for (const segment_lengths& s : o.segments) {
    // Runs of keys are never empty: a reduce by key writes one result a non-empty segment.
    if (!(writes_keys(a) && has_empty_segments(s))) lengths.push_back(s);
  }
  return lengths;
}

bool runs_cell(const implementation& impl, const cell& c, const options& o) {
  if (impl.part == role::planted && !o.plant_bug) return false;
  // The CPU's exact sums take about a second a run at 2^24: capped as seq is.
  const bool capped =
      impl.part == role::reference || (impl.part == role::exact && c.where == target::cpu);
  if (capped && c.n > o.seq_max) return false;
  return why_not(impl, c.algo, c.type).empty() &&
         impl.unsupported_segments(c.algo, c.lengths).empty();
}

plan make_plan(const options& o, const std::vector<implementation>& impls) {
  plan p;
  p.gpu_unavailable = gpu::unavailable_reason();
  const std::int64_t host_free = host_available_bytes();
  const std::int64_t device_free = p.gpu_unavailable.empty() ? gpu::free_memory_bytes() : 0;
  std::int64_t runs = 0;  // (cell, implementation) pairs, not counting the copies
  for (const group& g : o.groups) {
    if (g.where == target::gpu && !p.gpu_unavailable.empty()) {
      if (o.gpu_asked)
        p.errors.push_back("the GPU part was asked for but cannot run: " + p.gpu_unavailable);
      else
        add_note(p.notes, "GPU part skipped: " + p.gpu_unavailable);
      continue;
    }
    planned_group pg{g, {}, nullptr, g.impls.empty() || contains(g.impls, "copy"), nullptr, {}};
    const bool floored = std::any_of(g.algos.begin(), g.algos.end(), per_segment);
    for (const implementation& impl : impls) {
      if (impl.where != g.where || (impl.part == role::planted && !o.plant_bug)) continue;
      const bool selected = g.impls.empty() || contains(g.impls, impl.name);
      if (impl.part == role::copy)
        pg.copy = &impl;
      else if (impl.part == role::floor)
        pg.floor = selected && floored ? &impl : nullptr;
      else if (selected)
        pg.impls.push_back(&impl);
    }
    note_missing(g, impls, p.notes);
    if (pg.impls.empty()) continue;
    for (auto& message : check_memory(pg, o, host_free, device_free)) {
      (o.sizes_given ? p.errors : p.notes).push_back(message);
    }
    note_unsupported(pg, o, p.notes);
    p.work += count_work(pg, o, runs);
    p.groups.push_back(std::move(pg));
  }
  if (runs == 0 && p.errors.empty()) {
    p.errors.push_back("nothing to run: no built-in implementation matches the filters");
  }
  return p;
}

}  // namespace compare
