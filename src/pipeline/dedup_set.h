// The set of distinct dedup keys, 8 bytes a slot: 11-23 bytes per distinct position at 35-70% load (the issue's
// budget is ~24). Keys are uniform 128-bit hashes. The low `bits` bits of a key pick its home slot (2^bits slots);
// the slot keeps the key's next bits (its quotient) and how far it sits past its home, from which the home, and
// so the low bits, follow. Each in-place doubling moves the quotient's lowest bit into the home, so the table
// tells keys apart by a fixed number of their low bits, kKnownBits = 72: two distinct positions among 10^9
// share them with probability ~1e-4 (n^2 / 2^73), among 10^8 ~1e-6.
// Made to remember ordinals (for `dedup --count`), the set also keeps each key's first-seen ordinal (0, 1, 2, ...
// in insertion order) in a 4-byte array beside the slots, moved with its key: 17-34 bytes per key in all.
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
  static constexpr int kDisplacementBits = 10;
  static constexpr int kQuotientBits = 64 - kDisplacementBits;  // at most, in a slot
  static constexpr int kKnownBits = 72;
  // Linear probing at <= 70% load almost never puts a key this far past its home (for a run of 1022 at 70% load
  // the odds are ~e^-58); an insert that would is made room for by doubling, like one that passes 70%.
  static constexpr std::size_t kMaxDisplacement = (std::size_t{1} << kDisplacementBits) - 2;

  // At most this many keys when remembering ordinals (they are 4 bytes).
  static constexpr std::size_t kMaxOrdinals = std::size_t{1} << 32;

  // The default first size: what the known bits need (2^18 slots for 72).
  static constexpr std::size_t kFirstSize = std::size_t{1} << (kKnownBits - kQuotientBits);

  // The first size is raised to what the known bits need. Tests shrink the displacement bound and the known bits
  // to reach the rare paths with small tables.
  explicit DedupSet(std::size_t initial_capacity = kFirstSize,
                    std::size_t max_displacement = kMaxDisplacement, int known_bits = kKnownBits,
                    bool remember_ordinals = false);

  // Inserts the key; returns whether it was new.
  bool insert(DedupKey key);
  // Inserts n keys in order, setting is_new[i].
  void insert_batch(const DedupKey* keys, std::size_t n, std::uint8_t* is_new);
  // The same for a set that remembers ordinals, also setting ordinals[i] to the first-seen ordinal of keys[i] (a
  // new key's is the number of keys before it). Throws std::length_error past kMaxOrdinals keys.
  void insert_batch(const DedupKey* keys, std::size_t n, std::uint8_t* is_new, std::uint32_t* ordinals);
  std::size_t size() const { return size_; }
  // The table's memory: at most ~23 bytes per key once past its first size (~34 remembering ordinals).
  std::size_t bytes() const { return slots_.size() * sizeof(std::uint64_t) + ordinals_.size() * sizeof(std::uint32_t); }

 private:
  // A key out of the table at the current size: its home slot and quotient (and its ordinal, when remembered).
  struct Entry {
    std::uint64_t home;
    std::uint64_t quotient;
    std::uint32_t ordinal = 0;
  };
  enum class Found { kOld, kNew, kTooFar };

  std::size_t mask() const { return slots_.size() - 1; }
  Entry entry_of(DedupKey key) const;
  static std::uint64_t word(std::uint64_t quotient, std::size_t displacement) {
    return quotient << kDisplacementBits | (displacement + 1);  // never 0: 0 is an empty slot
  }
  // Finds the key or puts it in its first empty slot, `at`; kTooFar when that is past max_displacement_ (not
  // inserted). A new key's ordinal is size() before it.
  Found find_or_insert(Entry e, std::size_t& at);
  bool insert_growing(DedupKey key, std::size_t& at);
  // insert_batch's loop, with or without the ordinals.
  template <bool kWithOrdinals>
  void insert_each(const DedupKey* keys, std::size_t n, std::uint8_t* is_new, std::uint32_t* ordinals);
  // Places a key known to be absent; false when its slot would be past max_displacement_.
  bool place(Entry e);
  void reserve(std::size_t n);
  void grow();
  // The entry at twice the current size: the quotient's lowest bit joins the home.
  Entry doubled(Entry e) const { return {e.home | (e.quotient & 1) << bits_, e.quotient >> 1, e.ordinal}; }
  // Doubles the table and re-places every key; keys it cannot place go to pending_, at the new size.
  void double_in_place();

  HugeTable<std::uint64_t> slots_;
  HugeTable<std::uint32_t> ordinals_;  // beside slots_, when remembering ordinals; else empty
  bool remember_ordinals_;
  int bits_ = 0;  // slots_.size() == 2^bits_
  int known_bits_;
  std::size_t max_displacement_;
  std::size_t size_ = 0;
  std::vector<Entry> pending_;
};

}  // namespace fenmill
