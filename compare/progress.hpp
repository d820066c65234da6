#pragma once
// The live progress bar on stderr: a bar redrawn in place on a terminal; without one, a line
// per (target, type, size) so that logs still show where a long run is.

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>

namespace compare {

class progress_bar {
 public:
  progress_bar(std::int64_t total, bool live)
      : total_(std::max<std::int64_t>(total, 1)), live_(live) {}
  void step(const std::string& what) {
    ++done_;
    if (!live_) return;
    constexpr int width = 30;
    const int filled = static_cast<int>(width * done_ / total_);
    std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, '.') << "] "
              << done_ << "/" << total_ << "  " << what.substr(0, 60) << "\x1b[K" << std::flush;
  }
  void stage(const std::string& what) {  // without a terminal: one line per (size, type)
    if (!live_) std::cerr << "[" << 100 * done_ / total_ << "%] " << what << "\n";
  }
  void say(const std::string& line) {  // a line above the bar
    if (live_) std::cerr << "\r\x1b[K";
    std::cerr << line << "\n";
  }
  void finish() {
    if (live_) std::cerr << "\r\x1b[K" << std::flush;
  }

 private:
  std::int64_t total_;
  std::int64_t done_ = 0;
  bool live_;
};

}  // namespace compare
