// The dedup tables against std::set and std::map: every insert reports new/old correctly through many in-place
// doublings, including keys that crowd the top of the table, whose probe runs wrap around to slot 0 (the case the
// in-place growth has to put back after its walk), and, for plain dedup's compact set, keys that end up too far
// from their home slot.
#include <gtest/gtest.h>

#include <random>
#include <map>
#include <set>
#include <utility>

#include "pipeline/counting_dedup_set.h"
#include "pipeline/dedup_set.h"

namespace fenmill {
namespace {

using KeyPair = std::pair<std::uint64_t, std::uint64_t>;

// The key as the set tells keys apart: its low `known_bits` bits.
KeyPair known_part(const DedupKey& k, int known_bits) {
  if (known_bits <= 64) return {known_bits == 64 ? k.lo : k.lo & ((std::uint64_t{1} << known_bits) - 1), 0};
  return {k.lo, known_bits == 128 ? k.hi : k.hi & ((std::uint64_t{1} << (known_bits - 64)) - 1)};
}

void check_dedup_set(const std::vector<DedupKey>& keys, DedupSet& set, int known_bits) {
  std::set<KeyPair> reference;
  for (const DedupKey& k : keys) {
    bool expected_new = reference.insert(known_part(k, known_bits)).second;
    ASSERT_EQ(set.insert(k), expected_new) << k.lo << " " << k.hi;
  }
  EXPECT_EQ(set.size(), reference.size());
  for (const DedupKey& k : keys) ASSERT_FALSE(set.insert(k)) << "lost after growing: " << k.lo;
}

// Inserts the keys in batches of sizes 1 to max_batch, each is_new checked against std::set.
void check_in_batches(const std::vector<DedupKey>& keys, DedupSet& set, int known_bits, std::size_t max_batch) {
  std::set<KeyPair> reference;
  std::vector<std::uint8_t> is_new(keys.size());
  for (std::size_t at = 0, batch = 1; at < keys.size(); at += batch, batch = batch * 7 % max_batch + 1) {
    std::size_t n = std::min(batch, keys.size() - at);
    set.insert_batch(keys.data() + at, n, is_new.data());
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(is_new[i] != 0, reference.insert(known_part(keys[at + i], known_bits)).second) << at + i;
  }
  EXPECT_EQ(set.size(), reference.size());
}

// The first size of 16 slots leaves room for 4 + 54 known bits.
constexpr int kSmallKnownBits = 58;

std::vector<std::uint64_t> counts_of(const CountingDedupSet& set) {
  std::vector<std::uint64_t> counts(set.size());
  for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = set.count(i);
  return counts;
}

// --count's table against std::map: new/old, first-seen ordinals and occurrence counts, in batches of sizes 1 to
// max_batch (with the displacement bound and the known bits small, through every rare path of growth).
void check_counting_set(const std::vector<DedupKey>& keys, CountingDedupSet& set, int known_bits, std::size_t max_batch) {
  std::map<KeyPair, std::pair<std::size_t, std::uint64_t>> reference;  // ordinal, count
  std::vector<std::uint8_t> is_new(keys.size());
  for (std::size_t at = 0, batch = 1; at < keys.size(); at += batch, batch = batch * 3 % max_batch + 1) {
    std::size_t n = std::min(batch, keys.size() - at);
    set.insert_batch(keys.data() + at, n, is_new.data());
    for (std::size_t i = 0; i < n; ++i) {
      auto [it, fresh] = reference.try_emplace(known_part(keys[at + i], known_bits), reference.size(), 0);
      ++it->second.second;
      ASSERT_EQ(is_new[i] != 0, fresh) << at + i;
    }
  }
  ASSERT_EQ(set.size(), reference.size());
  std::vector<std::uint64_t> expected(reference.size());
  for (const auto& [key, ordinal_count] : reference) expected[ordinal_count.first] = ordinal_count.second;
  EXPECT_EQ(counts_of(set), expected);
}

void check_both(const std::vector<DedupKey>& keys) {
  DedupSet set(16, DedupSet::kMaxDisplacement, kSmallKnownBits);
  check_dedup_set(keys, set, kSmallKnownBits);
  CountingDedupSet counting(16, DedupSet::kMaxDisplacement, kSmallKnownBits);
  check_counting_set(keys, counting, kSmallKnownBits, 1);
}

std::vector<DedupKey> random_keys_with_repeats(std::uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  std::vector<DedupKey> keys;
  for (int i = 0; i < n; ++i) {
    keys.push_back(DedupKey{rng(), rng()});
    if (i % 3 == 0) keys.push_back(keys[rng() % keys.size()]);  // duplicates, near and far
  }
  keys.push_back(DedupKey{});  // the all-zero key (--count's table keeps it aside)
  keys.push_back(DedupKey{});
  return keys;
}

TEST(DedupSet, AgreesWithStdSetThroughInPlaceGrowth) { check_both(random_keys_with_repeats(5, 300000)); }

TEST(DedupSet, DefaultSetAgreesWithStdSetInBatches) {
  std::vector<DedupKey> keys = random_keys_with_repeats(6, 400000);
  DedupSet set;
  check_in_batches(keys, set, DedupSet::kKnownBits, 5000);
}

// The budget: ~24 bytes per distinct position. Right after a doubling the table is 35% full: 23 bytes.
TEST(DedupSet, KeepsAtMost23BytesPerKeyPastItsFirstSize) {
  DedupSet set;
  std::mt19937_64 rng(3);
  std::size_t doublings = 0, last_bytes = set.bytes();
  for (int i = 0; i < 2000000; ++i) {
    set.insert(DedupKey{rng(), rng()});
    if (set.bytes() != last_bytes) {
      ++doublings;
      last_bytes = set.bytes();
      EXPECT_LE(set.bytes(), set.size() * 23) << set.size();
    }
  }
  EXPECT_EQ(doublings, 4u);  // 2^18 -> 2^22 slots
  EXPECT_LE(set.bytes(), set.size() * 23);
}

// A first size too small for the known bits is raised, not refused.
TEST(DedupSet, SmallFirstSizeIsRaisedToWhatTheKnownBitsNeed) {
  DedupSet set(1 << 10);
  EXPECT_EQ(set.bytes(), (std::size_t{1} << 18) * 8);
  EXPECT_TRUE(set.insert(DedupKey{1, 2}));
  EXPECT_FALSE(set.insert(DedupKey{1, 2}));
}

// The documented limit: keys are told apart by their low 72 bits (all of `lo`, the low 8 of `hi`), at every size.
TEST(DedupSet, TellsKeysApartByTheirLow72Bits) {
  for (std::size_t first_size : {std::size_t{1} << 18, std::size_t{1} << 20}) {
    DedupSet set(first_size);
    std::mt19937_64 rng(11);
    for (int i = 0; i < 600000; ++i) {  // grows the smaller set twice
      DedupKey k{rng(), rng()};
      if (!set.insert(k)) continue;  // (a random repeat: odds ~2^-60)
      ASSERT_TRUE(set.insert(DedupKey{k.lo ^ 1, k.hi})) << i;                          // bit 0: the next home
      ASSERT_TRUE(set.insert(DedupKey{k.lo ^ (std::uint64_t{1} << 63), k.hi})) << i;  // bit 63
      ASSERT_TRUE(set.insert(DedupKey{k.lo, k.hi ^ (std::uint64_t{1} << 7)})) << i;   // bit 71
      ASSERT_FALSE(set.insert(DedupKey{k.lo, k.hi ^ (std::uint64_t{1} << 8)})) << i;  // bit 72: the same key
      ASSERT_FALSE(set.insert(DedupKey{k.lo, k.hi ^ (std::uint64_t{1} << 63)})) << i;
      i += 3;
    }
  }
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
  check_both(keys);
}

TEST(DedupSet, RunWrappingPastTheTopDuringGrowthIsPutBack) {
  // 16 slots: five keys share home 13 (their low bits are 29), so they fill slots 13, 14, 15 and wrap to 0
  // and 1; six keys at homes 2..7 leave slot 8 as the first empty one, where the doubling's walk starts. With
  // 32 slots all five keys have home 29: the walk puts the three from slots 13..15 at 29..31 first, and the
  // two from slots 0 and 1 find no room below the top, the case the doubling puts back after its walk.
  std::vector<DedupKey> keys;
  for (std::uint64_t k = 1; k <= 5; ++k) keys.push_back(DedupKey{29 | k << 8, k});
  for (std::uint64_t home = 2; home <= 7; ++home) keys.push_back(DedupKey{home | home << 8, 100 + home});
  keys.push_back(DedupKey{40, 1});  // the 12th key makes the table double
  check_both(keys);
}

// 400 keys, half of them sharing their low 6 bits, with repeats.
std::vector<DedupKey> crowded_keys(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<DedupKey> keys;
  for (int i = 0; i < 400; ++i) {
    std::uint64_t lo = rng();
    if (i % 2 == 0) lo = (lo & ~std::uint64_t{0x3F}) | 0x15;
    keys.push_back(DedupKey{lo, rng()});
    if (i % 5 == 0) keys.push_back(keys[rng() % keys.size()]);
  }
  return keys;
}

// With keys allowed no farther than 0..2 slots from their home, inserts and doublings keep running out of room:
// the set doubles early, puts keys back after a doubling, and doubles again while some still do not fit.
TEST(DedupSet, KeysTooFarFromTheirHomeMakeTheTableDouble) {
  for (std::size_t max_displacement : {0, 1, 2}) {
    const std::vector<DedupKey> keys = crowded_keys(21 + max_displacement);
    DedupSet set(16, max_displacement, kSmallKnownBits);
    check_dedup_set(keys, set, kSmallKnownBits);
  }
}

// The same through insert_batch (what dedup and stats call): a key too far from its home in the middle of a batch
// is inserted after the doubling it causes, and the keys after it in the batch go into the doubled table.
TEST(DedupSet, KeysTooFarFromTheirHomeInABatchMakeTheTableDouble) {
  for (std::size_t max_displacement : {0, 1, 2}) {
    const std::vector<DedupKey> keys = crowded_keys(31 + max_displacement);
    DedupSet set(16, max_displacement, kSmallKnownBits);
    SCOPED_TRACE(max_displacement);
    check_in_batches(keys, set, kSmallKnownBits, 37);
    for (const DedupKey& k : keys) ASSERT_FALSE(set.insert(k)) << "lost after growing: " << k.lo;
  }
}

TEST(DedupSet, KeyWithNoRoomAfterADoublingMakesItDoubleAgain) {
  // 16 slots, keys at most 1 slot past their home. x1 sits at its home 15, x2 (home 15 too) wraps to slot 0, z
  // (home 0) goes to slot 1; fillers at homes 3..9 keep them; the 11th key makes the table double. In 32 slots x1
  // and x2 have home 31 and z home 0: the walk, starting at the empty slot 2, puts x1 at 31, finds no slot for x2
  // below the top, and puts z at 0; then x2 fits neither 31 nor 0, so the table doubles again.
  const DedupKey x1{0x3F, 0}, x2{0x11F, 0}, z{0x200, 0};
  std::vector<DedupKey> keys{x1, x2, z};
  for (std::uint64_t home = 3; home <= 9; ++home) keys.push_back(DedupKey{home | 0x400, 0});
  keys.push_back(DedupKey{12 | 0x800, 0});
  keys.push_back(x2);
  DedupSet set(16, 1, kSmallKnownBits);
  check_dedup_set(keys, set, kSmallKnownBits);
}

TEST(CountingDedupSet, TellsKeysApartByTheSame72BitsAsDedupSet) {
  const DedupKey a{5, 0x17}, bit71{5, 0x97}, bit72{5, 0x117}, bit127{5, 0x17 | std::uint64_t{1} << 63};
  const DedupKey keys[] = {a, bit71, bit72, bit127};
  CountingDedupSet counting(16);
  std::uint8_t is_new[4];
  counting.insert_batch(keys, 4, is_new);
  DedupSet plain;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(is_new[i], plain.insert(keys[i])) << i;
  EXPECT_EQ(is_new[1], 1);
  EXPECT_EQ(is_new[2], 0);
  EXPECT_EQ(counts_of(counting), (std::vector<std::uint64_t>{3, 1}));
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
  check_counting_set(keys, set, DedupSet::kKnownBits, 1000);
}

// The same where the ordinals must follow their keys through every move of growth: keys put back after a
// doubling's walk and doublings forced by a key too far from its home (displacement bounds 0-2; check_both runs
// the wrapping cases).
TEST(CountingDedupSet, OrdinalsFollowTheirKeysThroughGrowthsRarePaths) {
  for (std::size_t max_displacement : {0, 1, 2}) {
    SCOPED_TRACE(max_displacement);
    const std::vector<DedupKey> keys = crowded_keys(41 + max_displacement);
    CountingDedupSet set(16, max_displacement, kSmallKnownBits);
    check_counting_set(keys, set, kSmallKnownBits, 37);
  }
}

// A count past what 4 bytes hold goes on in the side table (the limit lowered to reach it).
TEST(CountingDedupSet, CountsPastTheirLimitGoOn) {
  CountingDedupSet set(16, DedupSet::kMaxDisplacement, DedupSet::kKnownBits, /*count_limit=*/3);
  const DedupKey a{1, 2}, b{3, 4};
  std::vector<DedupKey> keys = {a, b};
  for (int i = 0; i < 9; ++i) keys.push_back(a);
  keys.push_back(b);
  std::vector<std::uint8_t> is_new(keys.size());
  set.insert_batch(keys.data(), keys.size(), is_new.data());
  EXPECT_EQ(counts_of(set), (std::vector<std::uint64_t>{10, 2}));
  set.insert_batch(keys.data(), 1, is_new.data());
  EXPECT_EQ(set.count(0), 11u);
}

// The budget, ~24 bytes per distinct position: the set's 8-byte slots and 4-byte ordinals at 35-70 % load
// and a 4-byte count: under 38 bytes right after a doubling, ~28 on average (plain dedup: 11-23).
TEST(CountingDedupSet, KeepsAtMost38BytesPerKeyPastItsFirstSize) {
  CountingDedupSet set;
  std::mt19937_64 rng(5);
  std::vector<DedupKey> batch(1000);
  std::vector<std::uint8_t> is_new(batch.size());
  // The mean over one whole doubling period (2^21 slots: from 35 % to 70 % full).
  const std::size_t from = (std::size_t{1} << 20) * 7 / 10, to = (std::size_t{1} << 21) * 7 / 10;
  double sum = 0;
  int samples = 0;
  while (set.size() + batch.size() < to) {
    for (DedupKey& k : batch) k = DedupKey{rng(), rng()};
    set.insert_batch(batch.data(), batch.size(), is_new.data());
    if (set.size() > (std::size_t{1} << 18)) {
      EXPECT_LE(set.bytes(), set.size() * 38 + (std::size_t{1} << 21)) << set.size();  // + a 2 MiB page of counts
    }
    if (set.size() > from) {
      sum += static_cast<double>(set.bytes()) / static_cast<double>(set.size());
      ++samples;
    }
  }
  EXPECT_LT(sum / samples, 29.0);
}

// Plain dedup's set keeps no ordinals: asking for them is a programming error, said at once.
TEST(DedupSet, OrdinalsOnlyFromASetThatKeepsThem) {
  DedupSet set;
  const DedupKey k{1, 1};
  std::uint8_t is_new;
  std::uint32_t ordinal;
  EXPECT_THROW(set.insert_batch(&k, 1, &is_new, &ordinal), std::logic_error);
}

}  // namespace
}  // namespace fenmill
