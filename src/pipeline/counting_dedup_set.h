// `dedup --count`'s table: plain dedup's set (dedup_set.h), made to remember each key's first-seen ordinal, and the
// occurrence counts in first-seen order. 4 bytes a count (one past 2^32 - 1 goes to a side table), so 21-38 bytes
// per distinct position in all, ~28 on average, near the issue's ~24 (the 32-byte slots of whole keys it replaced
// took 46-91; 321 -> 138 MB peak RSS for the bench corpus's 5.06 M distinct positions).
// Keys are told apart by the same low DedupSet::kKnownBits bits, so `dedup --count` keeps exactly what `dedup` keeps.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "pipeline/dedup_set.h"
#include "pipeline/huge_table.h"

namespace fenmill {

class CountingDedupSet {
 public:
  // The first three as DedupSet's; tests shrink them to reach growth's rare paths, and lower count_limit, the
  // most a 4-byte count holds before the side table takes the rest, to reach that.
  explicit CountingDedupSet(std::size_t initial_capacity = DedupSet::kFirstSize,
                            std::size_t max_displacement = DedupSet::kMaxDisplacement, int known_bits = DedupSet::kKnownBits,
                            std::uint32_t count_limit = UINT32_MAX)
      : set_(initial_capacity, max_displacement, known_bits, /*remember_ordinals=*/true), count_limit_(count_limit) {}

  // Inserts n keys in order, setting is_new[i]; counts every occurrence.
  void insert_batch(const DedupKey* keys, std::size_t n, std::uint8_t* is_new) {
    ordinals_.resize(n);
    set_.insert_batch(keys, n, is_new, ordinals_.data());
    // Grown in place a huge page at a time, new counts 0.
    if (counts_.size() < set_.size()) counts_.grow((set_.size() / kCountsPerPage + 1) * kCountsPerPage);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t& count = counts_[ordinals_[i]];
      if (count == count_limit_) [[unlikely]]
        ++beyond_[ordinals_[i]];
      else
        ++count;
    }
  }
  std::size_t size() const { return set_.size(); }
  // The number of occurrences of the key first seen `ordinal`-th (0 <= ordinal < size()).
  std::uint64_t count(std::size_t ordinal) const {
    const std::uint64_t c = counts_[ordinal];
    if (c < count_limit_) [[likely]]
      return c;
    auto more = beyond_.find(static_cast<std::uint32_t>(ordinal));
    return c + (more == beyond_.end() ? 0 : more->second);
  }
  std::size_t bytes() const { return set_.bytes() + counts_.size() * sizeof(std::uint32_t); }

 private:
  static constexpr std::size_t kCountsPerPage = kHugePageSize / sizeof(std::uint32_t);
  DedupSet set_;
  std::uint32_t count_limit_;
  HugeTable<std::uint32_t> counts_;  // by first-seen ordinal
  std::unordered_map<std::uint32_t, std::uint64_t> beyond_;  // counts past UINT32_MAX, by ordinal
  std::vector<std::uint32_t> ordinals_;  // one batch's, reused
};

}  // namespace fenmill
