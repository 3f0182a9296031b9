// A readable page followed by an unreadable one, for tests of readers that may load past a text's end but must
// stay inside its page: a text placed to end `gap` bytes before end() is read as it would be anywhere else.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>

namespace fenmill {

class GuardedPage {
 public:
  GuardedPage() : size_(static_cast<std::size_t>(::sysconf(_SC_PAGESIZE))) {
    void* map = ::mmap(nullptr, 2 * size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED || ::mprotect(static_cast<char*>(map) + size_, size_, PROT_NONE) != 0) return;
    begin_ = static_cast<char*>(map);
  }
  ~GuardedPage() {
    if (begin_) ::munmap(begin_, 2 * size_);
  }
  GuardedPage(const GuardedPage&) = delete;
  GuardedPage& operator=(const GuardedPage&) = delete;

  bool ok() const { return begin_ != nullptr; }
  char* end() const { return begin_ + size_; }  // the first unreadable byte
  // Fills the readable page with `fill`, then copies n bytes so that they end `gap` bytes before end().
  const char* place(const char* text, std::size_t n, std::size_t gap, char fill) const {
    std::memset(begin_, fill, size_);
    char* at = end() - gap - n;
    std::memcpy(at, text, n);
    return at;
  }

 private:
  std::size_t size_;
  char* begin_ = nullptr;
};

}  // namespace fenmill
