// The first of a few given bytes in a text, 16 bytes a step (SSE2), as several scanners need it: CSV rows (newline or
// quote) and quoting (quote, CR, LF, separator), EPD operands (quote and ';' or '\\'). One pass instead of a memchr
// per byte sought, or a test per byte.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/address_sanitizer.h"

namespace fenmill {

// The index of the first byte of s at or after i that equals one of `bytes`, or s.size(). The last, partial step
// reads 16 bytes when they lie in its first byte's 4 KiB page, whatever is past the end (masked off): short texts
// such as an EPD operand are one vector step instead of a test per byte. Under ASan, which would report that read,
// the tail goes byte by byte (a no_sanitize attribute would keep GCC from inlining the function into its callers,
// which matters: out of line, its setup costs more than a short scan).
template <std::size_t N>
__attribute__((always_inline)) inline std::size_t find_any_byte(std::string_view s, std::size_t i,
                                                          const std::array<char, N>& bytes) {
  const std::size_t n = s.size();
#if defined(__SSE2__)
  __m128i wanted[N];
  for (std::size_t k = 0; k < N; ++k) wanted[k] = _mm_set1_epi8(bytes[k]);
  const auto hits = [&](const char* p) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i hit = _mm_cmpeq_epi8(v, wanted[0]);
    for (std::size_t k = 1; k < N; ++k) hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, wanted[k]));
    return static_cast<unsigned>(_mm_movemask_epi8(hit));
  };
  for (; i + 16 <= n; i += 16)
    if (const unsigned mask = hits(s.data() + i)) return i + static_cast<std::size_t>(__builtin_ctz(mask));
#if !FENMILL_ADDRESS_SANITIZER
  if (i < n && (reinterpret_cast<std::uintptr_t>(s.data() + i) & 4095) <= 4096 - 16) {
    const unsigned mask = hits(s.data() + i) & ((1u << (n - i)) - 1);
    return mask ? i + static_cast<std::size_t>(__builtin_ctz(mask)) : n;
  }
#endif
#endif
  for (; i < n; ++i)
    for (char b : bytes)
      if (s[i] == b) return i;
  return n;
}

}  // namespace fenmill
