// Test failure messages: a text with every byte outside printable ASCII (and the backslash) written as \xHH, so that
// the CRs, NULs, TABs and UTF-8 bytes of generated inputs show.
#pragma once
#include <string>
#include <string_view>

namespace fenmill {

inline std::string visible_bytes(std::string_view s) {
  std::string out;
  for (unsigned char c : s)
    if (c >= 0x20 && c < 0x7f && c != '\\')
      out += static_cast<char>(c);
    else
      out += "\\x" + std::string(1, "0123456789abcdef"[c >> 4]) + "0123456789abcdef"[c & 15];
  return out;
}

}  // namespace fenmill
