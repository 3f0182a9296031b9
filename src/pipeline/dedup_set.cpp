#include "pipeline/dedup_set.h"

#include <stdexcept>

namespace fenmill {
namespace {

constexpr std::uint64_t kDisplacementMask = (std::uint64_t{1} << DedupSet::kDisplacementBits) - 1;

int log2_of_power_of_two_at_least(std::size_t n) {
  int bits = 0;
  while ((std::size_t{1} << bits) < n) ++bits;
  return bits;
}

}  // namespace

DedupSet::DedupSet(std::size_t initial_capacity, std::size_t max_displacement, int known_bits, bool remember_ordinals)
    : remember_ordinals_(remember_ordinals), known_bits_(known_bits), max_displacement_(max_displacement) {
  // At least 16 slots, and enough that a slot holds the known bits above the home bits.
  bits_ = log2_of_power_of_two_at_least(initial_capacity < 16 ? 16 : initial_capacity);
  if (bits_ < known_bits_ - kQuotientBits) bits_ = known_bits_ - kQuotientBits;
  if (known_bits_ <= bits_ || known_bits_ > 128 ||
      max_displacement_ > kMaxDisplacement)
    throw std::invalid_argument("DedupSet: known bits out of range");
  HugeTable<std::uint64_t> fresh(std::size_t{1} << bits_);  // zero-filled by the kernel: no pass to clear it
  fresh.swap(slots_);
  if (remember_ordinals_) {
    HugeTable<std::uint32_t> ordinals(slots_.size());
    ordinals.swap(ordinals_);
  }
}

DedupSet::Entry DedupSet::entry_of(DedupKey key) const {
  // The 128-bit key shifted right by bits_ (4 <= bits_ < known_bits_ <= 128), cut to the known bits.
  const std::uint64_t above = bits_ < 64 ? key.lo >> bits_ | key.hi << (64 - bits_) : key.hi >> (bits_ - 64);
  const int quotient_bits = known_bits_ - bits_;  // 1..kQuotientBits
  return {key.lo & mask(), above & ((std::uint64_t{1} << quotient_bits) - 1)};
}

DedupSet::Found DedupSet::find_or_insert(Entry e, std::size_t& at) {
  const std::size_t m = mask();
  for (std::size_t d = 0; d <= max_displacement_; ++d) {
    at = (e.home + d) & m;
    std::uint64_t& slot = slots_[at];
    const std::uint64_t expected = word(e.quotient, d);  // the same quotient at the same distance: the same home
    if (slot == expected) return Found::kOld;
    if (slot == 0) {
      slot = expected;
      if (remember_ordinals_) ordinals_[at] = static_cast<std::uint32_t>(size_);
      ++size_;
      return Found::kNew;
    }
  }
  return Found::kTooFar;  // no key sits that far from its home, so this one is absent
}

bool DedupSet::insert_growing(DedupKey key, std::size_t& at) {
  for (;;) {
    Found found = find_or_insert(entry_of(key), at);
    if (found != Found::kTooFar) return found == Found::kNew;
    grow();
  }
}

bool DedupSet::insert(DedupKey key) {
  reserve(size_ + 1);
  std::size_t at;
  return insert_growing(key, at);
}

template <bool kWithOrdinals>
void DedupSet::insert_each(const DedupKey* keys, std::size_t n, std::uint8_t* is_new, std::uint32_t* ordinals) {
  reserve(size_ + n);
  // The table is far larger than the caches, so a lone insert mostly waits for memory: prefetch the home slots
  // of the keys ahead (bench/dedup_bench.cpp, docs/PERFORMANCE.md).
  constexpr std::size_t kAhead = 32;
  std::size_t at;
  for (std::size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) __builtin_prefetch(&slots_[keys[i + kAhead].lo & mask()]);
    Found found = find_or_insert(entry_of(keys[i]), at);
    is_new[i] = found == Found::kTooFar ? insert_growing(keys[i], at) : found == Found::kNew;
    if constexpr (kWithOrdinals) ordinals[i] = ordinals_[at];
  }
}

void DedupSet::insert_batch(const DedupKey* keys, std::size_t n, std::uint8_t* is_new) {
  insert_each<false>(keys, n, is_new, nullptr);
}

void DedupSet::insert_batch(const DedupKey* keys, std::size_t n, std::uint8_t* is_new, std::uint32_t* ordinals) {
  if (!remember_ordinals_) throw std::logic_error("DedupSet: ordinals asked of a set that does not keep them");
  if (n > kMaxOrdinals - size_)
    throw std::length_error("dedup --count: more than 4294967296 distinct positions");
  insert_each<true>(keys, n, is_new, ordinals);
}

bool DedupSet::place(Entry e) {
  const std::size_t m = mask();
  for (std::size_t d = 0; d <= max_displacement_; ++d) {
    const std::size_t at = (e.home + d) & m;
    std::uint64_t& slot = slots_[at];
    if (slot == 0) {
      if (remember_ordinals_) ordinals_[at] = e.ordinal;
      return (slot = word(e.quotient, d)), true;
    }
  }
  return false;
}

void DedupSet::reserve(std::size_t n) {
  while ((n + 1) * 10 > slots_.size() * 7) grow();
}

void DedupSet::grow() {
  pending_.clear();
  double_in_place();
  // Keys the walk could not place: put back with wrapping; one still too far from its home needs another doubling.
  while (!pending_.empty()) {
    std::size_t kept = 0;
    for (Entry e : pending_)
      if (!place(e)) pending_[kept++] = e;
    pending_.resize(kept);
    if (kept == 0) break;
    for (Entry& e : pending_) e = doubled(e);
    double_in_place();
  }
}

// Only the new half is fresh memory (on the VMs measured, first touches of fresh pages cost more than the whole
// rehash), and no second table is held meanwhile. The walk goes once over the old half, cyclically from an empty
// slot, so no probe run is split by its start. Each key is taken out and put back at its new place: one that
// stays in the lower half lands at or before its old slot, among slots already walked; one that moves up lands in
// the upper half, which holds walked keys only. A key whose run would wrap from the top into unwalked slots (keys
// that had wrapped to the bottom of the old table), or end too far from its home, is put back after the walk
// (tests/dedup_set_test.cpp makes both happen).
void DedupSet::double_in_place() {
  if (bits_ + 1 >= known_bits_) throw std::length_error("DedupSet: more slots than known bits");
  const std::size_t old_size = slots_.size();
  const std::size_t old_mask = old_size - 1;
  slots_.grow(old_size * 2);
  if (remember_ordinals_) ordinals_.grow(old_size * 2);
  const std::size_t top = old_size * 2 - 1;
  std::size_t start = 0;
  while (slots_[start] != 0) ++start;  // exists: the table is never full
  for (std::size_t n = 0; n < old_size; ++n) {
    const std::size_t j = (start + n) & old_mask;
    const std::uint64_t w = slots_[j];
    if (w == 0) continue;
    slots_[j] = 0;
    const std::size_t displacement = (w & kDisplacementMask) - 1;
    const std::uint32_t ordinal = remember_ordinals_ ? ordinals_[j] : 0;
    const Entry e = doubled({(j - displacement) & old_mask, w >> kDisplacementBits, ordinal});
    const std::size_t last = e.home + max_displacement_ < top ? e.home + max_displacement_ : top;
    std::size_t i = e.home;
    while (i <= last && slots_[i] != 0) ++i;
    if (i <= last) {
      slots_[i] = word(e.quotient, i - e.home);
      if (remember_ordinals_) ordinals_[i] = ordinal;
    } else {
      pending_.push_back(e);
    }
  }
  ++bits_;
}

}  // namespace fenmill
