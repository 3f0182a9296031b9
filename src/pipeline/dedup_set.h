// Open-addressing set of 128-bit keys for dedup: 16 bytes a slot, at most 70% full, so about
// 23 bytes per distinct position. Keys are already uniform hashes, so the low bits pick the slot.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/keys.h"
#include "pipeline/huge_table.h"

namespace fenmill {

using DedupKey = Key128;

class DedupSet {
 public:
  explicit DedupSet(std::size_t initial_capacity = 1 << 16) {
    HugeTable<DedupKey> fresh(round_up(initial_capacity));  // zero-filled by the kernel: no pass to clear it
    fresh.swap(slots_);
  }

  // Inserts the key; returns whether it was new.
  bool insert(DedupKey key) { return insert_slot(key) != kFound; }
  // Inserts n keys in order, setting is_new[i]. Prefetches slots ahead: the table is far larger than the
  // caches, so a lone insert mostly waits for memory (32 ahead: bench/dedup_bench.cpp, docs/PERFORMANCE.md).
  void insert_batch(const DedupKey* keys, std::size_t n, std::uint8_t* is_new) {
    reserve(size_ + n);
    constexpr std::size_t kAhead = 32;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = 0; i < n; ++i) {
      if (i + kAhead < n) __builtin_prefetch(&slots_[keys[i + kAhead].lo & mask]);
      is_new[i] = insert_slot_with_room(keys[i], mask) != kFound;
    }
  }
  // Makes room for n keys without growing on the way.
  void reserve(std::size_t n) {
    while ((n + 1) * 10 > slots_.size() * 7) grow();
  }
  std::size_t size() const { return size_; }
  std::size_t memory_bytes() const { return slots_.size() * sizeof(DedupKey); }

 protected:
  static constexpr std::size_t kFound = ~std::size_t(0);
  // Returns the slot index of a newly inserted key, or kFound if it was present.
  std::size_t insert_slot(DedupKey key) {
    if ((size_ + 1) * 10 > slots_.size() * 7) grow();
    return insert_slot_with_room(key, slots_.size() - 1);
  }
  // The same, when the caller has made room: `mask` is slots_.size() - 1.
  std::size_t insert_slot_with_room(DedupKey key, std::size_t mask) {
    if (key == DedupKey{}) {  // the all-zero key marks empty slots; track it aside
      if (has_zero_) return kFound;
      has_zero_ = true;
      ++size_;
      return slots_.size();  // a virtual slot just past the table
    }
    for (std::size_t i = key.lo & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return kFound;
      if (slots_[i] == DedupKey{}) {
        slots_[i] = key;
        ++size_;
        return i;
      }
    }
  }

 private:
  static std::size_t round_up(std::size_t n) {
    std::size_t c = 16;
    while (c < n) c <<= 1;
    return c;
  }
  // Doubles the table in place: only the new half is fresh memory (on the VMs measured, first touches of
  // fresh pages cost more than the whole rehash), and no second table is held meanwhile.
  void grow() {
    const std::size_t old_size = slots_.size();
    slots_.grow(old_size * 2);
    const std::size_t mask = old_size * 2 - 1;
    // Walk the old half once, cyclically from an empty slot, so no probe run is split by the walk's start.
    // Each key is taken out and put back at its new place: a key that stays in the lower half lands at or
    // before its old slot, among slots already walked; one that moves up lands in the upper half, which holds
    // walked keys only. (A probe that would still wrap from the top into unwalked slots is put back after the
    // walk, as a safety net: tests/dedup_set_test.cpp crowds the top of the table and never needs it.)
    std::size_t start = 0;
    while (!(slots_[start] == DedupKey{})) ++start;  // exists: the table is never full
    spill_.clear();
    for (std::size_t n = 0; n < old_size; ++n) {
      std::size_t j = (start + n) & (old_size - 1);
      DedupKey k = slots_[j];
      if (k == DedupKey{}) continue;
      slots_[j] = DedupKey{};
      std::size_t i = k.lo & mask;
      while (i <= mask && !(slots_[i] == DedupKey{})) ++i;
      if (i > mask)
        spill_.push_back(k);
      else
        slots_[i] = k;
    }
    for (const DedupKey& k : spill_) {
      std::size_t i = k.lo & mask;
      while (!(slots_[i] == DedupKey{})) i = (i + 1) & mask;
      slots_[i] = k;
    }
  }

  HugeTable<DedupKey> slots_;
  std::vector<DedupKey> spill_;
  std::size_t size_ = 0;
  bool has_zero_ = false;
};

// DedupSet plus an occurrence count per distinct key, for `dedup --count`.
class CountingDedupSet {
 public:
  // Returns the first-seen ordinal of the key and whether it is new; counts every occurrence.
  std::uint32_t insert(DedupKey key, bool& is_new);
  const std::vector<std::uint32_t>& counts() const { return counts_; }

 private:
  struct Slot {
    DedupKey key;
    std::uint32_t ordinal;
  };
  std::vector<Slot> slots_ = std::vector<Slot>(1 << 16, Slot{DedupKey{}, 0});
  std::vector<std::uint32_t> counts_;
  std::uint32_t zero_ordinal_ = ~0u;
  void grow();
};

}  // namespace fenmill
