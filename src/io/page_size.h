// The system's page size, in which mmap offsets and madvise ranges are counted, and an address rounded down to the
// start of its page.
#pragma once
#include <unistd.h>

#include <cstddef>
#include <cstdint>

namespace fenmill {

inline std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

inline std::uintptr_t page_floor(const void* p) { return reinterpret_cast<std::uintptr_t>(p) & ~(page_size() - 1); }

}  // namespace fenmill
