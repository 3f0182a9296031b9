// JSON Lines: find one string field of an object per line with simdjson's On-Demand API, and where
// its raw token sits in the line, so the line can be written back with only that field replaced. On-Demand
// checks only what it reads, so the line is first validated whole by the DOM parser: a line that is not
// valid JSON is rejected, never copied to the output.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include <simdjson.h>

namespace fenmill {

class JsonlFieldFinder {
 public:
  struct Found {
    std::string_view value;          // unescaped string value (valid until the next call)
    std::size_t raw_begin, raw_end;  // the raw token, quotes included, as offsets in the line
  };
  // False with `error` set when the line is not a JSON object or has no such string field.
  bool find(std::string_view line, std::string_view field, Found& out, std::string& error);
  // The offset in the raw string token (quotes included) of byte `decoded` of its unescaped value: where a
  // position in the value is written in the line, escapes such as \/ or \u0034 counted as written.
  static std::size_t raw_offset(std::string_view raw_token, std::size_t decoded);

 private:
  simdjson::dom::parser validator_;
  simdjson::ondemand::parser parser_;
  std::string padded_;  // the line plus SIMDJSON_PADDING bytes, reused
  std::string value_;
};

}  // namespace fenmill
