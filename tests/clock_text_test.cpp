// The fast path's clock reader: the SSE2 reader against the scalar one on every short text over the bytes that
// matter, on random longer ones, and at the end of a readable page; and the scalar one against hand-made cases.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "fen/clock_text.h"
#include "guarded_page.h"

namespace fenmill {
namespace {

TEST(ClockText, ReadsSingleSpacedShortDigitRunsOnly) {
  struct Case {
    const char* text;
    bool ok;
    std::uint32_t half, full;
    bool leading_zero;
  };
  const Case cases[] = {
      {" 0 1", true, 0, 1, false},          {" 12 345", true, 12, 345, false},
      {" 05 1", true, 5, 1, true},          {" 0 01", true, 0, 1, true},
      {" 0 0", true, 0, 0, false},          {" 1234567 7654321", true, 1234567, 7654321, false},
      {" 12345678 1", false, 0, 0, false},  {" 1 12345678", false, 0, 0, false},
      {"  0 1", false, 0, 0, false},        {" 0 1 ", false, 0, 0, false},
      {" 0\t1", false, 0, 0, false},        {" 0 ", false, 0, 0, false},
      {" 0", false, 0, 0, false},           {"", false, 0, 0, false},
      {" 0 1;", false, 0, 0, false},        {" -1 1", false, 0, 0, false},
      {" 0 1x", false, 0, 0, false},        {"0 1", false, 0, 0, false},
  };
  for (const Case& c : cases) {
    ClockText clocks;
    const char* end = c.text + std::strlen(c.text);
    ASSERT_EQ(read_clock_text_scalar(c.text, end, clocks), c.ok) << '"' << c.text << '"';
    if (!c.ok) continue;
    EXPECT_EQ(clocks.halfmove, c.half) << c.text;
    EXPECT_EQ(clocks.fullmove, c.full) << c.text;
    EXPECT_EQ(clocks.leading_zero, c.leading_zero) << c.text;
  }
}

#if defined(__SSE2__)
void expect_same(const char* p, std::size_t n) {
  ClockText a, b;
  const bool ok_a = read_clock_text_scalar(p, p + n, a), ok_b = read_clock_text_sse2(p, p + n, b);
  ASSERT_EQ(ok_a, ok_b) << '"' << std::string(p, n) << '"';
  if (!ok_a) return;
  ASSERT_EQ(a.halfmove, b.halfmove) << std::string(p, n);
  ASSERT_EQ(a.fullmove, b.fullmove) << std::string(p, n);
  ASSERT_EQ(a.leading_zero, b.leading_zero) << std::string(p, n);
}

// Every text of up to 7 bytes over space, three digits, TAB, the bytes either side of the digits and a byte from
// 0x80; then random texts of up to 20 bytes, mostly digits and spaces, so that many are clocks.
TEST(ClockText, VectorReaderAgreesWithTheScalarOne) {
  const char alphabet[] = {' ', '0', '5', '9', '\t', '/', ':', '\xb0'};
  constexpr int kLetters = sizeof alphabet;
  std::size_t accepted = 0;
  char text[32];
  for (int length = 0; length <= 7; ++length) {
    long combinations = 1;
    for (int i = 0; i < length; ++i) combinations *= kLetters;
    for (long code = 0; code < combinations; ++code) {
      long rest = code;
      for (int i = 0; i < length; ++i, rest /= kLetters) text[i] = alphabet[rest % kLetters];
      text[length] = '7';  // past the end: must not count
      expect_same(text, static_cast<std::size_t>(length));
      if (HasFatalFailure()) return;
      ClockText c;
      accepted += read_clock_text_scalar(text, text + length, c);
    }
  }
  std::mt19937 rng(17);
  for (int round = 0; round < 2000000; ++round) {
    int length = 0;
    if (round % 2) {  // random bytes, mostly digits and spaces
      length = static_cast<int>(rng() % 21);
      for (int i = 0; i < length; ++i) {
        const unsigned r = rng() % 16;
        text[i] = r < 10 ? static_cast<char>('0' + r) : r < 14 ? ' ' : alphabet[rng() % kLetters];
      }
    } else {  // " H F" with runs of 0 to 9 digits, one byte in three replaced
      for (int k = 0; k < 2; ++k) {
        text[length++] = ' ';
        for (int digits = static_cast<int>(rng() % 10); digits > 0; --digits)
          text[length++] = static_cast<char>('0' + rng() % 10);
      }
      if (rng() % 3 == 0) text[rng() % length] = alphabet[rng() % kLetters];
    }
    for (int i = length; i < 32; ++i) text[i] = static_cast<char>(rng() % 2 ? ' ' : '0' + rng() % 10);
    expect_same(text, static_cast<std::size_t>(length));
    if (HasFatalFailure()) return;
    ClockText c;
    accepted += read_clock_text_scalar(text, text + length, c);
  }
  EXPECT_GT(accepted, 300000u);
}

// Up to 16 bytes are read from p while they share p's page; a text that ends right before an unreadable page is
// read from a copy, so the reader never faults, and what lies past the end never counts.
TEST(ClockText, VectorReaderStaysInThePage) {
  GuardedPage page;
  ASSERT_TRUE(page.ok());
  for (const char* text : {" 0 1", " 12 34", " 1234567 7654321", " 05 1", " 0 1 ", "  1 1", " 123456 1"})
    for (char fill : {'1', ' ', 'x'})
      for (std::size_t gap = 0; gap <= 20; ++gap) {
        expect_same(page.place(text, std::strlen(text), gap, fill), std::strlen(text));
        if (HasFatalFailure()) {
          ADD_FAILURE() << "fill '" << fill << "', " << gap << " bytes before the page end";
          return;
        }
      }
}
#endif

}  // namespace
}  // namespace fenmill
