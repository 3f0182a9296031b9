// The serial reader stage: chunks of every input in order, each with how to read its records.
// Text inputs come cut at line boundaries; PGN inputs are re-cut at game starts (or, without tags, after
// finished games) into smaller chunks, so every chunk holds whole games, and CSV inputs at row ends, so a
// quoted field's line breaks stay in one chunk; binary inputs come block by block.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/binary_chunker.h"
#include "formats/csv.h"
#include "io/multi_chunker.h"
#include "pgn/chunk_cutter.h"
#include "pgn/game_skip.h"
#include "pipeline/chunk_processor.h"
#include "pipeline/job.h"

namespace fenmill {

InputFormat input_format_of(const Job& job, std::string_view name);
bool has_format_extension(std::string_view name);
// --from auto for a FEN or EPD input: EPD when its first record (the first line of `s`) holds a ';'.
InputFormat fen_or_epd(std::string_view s);

class ChunkFeed {
 public:
  explicit ChunkFeed(const Job& job);
  // Fills `out` and its SourceFormat; false at the end or on an error (`error` set).
  bool next(Chunk& out, SourceFormat& format, std::string& error);
  // Things the run should tell the user once it is over (on stderr, after the progress line): the CSV header
  // guesses, each with the index of the input it is about.
  struct Note {
    std::uint32_t source_index;
    std::string text;
  };
  const std::vector<Note>& notes() const { return notes_; }
  // Whether some input is read as `format` (decided up front, empty inputs included).
  bool has_input(InputFormat format) const {
    return std::find(input_formats_.begin(), input_formats_.end(), format) != input_formats_.end();
  }

 private:
  // --from says the format, or the name's extension does: nothing to sniff from the content.
  bool decided_by_name(std::string_view path) const { return !job_.from_auto || has_format_extension(path); }
  InputFormat format_by_name_or_content(const std::string& path);
  static constexpr std::size_t kSniffBytes = 64 << 10;
  bool next_raw(Chunk& out, std::string& error);
  bool resolve(const Chunk& chunk, SourceFormat& out, std::string& error);
  bool claim_csv_header(const std::string& header, std::string_view source, SourceFormat& f, std::string& error);
  bool find_column(std::string_view header, SourceFormat& f, std::string& error);
  void emit_carry(Chunk& out, std::size_t end);
  void stamp_from_carry(Chunk& out) const;
  std::size_t too_large_game();
  bool begin_skip(Chunk& out);
  void emit_skipped_game(Chunk& out);
  void look_copied_or_read_past();

  // A PGN chunk is this share of --chunk-size: a PGN byte becomes up to ~9 bytes of output (a 7-byte move
  // like "12. Nf3 " one 60-byte FEN line), so a PGN chunk then holds about the output and work of a FEN chunk.
  static constexpr std::size_t kPgnChunkShare = 8;

  const Job& job_;
  std::optional<MultiChunker> text_;
  std::optional<BinaryChunker> binary_;
  std::vector<InputFormat> input_formats_;  // per input, by --from, name or binary magic
  std::vector<Note> notes_;
  std::string setup_error_;
  std::vector<SourceFormat> known_;
  // PGN and CSV re-cutting: bytes after the last game start (row end) seen, waiting for the rest.
  Chunk look_;
  bool have_look_ = false, at_end_ = false;
  ByteBuffer carry_;
  Chunk carry_meta_;  // source, name, offset of carry_[0], and whether it starts its input
  SourceFormat carry_format_;
  CsvRowScan csv_scan_;  // over carry_, for CSV
  PgnChunkCutter pgn_cutter_;  // PGN: where to cut the carry (fresh again once the whole carry went out)
  // PGN: a game boundary in the carry before which no game's text is longer than kMaxGameTextBytes (too_large_game()).
  std::size_t pgn_checked_ = 0;
  // PGN: reading past a game too large to read, which starts at carry_meta_.offset; its first line (as much as a
  // reject shows) is kept.
  std::optional<PgnGameSkip> skip_;
  std::string skip_first_line_;
  std::optional<std::string> csv_header_;  // --to csv: the first CSV input's header, which every one must share
  std::string csv_header_source_;
};

}  // namespace fenmill
