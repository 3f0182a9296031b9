// A run of whole lines of one input, with where it came from, so every reject can name file:line.
#pragma once
#include <cstdint>
#include <memory>
#include <string_view>

#include "io/byte_buffer.h"
#include "io/file_window.h"
#include "io/input_source.h"

namespace fenmill {

inline constexpr std::size_t kDefaultChunkSize = std::size_t{2} << 20;  // 2 MiB
// The longest line (CSV: row) read as a record; a longer one is one LINE_TOO_LONG reject, and streamed input
// does not hold more of it than this (io/chunker.h). Far above any record: a FEN is ~100 bytes, a lichess
// evaluation line a few KB.
inline constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

struct Chunk {
  Chunk() = default;
  Chunk(Chunk&&) noexcept = default;
  Chunk& operator=(Chunk&&) noexcept = default;
  // Move-only: `bytes` may point into `storage`, which a copy would not share.
  Chunk(const Chunk&) = delete;
  Chunk& operator=(const Chunk&) = delete;

  // Ends right after a '\n' or at the end of the input. Points into the input's memory mapping (zero copy),
  // into `window` (a range chunk's mapped lines) or into `storage` (streamed input); either way it stays
  // valid while this chunk lives, even when moved.
  std::string_view bytes;
  std::uint32_t source_index = 0;   // position of the input in the list given to the MultiChunker
  std::string_view source_name;     // the input's name() ("<stdin>" for "-"); kept alive by `source`
  std::uint64_t offset = 0;         // byte offset of bytes[0] in the (decompressed) input. A UTF-8 BOM
                                    // stripped at the start still counts: the first chunk then has offset 3.
  // The chunk begins the input (its first line is the input's line 1): what is decided from an input's
  // start (format sniffing, a CSV header) happens on it. Lines are numbered within a chunk from 1; the in-order
  // end of the pipeline adds the lines of the input's chunks before it.
  bool starts_input = true;
  std::uint64_t sequence = 0;       // 0, 1, 2, ... over all chunks of all inputs, in order
  // A chunk not read yet (range_end > 0): it owns the lines that start in [offset, range_end) of `source`, and
  // whoever processes it reads them with fill_range() (io/range_fill.h).
  std::uint64_t range_end = 0;
  // Streamed input, a line longer than kMaxLineBytes: the chunk is that line's first kMaxLineBytes + 2 bytes (the
  // processor rejects it as too long), `skipped` bytes of it were read past and dropped (its line end included),
  // and `long_line_bytes` is its length (without its line end).
  std::uint64_t skipped = 0;
  std::uint64_t long_line_bytes = 0;
  // PGN, a game whose text passes kMaxGameTextBytes (pgn/game_skip.h): the chunk is that game's first line (its first
  // bytes when it is long: long_line_bytes is then its length), the rest of the game was read past (`skipped`), and
  // this is the number of lines the game had. 0: an ordinary chunk.
  std::uint64_t too_large_game_lines = 0;

  // Keeps the mapping and the name alive while the chunk is in flight, even after the chunker moved on.
  std::shared_ptr<const InputSource> source;
  // Owned bytes for streamed input. Hand a used chunk back to next() to reuse its capacity.
  ByteBuffer storage;
  // Or the mapped pages of a range chunk's lines (io/range_fill.h).
  FileWindow window;
};

}  // namespace fenmill
