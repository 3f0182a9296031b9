// The two clocks that end most FEN records, " H F": single spaces, 1 to 7 digits each, nothing after. The parser's
// fast path reads them here; anything else (other blanks, longer runs, EPD operations) is the careful parser's.
// The SSE2 reader classifies the at most 16 bytes at once instead of testing each digit's bounds in a loop
// (a tenth of the fast path's instructions went to those loops); the scalar one is its reference.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fenmill {

struct ClockText {
  std::uint32_t halfmove = 0;
  std::uint32_t fullmove = 0;
  bool leading_zero = false;  // "05": not the writer's form, so the record is not copied as it came
};

namespace clock_text_detail {
inline constexpr long kMaxDigits = 7;
inline std::uint32_t digits_value(const char* p, long n) {
  std::uint32_t value = 0;
  for (long i = 0; i < n; ++i) value = value * 10 + static_cast<std::uint32_t>(p[i] - '0');
  return value;
}
}  // namespace clock_text_detail

// [p, end) is " H F" as above: sets `out` and returns true; false for anything else.
inline bool read_clock_text_scalar(const char* p, const char* end, ClockText& out) {
  using namespace clock_text_detail;
  const char* number[2];
  long length[2];
  for (int k = 0; k < 2; ++k) {
    if (p == end || *p++ != ' ') return false;
    number[k] = p;
    while (p < end && p - number[k] < kMaxDigits && *p >= '0' && *p <= '9') ++p;
    length[k] = p - number[k];
    if (length[k] == 0) return false;
  }
  if (p != end) return false;
  out.halfmove = digits_value(number[0], length[0]);
  out.fullmove = digits_value(number[1], length[1]);
  out.leading_zero = (length[0] > 1 && *number[0] == '0') || (length[1] > 1 && *number[1] == '0');
  return true;
}

#if defined(__SSE2__)
// Reads the 16 bytes from p when they lie in p's 4 KiB page, whatever is past `end` (masked off); otherwise a
// copy. Not instrumented by ASan for that reason (as the placement reader).
__attribute__((no_sanitize("address"))) inline bool read_clock_text_sse2(const char* p, const char* end,
                                                                          ClockText& out) {
  using namespace clock_text_detail;
  const long n = end - p;
  if (n < 4 || n > 2 * kMaxDigits + 2) return false;  // " 0 1" is the shortest
  __m128i v;
  if (n == 16 || (reinterpret_cast<std::uintptr_t>(p) & 4095) <= 4096 - 16) {
    v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  } else {
    char copy[16] = {};
    std::memcpy(copy, p, static_cast<std::size_t>(n));
    v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(copy));
  }
  const unsigned in = (1u << n) - 1;
  const unsigned spaces = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')))) & in;
  // Signed compares: bytes from 0x80 are negative, so no digit.
  const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
  const unsigned digits = static_cast<unsigned>(_mm_movemask_epi8(digit)) & in;
  // A space first and one more (between the clocks), digits everywhere else.
  if ((spaces | digits) != in || !(spaces & 1) || std::popcount(spaces) != 2) return false;
  const long k = __builtin_ctz(spaces & ~1u);
  const long half_length = k - 1, full_length = n - 1 - k;
  if (half_length < 1 || half_length > kMaxDigits || full_length < 1 || full_length > kMaxDigits) return false;
  out.halfmove = digits_value(p + 1, half_length);
  out.fullmove = digits_value(p + k + 1, full_length);
  out.leading_zero = (half_length > 1 && p[1] == '0') || (full_length > 1 && p[k + 1] == '0');
  return true;
}
#endif

inline bool read_clock_text(const char* p, const char* end, ClockText& out) {
#if defined(__SSE2__)
  return read_clock_text_sse2(p, end, out);
#else
  return read_clock_text_scalar(p, end, out);
#endif
}

}  // namespace fenmill
