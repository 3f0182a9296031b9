// ByteBuffer keeps its bytes through growth from heap storage to chunk-sized kernel memory (2 MiB-aligned,
// for huge pages), moves without copying and copies without sharing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "io/byte_buffer.h"

namespace fenmill {
namespace {

std::string pattern(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  return s;
}

TEST(ByteBuffer, KeepsBytesWhileGrowingIntoHugeStorage) {
  ByteBuffer buf;
  std::string expected;
  for (std::size_t step = 1; expected.size() < (std::size_t{9} << 20); step = step * 2 + 3) {
    std::string piece = pattern(step);
    buf.append(piece);
    expected += piece;
    ASSERT_TRUE(buf.view() == expected) << "after " << expected.size() << " bytes";
  }
  EXPECT_GE(buf.capacity(), buf.size());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buf.data()) % (std::size_t{2} << 20), 0u) << "chunk-sized: aligned";
  char* at = buf.prepare(100);
  std::memcpy(at, "xyz", 3);
  buf.commit(3);
  expected += "xyz";
  EXPECT_TRUE(buf.view() == expected);
}

TEST(ByteBuffer, MovesWithoutCopyingAndCopiesWithoutSharing) {
  ByteBuffer a;
  a.append(pattern(3 << 20));
  const char* storage = a.data();
  ByteBuffer b(std::move(a));
  EXPECT_EQ(b.data(), storage);
  EXPECT_EQ(a.size(), 0u);
  ByteBuffer c(b);
  EXPECT_NE(c.data(), b.data());
  EXPECT_TRUE(c.view() == b.view());
  a = std::move(c);
  EXPECT_TRUE(a.view() == b.view());
  a.drop_front(5);
  EXPECT_TRUE(a.view() == b.view().substr(5));
  a.truncate(10);
  EXPECT_TRUE(a.view() == b.view().substr(5, 10));
  a.clear();
  EXPECT_TRUE(a.empty());
}

// drop_front leaves the rest where it is (a view of it stays valid); the room it frees is reused when a later
// append needs it, the bytes moved down then, and growth keeps them too: the buffer always holds what a string
// given the same operations holds.
TEST(ByteBuffer, DropFrontKeepsTheRestInPlaceAndReusesTheRoom) {
  ByteBuffer buf;
  buf.append(pattern(1000));
  const std::string_view before = buf.view();
  buf.drop_front(300);
  EXPECT_EQ(buf.data(), before.data() + 300);  // not moved
  EXPECT_TRUE(buf.view() == before.substr(300));
  std::mt19937 rng(3);
  std::string expected(buf.view());
  for (int round = 0; round < 20000; ++round) {
    const std::size_t r = rng() % 10;
    if (r < 4 && !expected.empty()) {
      const std::size_t n = rng() % (expected.size() + 1);
      buf.drop_front(n);
      expected.erase(0, n);
    } else if (r < 9) {
      const std::string piece = pattern(rng() % (round % 100 == 0 ? 3u << 20 : 5000u));
      buf.append(piece);
      expected += piece;
    } else {
      const std::size_t n = rng() % (expected.size() + 1);
      buf.truncate(n);
      expected.resize(n);
    }
    ASSERT_EQ(buf.size(), expected.size()) << round;
    ASSERT_TRUE(buf.view() == expected) << round;
    ASSERT_GE(buf.capacity(), buf.size());
  }
  ByteBuffer moved(std::move(buf));
  EXPECT_TRUE(moved.view() == expected);
  ByteBuffer copied(moved);
  EXPECT_TRUE(copied.view() == expected);
}

}  // namespace
}  // namespace fenmill
