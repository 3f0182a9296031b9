// A growable array of trivially copyable slots in anonymous memory: zero-filled by the kernel (no clearing
// pass) and backed by transparent huge pages where the system allows. A large address range is reserved
// once, 2 MiB-aligned, and the array grows inside it: growing never moves the pages, so they stay huge.
// (An mremap to an address the kernel picks is not 2 MiB-aligned and splits them into 4 KiB pages; on
// the VMs measured, a dedup table in 4 KiB pages spent most of its inserts walking page tables:
// docs/PERFORMANCE.md.)
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "io/huge_pages.h"

namespace fenmill {

template <typename T>
class HugeTable {
  static_assert(std::is_trivially_copyable_v<T>);
  // Address space only: reserved pages cost nothing until made writable and touched.
  static constexpr std::size_t kDefaultReserve = std::size_t(64) << 30;

 public:
  HugeTable() = default;
  // `reserve_bytes`: the address range to reserve at first (tests pass a small one to exercise moving).
  explicit HugeTable(std::size_t n, std::size_t reserve_bytes = kDefaultReserve) : first_reserve_(reserve_bytes) {
    grow(n);
  }
  ~HugeTable() { release(); }
  HugeTable(const HugeTable&) = delete;
  HugeTable& operator=(const HugeTable&) = delete;
  void swap(HugeTable& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(writable_, o.writable_);
    std::swap(reserved_, o.reserved_);
    std::swap(first_reserve_, o.first_reserve_);
  }

  // Grows to n slots (n >= size()), keeping the contents; the new slots are zero. Only the new slots'
  // memory is touched (by the caller, later).
  void grow(std::size_t n) {
    std::size_t want = round_up(n * sizeof(T), kHugePageSize);
    if (want > reserved_) move_to_larger_reservation(want);
    if (want > writable_) {
      make_writable_huge(reinterpret_cast<char*>(data_) + writable_, want - writable_);
      writable_ = want;
    }
    size_ = n;
  }

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  static std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

  // Reserves an aligned range of at least `bytes` (inaccessible until grow() makes part of it writable)
  // and moves the current pages there.
  void move_to_larger_reservation(std::size_t bytes) {
    std::size_t reserve = reserved_ == 0 && bytes <= first_reserve_ ? first_reserve_ : bytes * 4;
    // Under an address-space limit (`ulimit -v`: reserved ranges count too) ask for room to grow 4x, then for
    // what is needed alone, leaving the rest of the limit to the other buffers: the table then moves more often
    // as it grows, but the run works.
    void* target = try_map_huge_aligned(reserve, PROT_NONE);
    for (std::size_t smaller : {bytes * 4, bytes}) {
      if (target != nullptr || smaller >= reserve) continue;
      reserve = smaller;
      target = try_map_huge_aligned(reserve, PROT_NONE);
    }
    if (target == nullptr) throw std::bad_alloc();
    if (writable_ > 0) {  // the old pages move, not copied; an aligned target keeps them huge
      if (mremap(data_, writable_, writable_, MREMAP_MAYMOVE | MREMAP_FIXED, target) == MAP_FAILED) {
        munmap(target, reserve);
        throw std::bad_alloc();
      }
      munmap(data_, reserved_);  // what is left of the old reservation
    }
    data_ = static_cast<T*>(target);
    reserved_ = reserve;
  }

  void release() {
    if (data_) munmap(data_, reserved_);
    data_ = nullptr;
    size_ = writable_ = reserved_ = 0;
  }

  T* data_ = nullptr;          // 2 MiB-aligned start of the slots
  std::size_t size_ = 0;       // slots in use
  std::size_t writable_ = 0;   // bytes from data_ that are readable and writable
  std::size_t reserved_ = 0;   // bytes from data_ that may become writable
  std::size_t first_reserve_ = kDefaultReserve;
};

}  // namespace fenmill
