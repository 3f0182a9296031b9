// JSON Lines: find one string field of an object per line, and where its raw token sits in the line, so the line
// can be written back with only that field replaced. The same single pass checks that the whole line is one JSON
// value by the grammar of RFC 8259 (and that its bytes are UTF-8): a line that is not valid JSON is rejected,
// never copied to the output. Only the grammar is checked (the values are never used, only the FEN field's): a
// number of any size or precision (123456789012345678901234567890, 1e400) and a string escaping a lone surrogate
// ("\ud800") are valid JSON and pass. Why not simdjson here: On-Demand checks only what it reads on the way to the
// field, and simdjson's DOM parser (3.0) rejects those valid lines with the same error codes as real syntax errors (NUMBER_ERROR for 1e400
// and 01, STRING_ERROR for \ud800 and \q) and stops at the first error, so its verdict cannot be mapped back.
// This one pass also costs less than the DOM validation plus On-Demand did (docs/PERFORMANCE.md, session 5).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fenmill {

class JsonlFieldFinder {
 public:
  // How whitespace, numbers and string bodies are skipped: 16 bytes a step (SSE2) unless FENMILL_NO_SIMD is set or
  // the CPU has no SSE2 (kChosen), or forced, for tests comparing the two; both give the same answers.
  enum class Scan { kChosen, kScalar, kVector };
  explicit JsonlFieldFinder(Scan scan = Scan::kChosen);
  struct Found {
    std::string_view value;          // unescaped string value (valid until the next call, or while the line is)
    std::size_t raw_begin, raw_end;  // the raw token, quotes included, as offsets in the line
  };
  // False with `error` set when the line is not valid JSON, not an object, or has no such string field, or has
  // it twice. Only a top-level member counts. A field whose string
  // escapes a lone surrogate has no UTF-8 value: that is "not a string" too.
  bool find(std::string_view line, std::string_view field, Found& out, std::string& error);
  struct Span {
    std::size_t begin, end;  // offsets in the line
  };
  // The raw values, of any type, of every top-level member named `field` (unescaped) of the JSON value on `line`,
  // in order: names should be unique, but readers differ in which duplicate they keep, so a caller replacing a
  // value replaces them all. False (and `out` empty) when the line is not valid JSON; true and empty when it has
  // no such member.
  bool find_values(std::string_view line, std::string_view field, std::vector<Span>& out);
  // Whether `text` is exactly one JSON value (any type), optionally surrounded by JSON whitespace, in UTF-8.
  static bool is_json(std::string_view text, Scan scan = Scan::kChosen);
  // The offset in the raw string token (quotes included) of byte `decoded` of its unescaped value: where a
  // position in the value is written in the line, escapes such as \/ or \u0034 counted as written.
  static std::size_t raw_offset(std::string_view raw_token, std::size_t decoded);
  // The value of `raw_token`, one JSON string (its quotes included); false when it is not exactly that, or escapes
  // a lone surrogate.
  static bool string_value(std::string_view raw_token, std::string& out);

 private:
  bool vector_;
  std::string stack_;  // open containers, '{' or '[', reused
  std::string value_;  // the unescaped value when it has escapes
  std::string key_;    // an unescaped member name, reused
};

}  // namespace fenmill
