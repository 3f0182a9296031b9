// A read-only mapping of part of a regular file: how a pipeline worker reads its own chunk's byte range.
// The page cache is mapped, not copied: on the VM measured in session 9 a pread() copy of the whole input cost
// ~20 % of a normalize run, the mapping a few percent (docs/PERFORMANCE.md). Only the window is mapped, and
// it stays mapped until its chunk is filled again (the pipeline reuses a few chunks), so resident memory
// stays bounded by threads x chunk size.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fenmill {

class FileWindow {
 public:
  FileWindow() = default;
  FileWindow(FileWindow&& other) noexcept { *this = static_cast<FileWindow&&>(other); }
  FileWindow& operator=(FileWindow&& other) noexcept;
  FileWindow(const FileWindow&) = delete;
  FileWindow& operator=(const FileWindow&) = delete;
  ~FileWindow() { reset(); }

  // Maps bytes [offset, offset + n) of fd (n > 0, all inside the file) with their pages populated up front,
  // replacing any earlier window. False when mmap fails (the caller reads instead: nothing to report).
  bool map(int fd, std::uint64_t offset, std::size_t n);
  std::string_view view() const { return {base_ + skip_, size_}; }
  void reset();

 private:
  char* base_ = nullptr;    // page-aligned start of the mapping
  std::size_t length_ = 0;  // bytes mapped from base_
  std::size_t skip_ = 0;    // offset - its page-aligned start
  std::size_t size_ = 0;    // n
};

}  // namespace fenmill
