// Reads fenmill binary files (docs/FORMAT.md) as a stream of chunks, one checksummed block per chunk,
// for `--from bin`. Works on any InputSource (mapped, pipe, .zst): it reads block by block, so memory
// stays at one block per chunk in flight (files are read, not mapped, unless `options` say so: --mmap; a whole
// mapping's pages would count towards RSS up to the file's size). Records are numbered within a chunk from 1, like
// lines.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "formats/binary_file.h"
#include "io/chunk.h"
#include "io/input_source.h"

namespace fenmill {

class BinaryChunker {
 public:
  explicit BinaryChunker(std::vector<std::string> paths, InputOptions options = {.map_files = false})
      : paths_(std::move(paths)), options_(options) {}

  // Fills `out` with the next block's records (chunk.bytes = count * record size bytes). Returns false at
  // the end, or on an error (unreadable input, bad header, corrupt block: `error` names file and block).
  bool next(Chunk& out, std::string& error);
  // The variant of the file the last chunk came from.
  BinaryVariant variant() const { return header_.variant; }

 private:
  bool open_next(std::string& error);
  // At the end block: its total must match and nothing may follow it.
  bool check_end(const BinaryBlock& end, std::uint64_t block_offset, std::string& error);
  std::string block_error(std::uint64_t block_offset, BinaryStatus status) const;
  bool read_exact(ByteBuffer& buf, std::size_t n, std::string& error);  // false on error or short read

  std::vector<std::string> paths_;
  InputOptions options_;
  std::size_t next_input_ = 0;
  std::shared_ptr<InputSource> source_;
  std::uint32_t source_index_ = 0;
  BinaryHeader header_;
  std::uint64_t block_index_ = 0;
  std::uint64_t records_ = 0;  // in the current input so far, for its end block's total
  std::uint64_t offset_ = 0;
  std::uint64_t sequence_ = 0;
};

}  // namespace fenmill
