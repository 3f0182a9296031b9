// Calls a function for every line of a buffer (without its '\n'; a last line without one counts too),
// finding the line ends 64 bytes at a time with vector compares and walking the set bits of the mask, which
// costs less than a memchr call per line of ~60 bytes. Returns the number of lines.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fenmill {

// Bit i set when p[i] is '\n', for the 64 bytes at p.
inline std::uint64_t newline_mask64(const char* p) {
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  std::uint64_t mask = 0;
  for (int i = 0; i < 4; ++i) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    mask |= static_cast<std::uint64_t>(static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline)))) << (16 * i);
  }
  return mask;
#else
  std::uint64_t mask = 0;
  for (int i = 0; i < 64; ++i) mask |= static_cast<std::uint64_t>(p[i] == '\n') << i;
  return mask;
#endif
}

template <typename OnLine>
std::uint64_t for_each_line(std::string_view bytes, OnLine&& on_line) {
  const char* data = bytes.data();
  const std::size_t size = bytes.size();
  std::uint64_t lines = 0;
  std::size_t start = 0, block = 0;
  for (; block + 64 <= size; block += 64) {
    for (std::uint64_t mask = newline_mask64(data + block); mask; mask &= mask - 1) {
      std::size_t end = block + static_cast<std::size_t>(__builtin_ctzll(mask));
      on_line(std::string_view(data + start, end - start));
      ++lines;
      start = end + 1;
    }
  }
  for (std::size_t i = block; i < size; ++i) {  // the last bytes, which a 64-byte load would overrun
    if (data[i] != '\n') continue;
    on_line(std::string_view(data + start, i - start));
    ++lines;
    start = i + 1;
  }
  if (start < size) {
    on_line(std::string_view(data + start, size - start));
    ++lines;
  }
  return lines;
}

}  // namespace fenmill
