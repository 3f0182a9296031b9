// Reading a record's fields left to right: the byte classes a FEN line ignores, and a cursor with the field
// helpers the chess and the Xiangqi parsers share (and the pipeline's blank-line test).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fenmill {

constexpr bool is_blank(char c) { return c == ' ' || c == '\t'; }
// Ignored at the end of a record: blanks, CR, and the NUL that some EPD collections put before LF. And LF, which a
// line never holds but a JSON string's "\n" or a quoted CSV field's last line break does: the same line end.
constexpr bool is_trailing_junk(char c) { return is_blank(c) || c == '\r' || c == '\n' || c == '\0'; }
// `s` without the junk at its end.
inline std::string_view without_trailing_junk(std::string_view s) {
  while (!s.empty() && is_trailing_junk(s.back())) s.remove_suffix(1);
  return s;
}
// Where `record` holds a CR before its trailing junk (a CRLF line end's CR is junk), or npos. Lines end at LF, so such
// a CR most likely ends a line of a file whose lines end in CR alone, all of it read as one record.
inline std::size_t inner_cr(std::string_view record) { return without_trailing_junk(record).find('\r'); }
// A line of nothing but those holds no record: the pipeline skips it, and render as the pipeline does.
inline bool is_blank_line(std::string_view line) {
  for (char c : line)
    if (!is_trailing_junk(c)) return false;
  return true;
}

struct Cursor {
  const char* begin;
  const char* p;
  const char* end;
  // EPD: from the en-passant field on, a ';' also ends a field, as in "w - -; bm e4" or "0 1; D1 20"
  // (real collections write both). Chess and Xiangqi alike.
  bool semicolon_ends_field = false;
  std::uint32_t column() const { return static_cast<std::uint32_t>(p - begin) + 1; }
  void skip_blanks() {
    while (p < end && is_blank(*p)) ++p;
  }
  bool at_operations() const { return semicolon_ends_field && p < end && *p == ';'; }
  bool at_field_end() const { return p == end || is_blank(*p) || at_operations(); }
};

// Parses an unsigned decimal ending at a field end; false on anything else. Stops accumulating once the value
// reaches 2^32, so any larger number still reads as out of range for the callers' checks.
inline bool parse_uint(Cursor& c, std::uint64_t& value) {
  const char* start = c.p;
  value = 0;
  while (c.p < c.end && *c.p >= '0' && *c.p <= '9') {
    if (value < (1ull << 32)) value = value * 10 + static_cast<unsigned>(*c.p - '0');
    ++c.p;
  }
  return c.p != start && c.at_field_end();
}

}  // namespace fenmill
