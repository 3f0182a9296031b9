// File names: extensions decide formats (inputs and -o alike), matched in any case ("x.EPD" is EPD).
#pragma once
#include <cctype>
#include <cstddef>
#include <string_view>

namespace fenmill {

// Whether `name` ends with `extension` (given in lower case, dot included), in any case.
inline bool has_extension(std::string_view name, std::string_view extension) {
  if (name.size() < extension.size()) return false;
  const std::size_t start = name.size() - extension.size();
  for (std::size_t i = 0; i < extension.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(name[start + i])) != extension[i]) return false;
  return true;
}

}  // namespace fenmill
