// Bytes too many to hold in memory, parked in a temporary file: written in order, then read back in order.
// The file has no name (O_TMPFILE, else unlinked as soon as it is made), so nothing is left behind
// whatever happens to the process. `dedup --count` parks its kept records here until the counts are known.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fenmill {

class SpillFile {
 public:
  // In `directory` (the output's, so the bytes go where the output has room). Null with `error` on failure.
  static std::unique_ptr<SpillFile> create(const std::string& directory, std::string& error);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // False once a write failed; error() says why.
  bool append(std::string_view bytes);
  // Reads everything back and calls visit(line) for each line, without its '\n' (a last line without one
  // is visited too). False on a read error.
  template <typename Visit>
  bool for_each_line(Visit&& visit);

  std::uint64_t size() const { return size_; }
  const std::string& error() const { return error_; }

 private:
  SpillFile(int fd, std::string directory) : fd_(fd), what_("temporary file in " + directory + ": ") {}
  // Bytes read at `offset` into dst (at most n; 0 at the end), or -1 with error_ set.
  long long read_at(std::uint64_t offset, char* dst, std::size_t n);

  int fd_;
  std::string what_;  // how errors name the file: it has no name, so its directory
  std::uint64_t size_ = 0;
  std::string error_;
};

template <typename Visit>
bool SpillFile::for_each_line(Visit&& visit) {
  std::vector<char> block(std::size_t{1} << 20);
  std::string carry;  // the start of a line the previous block cut
  for (std::uint64_t offset = 0;;) {
    long long got = read_at(offset, block.data(), block.size());
    if (got < 0) return false;
    if (got == 0) break;
    offset += static_cast<std::uint64_t>(got);
    std::string_view data(block.data(), static_cast<std::size_t>(got));
    for (std::size_t nl; (nl = data.find('\n')) != std::string_view::npos; data.remove_prefix(nl + 1)) {
      if (carry.empty()) {
        visit(data.substr(0, nl));
      } else {
        carry.append(data.substr(0, nl));
        visit(std::string_view(carry));
        carry.clear();
      }
    }
    carry.append(data);
  }
  if (!carry.empty()) visit(std::string_view(carry));
  return true;
}

}  // namespace fenmill
