// find_any_byte against a plain loop: every length up to 80, every start, the sought bytes in every place, bytes
// past the end that would match (they must not count), and texts ending right before an unreadable page.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>
#include <string_view>

#include "core/find_any_byte.h"
#include "guarded_page.h"

namespace fenmill {
namespace {

template <std::size_t N>
std::size_t plain_find(std::string_view s, std::size_t i, const std::array<char, N>& bytes) {
  for (; i < s.size(); ++i)
    for (char b : bytes)
      if (s[i] == b) return i;
  return s.size();
}

TEST(FindAnyByte, AgreesWithAPlainLoop) {
  const std::array<char, 3> sought{'"', ';', '\\'};
  std::mt19937 rng(7);
  char buffer[128];
  std::size_t found = 0;
  for (int round = 0; round < 20000; ++round) {
    for (char& c : buffer) c = "ab\";\\ x"[rng() % 7];
    const std::size_t length = rng() % 81;
    // Mostly no sought byte in the text, one or none in the last 16: the masked step decides.
    for (std::size_t k = 0; k < length; ++k)
      if (rng() % 8 != 0) buffer[k] = 'a';
    const std::string_view text(buffer, length);
    for (std::size_t start = 0; start <= length; ++start) {
      const std::size_t expected = plain_find(text, start, sought);
      ASSERT_EQ(find_any_byte(text, start, sought), expected) << round << " " << start;
      found += expected < length;
    }
  }
  EXPECT_GT(found, 100000u);
}

TEST(FindAnyByte, StaysInThePageAndIgnoresBytesPastTheEnd) {
  GuardedPage page;
  ASSERT_TRUE(page.ok());
  const std::array<char, 2> sought{';', '"'};
  char text[40];
  for (std::size_t length = 0; length <= sizeof text; ++length)
    for (std::size_t gap = 0; gap <= 20; ++gap)
      for (int hit = -1; hit < static_cast<int>(length); ++hit) {
        std::memset(text, 'a', length);
        if (hit >= 0) text[hit] = '"';
        // every byte past the text would match
        const std::string_view placed(page.place(text, length, gap, ';'), length);
        ASSERT_EQ(find_any_byte(placed, 0, sought), hit >= 0 ? static_cast<std::size_t>(hit) : length)
            << length << " bytes, " << gap << " before the page end";
      }
}

}  // namespace
}  // namespace fenmill
