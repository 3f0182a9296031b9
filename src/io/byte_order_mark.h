// Byte-order marks at the start of an input: a UTF-8 one is skipped (the reader never shows it to a parser), a
// UTF-16 one is an error: such a file (what Windows PowerShell's `>` writes) has a NUL in every other byte, and
// read as it is every record would be rejected, BAD_PIECE at column 1, with no word of the cause.
#pragma once
#include <string>
#include <string_view>

namespace fenmill {

inline bool starts_with_utf8_bom(std::string_view bytes) { return bytes.substr(0, 3) == "\xEF\xBB\xBF"; }

// The error for an input (`name`) whose first bytes are `start`: empty unless it opens with a UTF-16 mark.
inline std::string utf16_error(std::string_view start, std::string_view name) {
  const std::string_view mark = start.substr(0, 2);
  if (mark != "\xFF\xFE" && mark != "\xFE\xFF") return {};
  return std::string(name) + ": UTF-16 text (it starts with a UTF-16 byte-order mark); fenmill reads UTF-8: " +
         "convert it first (iconv -f UTF-16 -t UTF-8)";
}

}  // namespace fenmill
