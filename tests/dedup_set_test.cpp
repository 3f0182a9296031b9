// The dedup table against std::set: every insert reports new/old correctly through many in-place doublings,
// including keys that crowd the top of the table, whose probe runs wrap around to slot 0 (the case the
// in-place growth has to put back after its walk; every test here needs that step).
#include <gtest/gtest.h>

#include <random>
#include <map>
#include <set>
#include <utility>

#include "pipeline/dedup_set.h"

namespace fenmill {
namespace {

void check_against_set(const std::vector<DedupKey>& keys, std::size_t initial_capacity) {
  DedupSet set(initial_capacity);
  std::set<std::pair<std::uint64_t, std::uint64_t>> reference;
  for (const DedupKey& k : keys) {
    bool expected_new = reference.insert({k.lo, k.hi}).second;
    ASSERT_EQ(set.insert(k), expected_new) << k.lo << " " << k.hi;
  }
  EXPECT_EQ(set.size(), reference.size());
  for (const DedupKey& k : keys) ASSERT_FALSE(set.insert(k)) << "lost after growing: " << k.lo;
}

TEST(DedupSet, AgreesWithStdSetThroughInPlaceGrowth) {
  std::mt19937_64 rng(5);
  std::vector<DedupKey> keys;
  for (int i = 0; i < 300000; ++i) {
    DedupKey k{rng(), rng()};
    keys.push_back(k);
    if (i % 3 == 0) keys.push_back(keys[rng() % keys.size()]);  // duplicates, near and far
  }
  keys.push_back(DedupKey{});  // the all-zero key is kept aside
  keys.push_back(DedupKey{});
  check_against_set(keys, 16);
}

TEST(DedupSet, KeysCrowdingTheTopOfTheTableWrapAround) {
  // While the table has n slots, half the new keys have their home in the last 8 slots, so their runs wrap
  // to slot 0; the bit that decides where they go when the table doubles is random, so at the doubling some
  // of the wrapped keys move away from the low slots and leave holes in the runs of keys already moved.
  std::mt19937_64 rng(9);
  std::vector<DedupKey> keys;
  for (std::uint64_t n = 16; n <= (1u << 15); n *= 2) {
    for (std::uint64_t i = 0; i < n * 35 / 100; ++i) {
      std::uint64_t lo = rng();
      if (i % 2 == 0) lo = (lo & ~(n - 1)) | (n - 1 - rng() % 8);
      keys.push_back(DedupKey{lo, rng()});
      if (i % 7 == 0) keys.push_back(keys[rng() % keys.size()]);
    }
  }
  check_against_set(keys, 16);
}

TEST(DedupSet, RunWrappingPastTheTopDuringGrowthIsPutBack) {
  // 16 slots: five keys share home 13 (their low bits are 29), so they fill slots 13, 14, 15 and wrap to 0
  // and 1; six keys at homes 2..7 leave slot 8 as the first empty one, where the doubling's walk starts. With
  // 32 slots all five keys have home 29: the walk puts the three from slots 13..15 at 29..31 first, and the
  // two from slots 0 and 1 find no room below the top, the case grow() puts back after its walk.
  std::vector<DedupKey> keys;
  for (std::uint64_t k = 1; k <= 5; ++k) keys.push_back(DedupKey{29, k});
  for (std::uint64_t home = 2; home <= 7; ++home) keys.push_back(DedupKey{home, 100 + home});
  keys.push_back(DedupKey{40, 1});  // the 12th key makes the table double
  check_against_set(keys, 16);
}

// --count's table against std::map: first-seen ordinals and occurrence counts, through growth, in batches
// of every size, the all-zero key included.
TEST(CountingDedupSet, OrdinalsAndCountsAgreeWithStdMap) {
  std::mt19937_64 rng(17);
  std::vector<DedupKey> keys;
  for (int i = 0; i < 200000; ++i) {
    keys.push_back(i % 5 == 0 && !keys.empty() ? keys[rng() % keys.size()] : DedupKey{rng(), rng()});
    if (i % 40000 == 3) keys.push_back(DedupKey{});
  }
  CountingDedupSet set(16);
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::pair<std::size_t, std::uint64_t>> reference;  // ordinal, count
  std::vector<std::uint8_t> is_new(keys.size());
  for (std::size_t at = 0, batch = 1; at < keys.size(); at += batch, batch = batch * 3 % 1000 + 1) {
    std::size_t n = std::min(batch, keys.size() - at);
    set.insert_batch(keys.data() + at, n, is_new.data());
    for (std::size_t i = 0; i < n; ++i) {
      const DedupKey& k = keys[at + i];
      auto [it, fresh] = reference.try_emplace({k.lo, k.hi}, reference.size(), 0);
      ++it->second.second;
      ASSERT_EQ(is_new[i] != 0, fresh) << at + i;
    }
  }
  ASSERT_EQ(set.size(), reference.size());
  std::vector<std::uint64_t> expected(reference.size());
  for (const auto& [key, ordinal_count] : reference) expected[ordinal_count.first] = ordinal_count.second;
  EXPECT_EQ(set.counts_in_first_seen_order(), expected);
}

}  // namespace
}  // namespace fenmill
