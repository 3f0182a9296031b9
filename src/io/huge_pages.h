// Anonymous memory at 2 MiB-aligned addresses, so transparent huge pages can back all of it: on the VMs
// measured, a 4 KiB page fault costs ~5 us and a table in 4 KiB pages spends its time walking page tables
// (docs/PERFORMANCE.md). Used by the chunk buffers (io/byte_buffer.h) and the dedup table
// (pipeline/huge_table.h).
#pragma once
#include <cstddef>

namespace fenmill {

constexpr std::size_t kHugePageSize = std::size_t{2} << 20;

// Maps `bytes` (a multiple of kHugePageSize) of private anonymous memory at a 2 MiB-aligned address with
// protection `prot` (PROT_NONE reserves address space only); throws std::bad_alloc if the kernel refuses.
// Readable and writable memory is advised for huge pages. Unmap with munmap(p, bytes).
void* map_huge_aligned(std::size_t bytes, int prot);

// The same, but nullptr when the kernel refuses (an address-space limit, `ulimit -v`, counts reserved ranges too).
void* try_map_huge_aligned(std::size_t bytes, int prot);

// Makes [p, p + bytes) of a PROT_NONE mapping readable and writable and advises it for huge pages; throws
// std::bad_alloc if the kernel refuses.
void make_writable_huge(void* p, std::size_t bytes);

}  // namespace fenmill
