// A one-line progress report on stderr (bytes done, records/s, ETA): only when stderr is a
// terminal, unless forced on or off. Updated at most a few times a second from the serial sink.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace fenmill {

// The report's text for `done` of `total` bytes (0: unknown, no ETA) and `records` after `secs` seconds.
std::string progress_line(std::uint64_t done, std::uint64_t total, std::uint64_t records, double secs);

class Progress {
 public:
  // mode: -1 auto (stderr is a terminal), 0 off, 1 on.
  Progress(int mode, const std::vector<std::string>& inputs);
  // done_in_input: bytes finished in input number `input`; records: records so far.
  void update(std::uint64_t done_in_input, std::uint32_t input, std::uint64_t records);
  // Ends the line, once it shows the run's totals.
  void finish();

 private:
  void print(std::chrono::steady_clock::time_point now);

  bool enabled_;
  std::vector<std::uint64_t> sizes_;  // 0 where unknown (pipes, compressed input)
  std::uint64_t total_ = 0;           // sum of known sizes, 0 if any is unknown
  std::chrono::steady_clock::time_point start_, last_;
  bool printed_ = false;
  std::uint64_t done_in_input_ = 0, records_ = 0;  // as of the last update, printed or not
  std::uint32_t input_ = 0;
  int shown_ = 0;                         // the length of the line on screen
};

}  // namespace fenmill
