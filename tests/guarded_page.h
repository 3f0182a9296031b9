// A readable page followed by an unreadable one, for tests of readers that may load past a text's end but must
// stay inside its page: a text placed to end `gap` bytes before end() is read as it would be anywhere else.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

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

// What the placement readers' page tests place there: the placements given, an empty text (at gap 0 it starts on
// the unreadable page: a reader must not load from there), and each line whole, as its first field, and as that
// field less its last byte.
inline std::vector<std::string> page_end_texts(std::vector<std::string> placements, const std::vector<std::string>& lines) {
  placements.push_back("");
  for (const std::string& line : lines) {
    placements.push_back(line);
    placements.push_back(line.substr(0, line.find(' ')));
    placements.push_back(line.substr(0, line.find(' ') - 1));
  }
  return placements;
}

// Calls check(text) for each text placed to end 0..max_gap bytes before the unreadable page, the rest of the page
// filled with each of `fills`; stops at the first fatal failure, saying where.
template <typename Check>
void check_at_page_end(const std::vector<std::string>& texts, std::initializer_list<char> fills, std::size_t max_gap,
                       Check check) {
  GuardedPage page;
  ASSERT_TRUE(page.ok());
  for (char fill : fills)
    for (const std::string& text : texts)
      for (std::size_t gap = 0; gap <= max_gap; ++gap) {
        check(std::string_view(page.place(text.data(), text.size(), gap, fill), text.size()));
        if (::testing::Test::HasFatalFailure()) {
          ADD_FAILURE() << "fill '" << fill << "', " << gap << " bytes before the page end";
          return;
        }
      }
}

}  // namespace fenmill
