// Test helper: walks the lines of a chunk (text without the '\n' and one trailing '\r', with line numbers and
// offsets), to check what the chunkers hand out. The pipeline itself walks lines with io/line_splitter.h.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>


namespace fenmill {

struct Line {
  std::string_view text;     // without the line ending
  std::uint64_t number = 0;  // 1-based within its input
  std::uint64_t offset = 0;  // byte offset of text[0] in the (decompressed) input
};

class LineReader {
 public:
  LineReader(std::string_view bytes, std::uint64_t first_line, std::uint64_t offset)
      : bytes_(bytes), number_(first_line), offset_(offset) {}

  // Returns false after the last line. A final line without '\n' is still a line; "a\n" is one line, not two.
  bool next(Line& line) {
    std::size_t left = bytes_.size() - pos_;
    if (left == 0) return false;
    const char* start = bytes_.data() + pos_;
    const void* newline = std::memchr(start, '\n', left);
    std::size_t length = newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - start) : left;
    line.number = number_++;
    line.offset = offset_ + pos_;
    pos_ += newline ? length + 1 : length;
    if (length > 0 && start[length - 1] == '\r') --length;
    line.text = std::string_view(start, length);
    return true;
  }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  std::uint64_t number_;
  std::uint64_t offset_;
};

}  // namespace fenmill
