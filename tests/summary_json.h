// Reading the flat JSON that `--summary` and `stats` write, for tests that check the counts add up.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>

namespace fenmill::cli_test {

// A number field of the flat summary / stats JSON; a test failure (and ~0) when it is missing.
inline std::uint64_t json_number(const std::string& json, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + key + "\": ([0-9]+)"))) {
    ADD_FAILURE() << "no \"" << key << "\" in " << json;
    return ~0ull;
  }
  return std::stoull(m[1]);
}

// The sum of the "invalid_by_code" counts (~0 when the object is missing).
inline std::uint64_t sum_by_code(const std::string& json) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex(R"("invalid_by_code": \{([^}]*)\})"))) return ~0ull;
  std::string body = m[1];
  std::uint64_t sum = 0;
  static const std::regex entry(R"("[A-Z_]+": ([0-9]+))");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), entry); it != std::sregex_iterator(); ++it)
    sum += std::stoull((*it)[1]);
  return sum;
}

// The summary's "seconds" differ from run to run; everything else must not.
inline std::string without_seconds(const std::string& summary) {
  static const std::regex seconds(R"("seconds": [0-9]+\.[0-9]+)");
  return std::regex_replace(summary, seconds, "\"seconds\": 0");
}

}  // namespace fenmill::cli_test
