#include "io/mapped_file.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "io/page_size.h"

namespace fenmill {

std::unique_ptr<MappedFile> MappedFile::map(int fd, std::size_t size, std::string name, std::string& error) {
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) {
    error = name + ": mmap: " + std::strerror(errno);
    return nullptr;
  }
  // Read-ahead aggressively and drop pages behind us sooner: we read each byte once, front to back.
  ::madvise(p, size, MADV_SEQUENTIAL);
  return std::unique_ptr<MappedFile>(new MappedFile(static_cast<const char*>(p), size, std::move(name)));
}

void MappedFile::release(std::string_view bytes) const {
  const auto at = [](const char* p) { return reinterpret_cast<std::uintptr_t>(p); };
  if (bytes.empty() || at(bytes.data()) < at(data_) || at(bytes.data()) + bytes.size() > at(data_) + size_) return;
  // Whole pages only, up to the one the next piece starts in; the page `bytes` starts in may also hold the end of
  // the piece before, released already (pieces are released in order).
  const std::uintptr_t begin = page_floor(bytes.data());
  const std::uintptr_t end = page_floor(bytes.data() + bytes.size());
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

MappedFile::~MappedFile() { ::munmap(const_cast<char*>(data_), size_); }

std::size_t MappedFile::read(char* dst, std::size_t max_bytes, std::string&) {
  std::size_t n = size_ - read_pos_ < max_bytes ? size_ - read_pos_ : max_bytes;
  std::memcpy(dst, data_ + read_pos_, n);
  release(std::string_view(data_ + read_pos_, n));  // copied: the pages are not needed again
  read_pos_ += n;
  return n;
}

}  // namespace fenmill
