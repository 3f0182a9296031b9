#include "io/chunker.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "io/byte_order_mark.h"
#include "io/page_size.h"

namespace fenmill {
namespace {

// While searching for the end of a line longer than the chunk, read at least this much at a time.
constexpr std::size_t kMinReadAhead = std::size_t{64} << 10;

// Where a chunk of `bytes` should end, given that no more bytes follow (`at_end`) or not.
// Returns the cut (one past a '\n', or bytes.size() at the end), or 0 if the first line does not end
// within `bytes` and more must be read. `searched` carries how far the forward search got between calls.
std::size_t find_cut(std::string_view bytes, std::size_t chunk_size, bool at_end, std::size_t& searched) {
  const char* p = bytes.data();
  std::size_t size = bytes.size();
  if (at_end && size <= chunk_size) return size;
  if (searched == 0) {
    std::size_t window = size < chunk_size ? size : chunk_size;
    if (const void* nl = ::memrchr(p, '\n', window))
      return static_cast<std::size_t>(static_cast<const char*>(nl) - p) + 1;
    searched = window;
  }
  // The first line is longer than chunk_size: the chunk is that one line.
  if (const void* nl = std::memchr(p + searched, '\n', size - searched))
    return static_cast<std::size_t>(static_cast<const char*>(nl) - p) + 1;
  searched = size;
  return at_end ? size : 0;
}

// Maps the pages of a mapped chunk in one system call instead of one page fault per 64 KiB, before the
// newline count touches them (~10% less CPU measured). Best effort: older kernels refuse, and faults do it.
void populate_pages(std::string_view bytes) {
#ifdef MADV_POPULATE_READ
  std::uintptr_t begin = page_floor(bytes.data());
  std::uintptr_t end = reinterpret_cast<std::uintptr_t>(bytes.data() + bytes.size());
  ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);
#else
  (void)bytes;
#endif
}

}  // namespace

Chunker::Chunker(std::shared_ptr<InputSource> source, std::size_t chunk_size, std::uint32_t source_index,
                 std::size_t max_line, bool split)
    : source_(std::move(source)), chunk_size_(chunk_size ? chunk_size : 1), source_index_(source_index),
      max_line_(max_line), split_(split && max_line > 0) {
  mapped_ = source_->mapped();
}

bool Chunker::next(Chunk& out, std::string& error) {
  error.clear();
  if (done_) return false;
  bool ok = mapped_.empty() ? next_streamed(out, error) : next_mapped(out, error);
  if (!ok) {
    done_ = true;
    carry_ = ByteBuffer();
  }
  return ok;
}

void Chunker::finish_chunk(Chunk& out, std::string_view bytes) {
  out.bytes = bytes;
  out.source_index = source_index_;
  out.source_name = source_->name();
  out.offset = offset_;
  out.starts_input = sequence_ == 0;
  out.sequence = sequence_++;
  out.source = source_;
  out.skipped = 0;
  out.long_line_bytes = 0;
  out.too_large_game_lines = 0;
  offset_ += bytes.size();
}

bool Chunker::next_mapped(Chunk& out, std::string& error) {
  if (at_start_) {
    at_start_ = false;
    if (error = utf16_error(mapped_, source_->name()); !error.empty()) return false;
    if (starts_with_utf8_bom(mapped_)) mapped_pos_ = offset_ = 3;
  }
  std::string_view rest = mapped_.substr(mapped_pos_);
  if (rest.empty()) return false;
  std::size_t searched = 0;
  // Split: a line is looked for no further than a piece's length past the chunk, the pages after left untouched.
  const std::string_view look = split_ ? rest.substr(0, std::max(chunk_size_, max_line_) + 1) : rest;
  std::size_t cut = find_cut(look, chunk_size_, look.size() == rest.size(), searched);
  if (cut == 0) cut = look.size() - 1;  // a longer line, in pieces
  mapped_pos_ += cut;
  populate_pages(rest.substr(0, cut));
  out.storage.clear();
  finish_chunk(out, rest.substr(0, cut));
  return true;
}

bool Chunker::read_more(ByteBuffer& buf, std::size_t want, std::string& error) {
  std::size_t n = source_->read(buf.prepare(want), want, error);
  if (n == 0) {
    eof_ = true;
    return error.empty();
  }
  buf.commit(n);
  return true;
}

bool Chunker::next_streamed(Chunk& out, std::string& error) {
  ByteBuffer& buf = out.storage;
  buf.clear();
  buf.append(carry_.view());
  carry_.clear();
  if (at_start_) {
    at_start_ = false;
    while (!eof_ && buf.size() < 3)
      if (!read_more(buf, chunk_size_ > 3 ? chunk_size_ : 3, error)) return false;
    if (error = utf16_error(buf.view(), source_->name()); !error.empty()) return false;
    if (starts_with_utf8_bom(buf.view())) {
      buf.drop_front(3);
      offset_ = 3;
    }
  }
  while (!eof_ && buf.size() < chunk_size_)
    if (!read_more(buf, chunk_size_ - buf.size(), error)) return false;

  if (buf.empty()) return false;  // the fill loop stops early only at the end of the input
  std::size_t searched = 0;
  std::size_t cut;
  while ((cut = find_cut(buf.view(), chunk_size_, eof_, searched)) == 0) {
    if (max_line_ != 0 && buf.size() > max_line_) {
      if (!split_) return cut_long_line(out, error);
      cut = buf.size();  // all of it is the first line's: a piece of it
      break;
    }
    std::size_t want = buf.size() > kMinReadAhead ? buf.size() : kMinReadAhead;  // doubling: linear time
    if (max_line_ != 0 && want > max_line_ + 1 - buf.size()) want = max_line_ + 1 - buf.size();  // no more
    if (!read_more(buf, want, error)) return false;
  }
  carry_.append(buf.view().substr(cut));
  buf.truncate(cut);
  finish_chunk(out, buf.view());
  return true;
}

// The chunk's first line (no '\n' in `out.storage`, which holds more than max_line_ bytes) is too long to be a
// record: the chunk keeps max_line_ + 1 of its bytes, and the rest is read up to its '\n' and dropped, a block at
// a time, so the line never takes more memory than that.
bool Chunker::cut_long_line(Chunk& out, std::string& error) {
  ByteBuffer& buf = out.storage;
  std::uint64_t dropped = buf.size() - (max_line_ + 1);
  std::uint64_t length = buf.size();  // the line's, without its line end
  bool cr = buf.view().back() == '\r';  // the last byte seen: a '\r' before the '\n' is the line end's
  buf.truncate(max_line_ + 1);
  carry_.clear();
  while (!eof_) {
    if (!read_more(carry_, kMinReadAhead, error)) return false;
    const std::string_view got = carry_.view();
    if (got.empty()) break;
    const std::size_t nl = got.find('\n');
    const std::size_t upto = nl == std::string_view::npos ? got.size() : nl;
    if (upto > 0) cr = got[upto - 1] == '\r';
    length += upto;
    if (nl != std::string_view::npos) {
      dropped += nl + 1;
      carry_.drop_front(nl + 1);
      break;
    }
    dropped += got.size();
    carry_.clear();
  }
  if (cr) --length;  // the reject shows a line without its '\r', as it would the whole line
  finish_chunk(out, buf.view());
  out.skipped = dropped;
  out.long_line_bytes = length;
  offset_ += dropped;
  return true;
}

}  // namespace fenmill
