#include "pipeline/dedup_set.h"

namespace fenmill {

std::uint32_t CountingDedupSet::insert(DedupKey key, bool& is_new) {
  if (key == DedupKey{}) {
    is_new = zero_ordinal_ == ~0u;
    if (is_new) {
      zero_ordinal_ = static_cast<std::uint32_t>(counts_.size());
      counts_.push_back(0);
    }
    ++counts_[zero_ordinal_];
    return zero_ordinal_;
  }
  if ((counts_.size() + 1) * 10 > slots_.size() * 7) grow();
  std::size_t mask = slots_.size() - 1;
  for (std::size_t i = key.lo & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.key == key) {
      is_new = false;
      ++counts_[s.ordinal];
      return s.ordinal;
    }
    if (s.key == DedupKey{}) {
      is_new = true;
      s.key = key;
      s.ordinal = static_cast<std::uint32_t>(counts_.size());
      counts_.push_back(1);
      return s.ordinal;
    }
  }
}

void CountingDedupSet::grow() {
  std::vector<Slot> old(slots_.size() * 2, Slot{DedupKey{}, 0});
  old.swap(slots_);
  std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.key == DedupKey{}) continue;
    std::size_t i = s.key.lo & mask;
    while (!(slots_[i].key == DedupKey{})) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace fenmill
