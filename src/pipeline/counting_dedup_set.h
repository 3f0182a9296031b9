// `dedup --count`'s table: each distinct 128-bit key with its first-seen ordinal and occurrence count, 32 bytes a
// slot. KeyTable is open addressing over whole keys (they are already uniform hashes, so the low bits pick the
// slot): linear probing, at most 70% full, doubling in place. (Plain dedup keeps far less per key: dedup_set.h.)
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pipeline/dedup_set.h"
#include "pipeline/huge_table.h"

namespace fenmill {

// Slot: trivially copyable, its first member `DedupKey key`; a slot whose key is all zero is empty, so the
// all-zero key itself lives in a slot aside.
template <typename Slot>
class KeyTable {
 public:
  explicit KeyTable(std::size_t initial_capacity) {
    HugeTable<Slot> fresh(round_up(initial_capacity));  // zero-filled by the kernel: no pass to clear it
    fresh.swap(slots_);
  }

  // Finds or inserts each key in order and calls visit(i, slot, is_new). Prefetches slots ahead: the table
  // is far larger than the caches, so a lone insert mostly waits for memory (32 ahead:
  // bench/dedup_bench.cpp, docs/PERFORMANCE.md).
  template <typename Visit>
  void insert_batch(const DedupKey* keys, std::size_t n, Visit&& visit) {
    reserve(size_ + n);
    constexpr std::size_t kAhead = 32;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = 0; i < n; ++i) {
      if (i + kAhead < n) __builtin_prefetch(&slots_[keys[i + kAhead].lo & mask]);
      bool is_new;
      Slot& slot = find_or_insert(keys[i], mask, is_new);
      visit(i, slot, is_new);
    }
  }
  std::size_t size() const { return size_; }
  // Every occupied slot, in table order.
  template <typename Visit>
  void for_each(Visit&& visit) const {
    if (has_zero_) visit(zero_slot_);
    for (const Slot& s : slots_)
      if (!(s.key == DedupKey{})) visit(s);
  }

 private:
  // Makes room for n keys without growing on the way.
  void reserve(std::size_t n) {
    while ((n + 1) * 10 > slots_.size() * 7) grow();
  }
  // `mask` is slots_.size() - 1; the caller has made room. A new slot has its key set, the rest zero.
  Slot& find_or_insert(DedupKey key, std::size_t mask, bool& is_new) {
    if (key == DedupKey{}) {
      is_new = !has_zero_;
      has_zero_ = true;
      size_ += is_new;
      return zero_slot_;
    }
    for (std::size_t i = key.lo & mask;; i = (i + 1) & mask) {
      if (slots_[i].key == key) {
        is_new = false;
        return slots_[i];
      }
      if (slots_[i].key == DedupKey{}) {
        is_new = true;
        slots_[i].key = key;
        ++size_;
        return slots_[i];
      }
    }
  }

  static std::size_t round_up(std::size_t n) {
    std::size_t c = 16;
    while (c < n) c <<= 1;
    return c;
  }
  static bool empty(const Slot& s) { return s.key == DedupKey{}; }

  // Doubles the table in place: only the new half is fresh memory (on the VMs measured, first touches of
  // fresh pages cost more than the whole rehash), and no second table is held meanwhile.
  void grow() {
    const std::size_t old_size = slots_.size();
    slots_.grow(old_size * 2);
    const std::size_t mask = old_size * 2 - 1;
    // Walk the old half once, cyclically from an empty slot, so no probe run is split by the walk's start.
    // Each key is taken out and put back at its new place: a key that stays in the lower half lands at or
    // before its old slot, among slots already walked; one that moves up lands in the upper half, which holds
    // walked keys only. A key whose run would wrap from the top into unwalked slots (keys that had wrapped to
    // the bottom of the old table) is put back after the walk (tests/dedup_set_test.cpp makes it happen).
    std::size_t start = 0;
    while (!empty(slots_[start])) ++start;  // exists: the table is never full
    spill_.clear();
    for (std::size_t n = 0; n < old_size; ++n) {
      std::size_t j = (start + n) & (old_size - 1);
      Slot s = slots_[j];
      if (empty(s)) continue;
      slots_[j] = Slot{};
      std::size_t i = s.key.lo & mask;
      while (i <= mask && !empty(slots_[i])) ++i;
      if (i > mask)
        spill_.push_back(s);
      else
        slots_[i] = s;
    }
    for (const Slot& s : spill_) {
      std::size_t i = s.key.lo & mask;
      while (!empty(slots_[i])) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  HugeTable<Slot> slots_;
  std::vector<Slot> spill_;
  Slot zero_slot_{};
  std::size_t size_ = 0;
  bool has_zero_ = false;
};

// For `dedup --count`: each distinct key's first-seen ordinal (0, 1, 2, ... in input order) and its number of
// occurrences, in one slot, so counting a repeat touches no other memory.
class CountingDedupSet {
 public:
  explicit CountingDedupSet(std::size_t initial_capacity = 1 << 16) : table_(initial_capacity) {}
  // Inserts n keys in order, setting is_new[i]; counts every occurrence. Keys are told apart by the same low
  // DedupSet::kKnownBits bits as plain dedup's set, so `dedup --count` keeps exactly the records `dedup` keeps.
  void insert_batch(const DedupKey* keys, std::size_t n, std::uint8_t* is_new) {
    known_.resize(n);
    for (std::size_t i = 0; i < n; ++i) known_[i] = DedupKey{keys[i].lo, keys[i].hi & kKnownHighMask};
    table_.insert_batch(known_.data(), n, [&](std::size_t i, CountSlot& slot, bool fresh) {
      if (fresh) slot.ordinal = table_.size() - 1;
      ++slot.count;
      is_new[i] = fresh;
    });
  }
  std::size_t size() const { return table_.size(); }
  // The occurrences of every distinct key, indexed by first-seen ordinal.
  std::vector<std::uint64_t> counts_in_first_seen_order() const {
    std::vector<std::uint64_t> counts(table_.size());
    table_.for_each([&](const CountSlot& s) { counts[s.ordinal] = s.count; });
    return counts;
  }

 private:
  struct CountSlot {
    DedupKey key;
    std::uint64_t ordinal;
    std::uint64_t count;
  };
  static constexpr std::uint64_t kKnownHighMask = (std::uint64_t{1} << (DedupSet::kKnownBits - 64)) - 1;
  KeyTable<CountSlot> table_;
  std::vector<DedupKey> known_;
};

}  // namespace fenmill
