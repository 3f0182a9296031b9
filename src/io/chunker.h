// Splits one input into chunks of whole lines of roughly chunk_size bytes: a chunk ends after the last
// '\n' that fits in chunk_size bytes, or, when a single line is longer, after that line's '\n' (a line is
// never split), or at the end of the input. Mapped inputs give zero-copy chunks; streamed ones are read
// into the chunk's own buffer. A UTF-8 BOM at the very start of the input is skipped; a UTF-16 one is an error
// (io/byte_order_mark.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "io/byte_buffer.h"
#include "io/chunk.h"
#include "io/input_source.h"

namespace fenmill {

class Chunker {
 public:
  // chunk_size >= 1 (0 is taken as 1); small sizes are for tests. max_line > 0: a streamed line longer than that
  // is cut (Chunk::skipped), so that it never takes more memory; 0 keeps every line whole. With `split`, such a line
  // (mapped too) is handed out in pieces of max_line (or chunk_size, the larger) bytes instead, the chunk ending
  // inside it: for a reader that joins lines into records of its own and bounds those (PGN games,
  // pipeline/chunk_feed.h).
  explicit Chunker(std::shared_ptr<InputSource> source, std::size_t chunk_size = kDefaultChunkSize,
                   std::uint32_t source_index = 0, std::size_t max_line = 0, bool split = false);

  // Fills `out` with the next chunk (reusing its storage). Returns false at the end of the input (`error`
  // empty) or on a read error (`error` says which); after either, next() keeps returning false.
  // Not thread-safe: one thread (the pipeline's serial reader) calls next(); the chunks may go anywhere.
  bool next(Chunk& out, std::string& error);

  const InputSource& source() const { return *source_; }

 private:
  bool next_mapped(Chunk& out, std::string& error);
  bool next_streamed(Chunk& out, std::string& error);
  bool read_more(ByteBuffer& buf, std::size_t want, std::string& error);
  void finish_chunk(Chunk& out, std::string_view bytes);
  bool cut_long_line(Chunk& out, std::string& error);

  std::shared_ptr<InputSource> source_;
  std::size_t chunk_size_;
  std::uint32_t source_index_;
  std::size_t max_line_;
  bool split_;
  std::string_view mapped_;     // whole input when mapped
  std::size_t mapped_pos_ = 0;
  ByteBuffer carry_;            // streamed: bytes read past the end of the previous chunk
  bool at_start_ = true;
  bool eof_ = false;            // streamed: the source has no more bytes
  bool done_ = false;
  std::uint64_t offset_ = 0;
  std::uint64_t sequence_ = 0;
};


}  // namespace fenmill
