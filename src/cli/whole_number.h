// A CLI11 check for whole-number options: says "abc is not a whole number" where CLI::Range says "Value abc not
// in range 0 to 1024", and hands on the decimal it read (add it with ->transform: ->check would not).
#pragma once
#include <CLI/CLI.hpp>
#include <charconv>
#include <string>
#include <string_view>

namespace fenmill::cli {

inline CLI::Validator whole_number_in(long long lo, long long hi) {
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        // Blanks around it and a leading '+' are let pass, as CLI::Range (strtoll) let them.
        std::string_view digits = text;
        while (!digits.empty() && (digits.front() == ' ' || digits.front() == '\t')) digits.remove_prefix(1);
        while (!digits.empty() && (digits.back() == ' ' || digits.back() == '\t')) digits.remove_suffix(1);
        if (digits.size() > 1 && digits.front() == '+' && digits[1] != '-') digits.remove_prefix(1);
        long long value = 0;
        const char* end = digits.data() + digits.size();
        auto [stop, ec] = std::from_chars(digits.data(), end, value);
        if (digits.empty() || stop != end || (ec != std::errc() && ec != std::errc::result_out_of_range))
          return text + " is not a whole number";
        if (ec == std::errc::result_out_of_range || value < lo || value > hi)
          return text + " is out of range (" + range + ")";
        // Handed on in decimal: CLI11 converts with strtoll's base 0, which reads "010" as 8 and refuses "08".
        text = std::to_string(value);
        return std::string();
      },
      "INT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");  // the help's words, as CLI::Range
}

}  // namespace fenmill::cli
