// The rows finalize_cell must not present as results: a parallel CPU row slower than seq, and
// every cell whose copy was disturbed.

#include "registry.hpp"
#include "report.hpp"

#include <doctest/doctest.h>

#include <vector>

namespace compare {
namespace {

result row(const char* impl, double median_ms, bool limit = false) {
  result x;
  x.c = cell{target::cpu, algorithm::inclusive_scan, element::i32, 1 << 20, {}};
  x.impl = impl;
  x.bytes = std::int64_t{8} << 20;
  x.timing.runs = 5;
  x.timing.median_ms = x.timing.min_ms = x.timing.max_ms = median_ms;
  x.limit = limit;
  return x;
}

TEST_CASE("a parallel CPU row slower than seq is marked, a faster one is not") {
  std::vector<result> rows = {row("seq", 1.0), row("omp", 1.5), row("thrust_omp", 0.4),
                              row("std", 1.2)};
  result copy = row("copy", 0.5, true);
  finalize_cell(rows, copy);
  CHECK_FALSE(rows[0].slower_than_seq);  // the reference itself
  CHECK(rows[1].slower_than_seq);
  CHECK(marks_of(rows[1]) == "<");
  CHECK_FALSE(rows[2].slower_than_seq);
  CHECK_FALSE(rows[3].slower_than_seq);  // std is sequential: the baseline, not parallel
  CHECK(rows[1].percent_of_copy > 0);
  CHECK_FALSE(rows[1].copy_disturbed);
}

TEST_CASE("without a timed seq nothing is marked slower") {
  std::vector<result> rows = {row("omp", 9.0)};
  result copy = row("copy", 0.5, true);
  finalize_cell(rows, copy);
  CHECK_FALSE(rows[0].slower_than_seq);
}

TEST_CASE("a copy beaten by over 1.25x is no ceiling: no % of copy in its cell") {
  std::vector<result> rows = {row("seq", 1.0), row("omp", 0.7), row("copy", 1.0, true)};
  result copy = rows[2];
  finalize_cell(rows, copy);
  for (const result& x : rows) {
    CHECK(x.copy_disturbed);
    CHECK(x.percent_of_copy < 0);
  }
  CHECK(marks_of(rows[2]) == "~");
  CHECK(marks_of(rows[1]).empty());
}

TEST_CASE("a copy at most 1.25x slower keeps its cell's % of copy") {
  std::vector<result> rows = {row("omp", 0.42), row("copy", 0.5, true)};
  result copy = rows[1];
  finalize_cell(rows, copy);
  CHECK_FALSE(rows[0].copy_disturbed);
  CHECK(rows[0].percent_of_copy == doctest::Approx(100.0 * 0.5 / 0.42));
}

TEST_CASE("a parallel exact row slower than seq_exact is marked, seq_exact itself is not") {
  std::vector<result> rows = {row("seq", 1.0), row("seq_exact", 4.0), row("omp_exact", 5.0)};
  result copy = row("copy", 0.5, true);
  finalize_cell(rows, copy);
  CHECK_FALSE(rows[1].slower_than_seq);
  CHECK(rows[2].slower_than_seq);
  CHECK(marks_of(rows[2]) == "<");
}

}  // namespace
}  // namespace compare
