// HugeTable keeps its contents and hands out zeroed slots when it grows, inside its reservation and
// when it outgrows it (the pages then move to a larger, aligned reservation).
#include <gtest/gtest.h>

#include <cstdint>

#include "pipeline/huge_table.h"

namespace fenmill {
namespace {

void fill(HugeTable<std::uint64_t>& t, std::size_t from) {
  for (std::size_t i = from; i < t.size(); ++i) t[i] = i * 2654435761u + 1;
}

void expect_filled_then_zero(const HugeTable<std::uint64_t>& t, std::size_t filled) {
  for (std::size_t i = 0; i < filled; ++i) ASSERT_EQ(t[i], i * 2654435761u + 1) << i;
  for (std::size_t i = filled; i < t.size(); ++i) ASSERT_EQ(t[i], 0u) << i;
}

TEST(HugeTable, GrowsInPlaceKeepingContents) {
  HugeTable<std::uint64_t> t(1000);
  fill(t, 0);
  const std::uint64_t* before = t.begin();
  t.grow(3 << 20);  // 24 MiB: within the default reservation
  EXPECT_EQ(t.begin(), before);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.begin()) % (2 << 20), 0u);
  expect_filled_then_zero(t, 1000);
}

TEST(HugeTable, OutgrowsItsReservation) {
  HugeTable<std::uint64_t> t(100000, 2 << 20);  // 800 kB of slots in a 2 MiB reservation
  fill(t, 0);
  t.grow(1 << 20);  // 8 MiB: the pages move
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.begin()) % (2 << 20), 0u);
  expect_filled_then_zero(t, 100000);
  fill(t, 100000);
  t.grow(8 << 20);  // 64 MiB: past the second reservation too
  expect_filled_then_zero(t, 1 << 20);
}

TEST(HugeTable, SwapExchangesTables) {
  HugeTable<std::uint64_t> a(10), b;
  fill(a, 0);
  a.swap(b);
  EXPECT_EQ(a.size(), 0u);
  ASSERT_EQ(b.size(), 10u);
  expect_filled_then_zero(b, 10);
}

}  // namespace
}  // namespace fenmill
