// find_any_byte against a plain loop: every length up to 80, every start, the sought bytes in every place, bytes
// past the end that would match (they must not count), and texts ending right before an unreadable page.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <random>
#include <string_view>

#include "core/find_any_byte.h"

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
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  void* map = ::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  char* page_end = static_cast<char*>(map) + page;
  ASSERT_EQ(::mprotect(page_end, page, PROT_NONE), 0);
  const std::array<char, 2> sought{';', '"'};
  for (std::size_t length = 0; length <= 40; ++length)
    for (std::size_t gap = 0; gap <= 20; ++gap)
      for (int hit = -1; hit < static_cast<int>(length); ++hit) {
        std::memset(map, ';', page);  // every byte past the text would match
        char* begin = page_end - gap - length;
        std::memset(begin, 'a', length);
        if (hit >= 0) begin[hit] = '"';
        const std::string_view text(begin, length);
        ASSERT_EQ(find_any_byte(text, 0, sought), hit >= 0 ? static_cast<std::size_t>(hit) : length)
            << length << " bytes, " << gap << " before the page end";
      }
  ::munmap(map, 2 * page);
}

}  // namespace
}  // namespace fenmill
