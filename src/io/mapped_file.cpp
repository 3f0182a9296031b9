#include "io/mapped_file.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>

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

MappedFile::~MappedFile() { ::munmap(const_cast<char*>(data_), size_); }

std::size_t MappedFile::read(char* dst, std::size_t max_bytes, std::string&) {
  std::size_t n = size_ - read_pos_ < max_bytes ? size_ - read_pos_ : max_bytes;
  std::memcpy(dst, data_ + read_pos_, n);
  read_pos_ += n;
  return n;
}

}  // namespace fenmill
