#include "io/range_fill.h"

#include <cstring>


namespace fenmill {
namespace {

// Looking for the end of the range's last line reads this much first (a line is usually far shorter), then
// doubles what it has read past the range each time, so a very long line still costs linear time.
constexpr std::size_t kFirstReadAhead = std::size_t{4} << 10;

// Appends up to n bytes read at `offset`; returns how many (fewer only at the end of the file).
bool read_into(const InputSource& source, ByteBuffer& buf, std::uint64_t offset, std::size_t n, std::size_t& got,
               std::string& error) {
  char* dst = buf.prepare(n);
  got = 0;
  while (got < n) {
    std::size_t r = source.read_at(dst + got, n - got, offset + got, error);
    if (r == 0) break;
    got += r;
  }
  buf.commit(got);
  return error.empty();
}

}  // namespace

bool fill_range(Chunk& chunk, std::string& error) {
  ByteBuffer& buf = chunk.storage;
  buf.clear();
  const InputSource& source = *chunk.source;
  // One byte before the range too: a line starts at `offset` exactly when that byte is '\n'.
  const std::uint64_t read_from = chunk.offset == 0 ? 0 : chunk.offset - 1;
  const std::size_t limit = static_cast<std::size_t>(chunk.range_end - read_from);  // lines must start before it
  const std::size_t want = chunk.offset == 0 && limit < 3 ? 3 : limit;                // room to see a BOM
  std::size_t got = 0;
  if (!read_into(source, buf, read_from, want, got, error)) return false;
  bool at_end = got < want;
  std::size_t first = 0;  // index in buf of the first line the range owns
  if (chunk.offset == 0) {
    if (buf.view().substr(0, 3) == "\xEF\xBB\xBF") first = 3;
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
    if (!read_into(source, buf, read_from + buf.size(), more, got, error)) return false;
    at_end = got < more;
  }
  chunk.offset = read_from + first;
  chunk.bytes = buf.view().substr(first, end - first);
  return true;
}

}  // namespace fenmill
