// The byte runs the JSON Lines scanner (formats/jsonl.cpp) skips, in two interchangeable forms: one byte a step
// (portable, and the reference the tests compare with) and 16 bytes a step (SSE2). Each function returns the first
// byte at or after p in [p, end) that ends the run, or end. The scanner is one template over these, so both forms
// run the same grammar code and can differ only here.
#pragma once
#include <array>
#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fenmill::json_runs {

constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Bytes that a string may hold as they are with nothing more to check: printable ASCII but '"' and '\\'.
constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x80; ++c) plain[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return plain;
}();

struct Scalar {
  static const char* space(const char* p, const char* end) {
    while (p < end && is_space(*p)) ++p;
    return p;
  }
  static const char* digits(const char* p, const char* end) {
    while (p < end && is_digit(*p)) ++p;
    return p;
  }
  // Up to '"', '\\', a control character or a byte from 0x80.
  static const char* plain(const char* p, const char* end) {
    while (p < end && kPlain[static_cast<unsigned char>(*p)]) ++p;
    return p;
  }
  // Bytes from 0x80 (their UTF-8 is checked once per line, elsewhere).
  static const char* high(const char* p, const char* end) {
    while (p < end && static_cast<unsigned char>(*p) >= 0x80) ++p;
    return p;
  }
};

#if defined(__SSE2__)
// Only for texts of 16 bytes or more (the caller takes Scalar for shorter ones), so that 16 bytes before `end` are
// always the text's own: where fewer than 16 are left after p, the block loaded is the text's last 16 bytes and the
// mask is shifted down to p's byte. Nothing is ever read outside [end - text size, end): no page or padding
// assumptions, clean under ASan.
struct Sse2 {
  // The first byte from p whose bit is set in `stop` (one bit per byte of a 16-byte block), or end.
  template <class StopMask>
  static const char* run(const char* p, const char* end, StopMask stop) {
    for (; end - p >= 16; p += 16)
      if (const unsigned mask = stop(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))))
        return p + __builtin_ctz(mask);
    // Fewer than 16 bytes left: the text's last 16, shifted down to p's byte; bytes from `end` on (bits from
    // end - p up) stop the run, so it ends at end at the latest (p == end: a shift by 16, every bit set).
    const unsigned skip = static_cast<unsigned>(16 - (end - p));
    const unsigned mask = stop(_mm_loadu_si128(reinterpret_cast<const __m128i*>(end - 16))) >> skip | ~0u << (16 - skip);
    return p + __builtin_ctz(mask);
  }
  static const char* space(const char* p, const char* end) {
    return run(p, end, [](__m128i v) {
      const __m128i space = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))),
                                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
      return static_cast<unsigned>(_mm_movemask_epi8(space)) ^ 0xFFFFu;
    });
  }
  static const char* digits(const char* p, const char* end) {
    return run(p, end, [](__m128i v) {
      // Signed compares: bytes from 0x80 are negative, below '0'.
      const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
      return static_cast<unsigned>(_mm_movemask_epi8(digit)) ^ 0xFFFFu;
    });
  }
  static const char* plain(const char* p, const char* end) {
    return run(p, end, [](__m128i v) {
      // A control character or a byte from 0x80 is below 0x20 as a signed byte: one compare finds both.
      const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                           _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
      return static_cast<unsigned>(_mm_movemask_epi8(special));
    });
  }
  static const char* high(const char* p, const char* end) {
    return run(p, end, [](__m128i v) { return static_cast<unsigned>(_mm_movemask_epi8(v)) ^ 0xFFFFu; });
  }
};
#endif

}  // namespace fenmill::json_runs
