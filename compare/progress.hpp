#pragma once
// The live progress on stderr: a bar redrawn in place on a terminal; without one, a line per
// (target, type, size) so that logs still show where a long run is. Work is counted in bytes
// moved, so the percentage and the time left follow the cells' sizes, not their number.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

namespace compare {

class progress_bar {
 public:
  progress_bar(std::int64_t total, bool live)
      : total_(std::max<std::int64_t>(total, 1)), live_(live) {}
  void step(std::int64_t work, const std::string& what) {
    done_ = std::min(total_, done_ + work);
    if (!live_) return;
    constexpr int width = 30;
    const int filled = static_cast<int>(width * fraction());
    std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, '.') << "] "
              << status() << "  " << what.substr(0, 50) << "\x1b[K" << std::flush;
  }
  void stage(const std::string& what) {  // without a terminal: one line per (size, type)
    if (!live_) std::cerr << "[" << status() << "] " << what << "\n";
  }
  void say(const std::string& line) {  // a line above the bar
    clear();
    std::cerr << line << "\n";
  }
  void clear() {
    if (live_) std::cerr << "\r\x1b[K" << std::flush;
  }

 private:
  double fraction() const { return static_cast<double>(done_) / static_cast<double>(total_); }
  std::string status() const {  // "37%, ~2m10s left"
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const int percent = static_cast<int>(100 * fraction());
    if (done_ == 0) return std::to_string(percent) + "%";
    const auto left = static_cast<long long>(elapsed * (1 / fraction() - 1) + 0.5);
    char text[64];
    std::snprintf(text, sizeof text, "%d%%, ~%lldm%02llds left", percent, left / 60, left % 60);
    return text;
  }

  std::int64_t total_;
  std::int64_t done_ = 0;
  bool live_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace compare
