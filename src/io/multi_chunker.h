// Several inputs as one stream of chunks, in the order given: all of input 0, then input 1, ...
// A chunk never spans two inputs, and line numbers start again at 1 in each input.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/chunker.h"

namespace fenmill {

class MultiChunker {
 public:
  explicit MultiChunker(std::vector<std::string> paths, std::size_t chunk_size = kDefaultChunkSize,
                        const InputOptions& options = {});

  // Fills `out` with the next chunk. Returns false when every input is done (`error` empty), or on an error (an input
  // that cannot be opened or read), which sets `error` naming the input. After an error the failed input
  // is abandoned and calling next() again carries on with the next input.
  bool next(Chunk& out, std::string& error);

  std::size_t input_count() const { return paths_.size(); }

  // Inputs whose flag is set are handed out as range chunks (Chunk::range_end, io/range_fill.h) when they
  // allow positional reads: regular files, not compressed, not mapped. For line formats whose records are
  // read without looking back (FEN, EPD).
  void allow_ranges(std::vector<bool> allowed) { ranges_allowed_ = std::move(allowed); }
  // Inputs whose flag is set read a streamed line longer than kMaxLineBytes without holding it (Chunker's
  // max_line): for formats whose records are single lines (FEN, EPD, JSON Lines), and CSV, whose rows end at the
  // latest with the line that passes kMaxCsvRowBytes.
  void limit_lines(std::vector<bool> limited) { lines_limited_ = std::move(limited); }
  // Inputs whose flag is set hand a line longer than kMaxLineBytes out in pieces (Chunker's split): for PGN, whose
  // reader bounds its games' text itself.
  void split_lines(std::vector<bool> split) { lines_split_ = std::move(split); }

 private:
  std::vector<std::string> paths_;
  std::size_t chunk_size_;
  InputOptions options_;
  std::size_t next_input_ = 0;
  std::optional<Chunker> current_;
  std::uint64_t sequence_ = 0;
  std::vector<bool> ranges_allowed_;
  std::vector<bool> lines_limited_;
  std::vector<bool> lines_split_;
  std::shared_ptr<InputSource> ranged_;  // the input being handed out in ranges
  std::uint32_t ranged_index_ = 0;
  std::uint64_t ranged_offset_ = 0;
};

}  // namespace fenmill
