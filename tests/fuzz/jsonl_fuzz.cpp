// libFuzzer target: the JSON Lines scanner (formats/jsonl.h) on arbitrary bytes.
// Invariants: it agrees with simdjson's DOM parser wherever simdjson's verdict is unambiguous (SUCCESS, or an
// error other than its NUMBER/STRING codes, which mix syntax errors with valid big numbers and lone
// surrogates); a found field lies in a line that is JSON, is itself one JSON string token, and every offset
// raw_offset gives for its value lies inside the token, in order; the values find_values finds are JSON values, in
// order, whose replacement keeps the line JSON.
#include <simdjson.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "formats/jsonl.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const bool valid = fenmill::JsonlFieldFinder::is_json(line);

  static simdjson::dom::parser parser;
  const simdjson::error_code error = parser.parse(simdjson::padded_string(line)).error();
  const bool ambiguous = error == simdjson::NUMBER_ERROR || error == simdjson::STRING_ERROR ||
                         error == simdjson::NUMBER_OUT_OF_RANGE ||
                         error == simdjson::DEPTH_ERROR || error == simdjson::CAPACITY;
  if (!ambiguous && valid != (error == simdjson::SUCCESS)) std::abort();

  static fenmill::JsonlFieldFinder finder;
  fenmill::JsonlFieldFinder::Found found;
  std::string message;
  for (std::string_view field : {std::string_view("fen"), std::string_view("")}) {
    if (!finder.find(line, field, found, message)) {
      if (message.empty()) std::abort();  // a rejection always says why
      continue;
    }
    if (!valid || found.raw_begin >= found.raw_end || found.raw_end > line.size()) std::abort();
    const std::string_view raw = line.substr(found.raw_begin, found.raw_end - found.raw_begin);
    if (raw.size() < 2 || raw.front() != '"' || raw.back() != '"') std::abort();
    if (!fenmill::JsonlFieldFinder::is_json(raw)) std::abort();
    if (raw.find('\\') == std::string_view::npos && found.value != raw.substr(1, raw.size() - 2)) std::abort();
    // find accepts a field named once only: find_values sees that one member, at the same place.
    std::vector<fenmill::JsonlFieldFinder::Span> spans;
    if (!finder.find_values(line, field, spans) || spans.size() != 1 || spans[0].begin != found.raw_begin ||
        spans[0].end != found.raw_end)
      std::abort();
    std::size_t previous = 0;
    for (std::size_t k = 0; k <= found.value.size(); ++k) {
      const std::size_t at = fenmill::JsonlFieldFinder::raw_offset(raw, k);
      if (at < 1 || at > raw.size() - 1 || at < previous) std::abort();
      previous = at;
    }
  }
  // find_values (dedup --count's "count" keys): each member's value, of any type, is one JSON value, the values come
  // in order without overlapping, and putting other values in their places leaves the line JSON.
  std::vector<fenmill::JsonlFieldFinder::Span> spans;
  for (std::string_view field : {std::string_view("count"), std::string_view("fen"), std::string_view("")}) {
    if (finder.find_values(line, field, spans) != valid) std::abort();
    std::string replaced;
    std::size_t from = 0;
    for (const fenmill::JsonlFieldFinder::Span& span : spans) {
      if (span.begin < from || span.begin >= span.end || span.end > line.size()) std::abort();
      if (!fenmill::JsonlFieldFinder::is_json(line.substr(span.begin, span.end - span.begin))) std::abort();
      (replaced += line.substr(from, span.begin - from)) += "12";
      from = span.end;
    }
    replaced += line.substr(from);
    if (!spans.empty() && !fenmill::JsonlFieldFinder::is_json(replaced)) std::abort();
  }
  return 0;
}
