#include "io/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace fenmill {

void* map_huge_aligned(std::size_t bytes, int prot) {
  void* p = try_map_huge_aligned(bytes, prot);
  if (p == nullptr) throw std::bad_alloc();  // like std::vector: out of memory is not a data error
  return p;
}

void* try_map_huge_aligned(std::size_t bytes, int prot) {
  // Map one huge page more than asked, then cut the unaligned head and the rest of the tail away.
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | (prot == PROT_NONE ? MAP_NORESERVE : 0);
  void* p = mmap(nullptr, bytes + kHugePageSize, prot, flags, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  auto base = reinterpret_cast<std::uintptr_t>(p);
  std::uintptr_t aligned = (base + kHugePageSize - 1) / kHugePageSize * kHugePageSize;
  if (aligned > base) munmap(p, aligned - base);
  std::size_t tail = base + bytes + kHugePageSize - (aligned + bytes);
  if (tail) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  if (prot & PROT_WRITE) madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

void make_writable_huge(void* p, std::size_t bytes) {
  if (mprotect(p, bytes, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
  madvise(p, bytes, MADV_HUGEPAGE);
}

}  // namespace fenmill
