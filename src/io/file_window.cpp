#include "io/file_window.h"

#include <sys/mman.h>

#include "io/page_size.h"

namespace fenmill {

FileWindow& FileWindow::operator=(FileWindow&& other) noexcept {
  if (this != &other) {
    reset();
    base_ = other.base_, length_ = other.length_, skip_ = other.skip_, size_ = other.size_;
    other.base_ = nullptr, other.length_ = other.skip_ = other.size_ = 0;
  }
  return *this;
}

bool FileWindow::map(int fd, std::uint64_t offset, std::size_t n) {
  reset();
  const std::uint64_t start = offset - offset % page_size();
  const std::size_t length = static_cast<std::size_t>(offset - start) + n;
  // MAP_POPULATE: one call maps every page, instead of a page fault per few pages while parsing.
  void* p = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, static_cast<off_t>(start));
  if (p == MAP_FAILED) return false;
  base_ = static_cast<char*>(p);
  length_ = length;
  skip_ = static_cast<std::size_t>(offset - start);
  size_ = n;
  return true;
}

void FileWindow::reset() {
  if (base_) ::munmap(base_, length_);
  base_ = nullptr;
  length_ = skip_ = size_ = 0;
}

}  // namespace fenmill
