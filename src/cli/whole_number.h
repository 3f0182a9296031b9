// A CLI11 check for whole-number options: says "abc is not a whole number" where CLI::Range says "Value abc not
// in range 0 to 1024".
#pragma once
#include <CLI/CLI.hpp>
#include <charconv>
#include <string>

namespace fenmill::cli {

inline CLI::Validator whole_number_in(long long lo, long long hi) {
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        long long value = 0;
        const char* end = text.data() + text.size();
        auto [stop, ec] = std::from_chars(text.data(), end, value);
        if (stop != end || (ec != std::errc() && ec != std::errc::result_out_of_range))
          return text + " is not a whole number";
        if (ec == std::errc::result_out_of_range || value < lo || value > hi)
          return text + " is out of range (" + range + ")";
        return std::string();
      },
      "INT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");  // the help's words, as CLI::Range
}

}  // namespace fenmill::cli
