// JSON Lines: find one string field of an object per line with simdjson's On-Demand API, and where
// its raw token sits in the line, so the line can be written back with only that field replaced.
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

 private:
  simdjson::ondemand::parser parser_;
  std::string padded_;  // the line plus SIMDJSON_PADDING bytes, reused
  std::string value_;
};

}  // namespace fenmill
