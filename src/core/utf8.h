// Well-formed UTF-8 (RFC 3629), for the writers that copy input text into JSON or XML: a sequence is
// copied only when it is a real character, so no output file ever holds invalid UTF-8.
#pragma once
#include <cstddef>
#include <string_view>

namespace fenmill {

// A byte inside a UTF-8 sequence (10xxxxxx): text cut before it would split a character.
inline bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Length of the well-formed UTF-8 sequence at s[i] (1 for ASCII), or 0 when the bytes there are not one:
// a stray continuation byte, a truncated sequence, an overlong form, a surrogate (U+D800..U+DFFF) or a
// code point above U+10FFFF.
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  unsigned char c1 = byte(i + 1);
  if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F))
    return 0;
  return n;
}

}  // namespace fenmill
