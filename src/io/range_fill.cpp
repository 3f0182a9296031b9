#include "io/range_fill.h"

#include <algorithm>
#include <cstring>

#include "io/byte_order_mark.h"

namespace fenmill {
namespace {

// Looking for the end of the range's last line reads this much first (a line is usually far shorter), then
// doubles what it has read past the range each time, so a very long line still costs linear time.
constexpr std::size_t kFirstReadAhead = std::size_t{4} << 10;
// Ranges smaller than this are read, not mapped: a mapping costs a system call and page-table work whatever
// its size, so tiny chunks (--chunk-size 1 in tests) would pay one per byte.
constexpr std::size_t kSmallestMappedRange = std::size_t{64} << 10;

// A file's bytes from `from` on, as many as asked for so far: a window mapped from the page cache when the
// source allows it, else copies read into the chunk's buffer.
class RangeBytes {
 public:
  RangeBytes(Chunk& chunk, std::uint64_t from)
      : chunk_(chunk), source_(*chunk.source), from_(from), mapping_(chunk.range_end - from >= kSmallestMappedRange) {
    chunk_.window.reset();
    chunk_.storage.clear();
  }

  // Makes the first n bytes available, fewer only at the end of the file, which at_end() then says. False on
  // a read error.
  bool want(std::size_t n, std::string& error) {
    if (mapping_) {
      const std::uint64_t size = source_.positional_size();
      const std::uint64_t left = from_ < size ? size - from_ : 0;
      // One mapping usually serves the whole range: the last line's end comes with the first one.
      const std::size_t ask = static_cast<std::size_t>(std::min<std::uint64_t>(n + kFirstReadAhead, left));
      if (ask > bytes().size() && !source_.map_window(from_, ask, chunk_.window)) {
        mapping_ = false;  // cannot be mapped: read instead
        chunk_.window.reset();
      } else {
        at_end_ = ask == left;
        return true;
      }
    }
    ByteBuffer& buf = chunk_.storage;
    if (n <= buf.size()) return true;
    // The file is read as it was when opened, as a mapping sees it: bytes appended since then would make the
    // last line depend on how the input was cut into ranges.
    const std::uint64_t size = source_.positional_size(), have = from_ + buf.size();
    const std::size_t more = static_cast<std::size_t>(std::min<std::uint64_t>(n - buf.size(), size > have ? size - have : 0));
    char* dst = buf.prepare(more);
    std::size_t got = 0;
    while (got < more) {
      std::size_t r = source_.read_at(dst + got, more - got, from_ + buf.size() + got, error);
      if (r == 0) break;
      got += r;
    }
    buf.commit(got);
    at_end_ = from_ + buf.size() >= size || got < more;
    // Fewer bytes than the file had when it was opened: another process has cut it short. A mapped page past the
    // new end raises SIGBUS; a read says so here instead of ending the input early with a partial output and exit 0.
    if (got < more && error.empty())
      error = source_.shrank_error();
    return error.empty();
  }
  std::string_view bytes() const { return mapping_ ? chunk_.window.view() : chunk_.storage.view(); }
  bool at_end() const { return at_end_; }

 private:
  Chunk& chunk_;
  const InputSource& source_;
  const std::uint64_t from_;
  bool mapping_;
  bool at_end_ = false;
};

}  // namespace

bool fill_range(Chunk& chunk, std::string& error) {
  // One byte before the range too: a line starts at `offset` exactly when that byte is '\n'.
  const std::uint64_t read_from = chunk.offset == 0 ? 0 : chunk.offset - 1;
  RangeBytes range(chunk, read_from);
  const std::size_t limit = static_cast<std::size_t>(chunk.range_end - read_from);  // lines must start before it
  const std::size_t want = chunk.offset == 0 && limit < 3 ? 3 : limit;                // room to see a BOM
  if (!range.want(want, error)) return false;
  std::string_view buf = range.bytes();
  bool at_end = range.at_end();
  std::size_t first = 0;  // index in buf of the first line the range owns
  if (chunk.offset == 0) {
    if (error = utf16_error(buf, chunk.source->name()); !error.empty()) return false;
    if (starts_with_utf8_bom(buf)) first = 3;
  } else {
    std::size_t span = buf.size() < limit ? buf.size() : limit;
    const void* nl = span > 1 ? std::memchr(buf.data(), '\n', span - 1) : nullptr;
    first = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - buf.data()) + 1 : limit;
  }
  // No line starts in the range, or the file ended before it. (The first line owns a BOM before it.)
  if ((chunk.offset > 0 && first >= limit) || (first >= buf.size() && at_end)) {
    chunk.offset = chunk.range_end;
    chunk.bytes = {};
    return true;
  }
  // The last owned line ends at the first '\n' from index limit - 1 on, maybe past what was read so far.
  std::size_t searched = limit - 1 > first ? limit - 1 : first;
  std::size_t end = 0;
  for (;;) {
    if (searched < buf.size()) {
      if (const void* nl = std::memchr(buf.data() + searched, '\n', buf.size() - searched)) {
        end = static_cast<std::size_t>(static_cast<const char*>(nl) - buf.data()) + 1;
        break;
      }
      searched = buf.size();
    }
    if (at_end) {
      end = buf.size();
      break;
    }
    std::size_t past = buf.size() > limit ? buf.size() - limit : 0;
    std::size_t more = past > kFirstReadAhead ? past : kFirstReadAhead;
    if (!range.want(buf.size() + more, error)) return false;
    buf = range.bytes();
    at_end = range.at_end();
  }
  chunk.offset = read_from + first;
  chunk.bytes = buf.substr(first, end - first);
  return true;
}

}  // namespace fenmill
