// The parallel stage: one chunk of lines in, normalized output bytes, dedup keys, rejects and
// counts out. Pure function of its input, so any thread may run it and results stay deterministic.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/keys.h"
#include "io/byte_buffer.h"
#include "pipeline/counts.h"
#include "pipeline/job.h"
#include "xiangqi/types.h"

namespace fenmill {

struct Reject {
  std::uint64_t line;
  std::uint32_t column;
  ErrorCode code;
  std::uint8_t hints;
  Bitboard squares;
  // Offsets, not 32-bit: a rejected line may pass 4 GiB.
  std::size_t text_begin, text_end;  // the original line (PGN: the offending token), in ChunkResult::reject_text
  std::size_t detail_end = 0;  // when above text_end: reject_text[text_end, detail_end) says what exactly is wrong
  // PGN games only: the game's error (code is then the [FEN] tag's error, if any), its 1-based number
  // in the input (the sink adds the games of earlier chunks) and the ply the move would have made.
  PgnError pgn = PgnError::kOk;
  bool xiangqi = false;  // a Xiangqi record: its points are in xiangqi_squares (its board has 90), squares is 0
  xiangqi::Bitboard xiangqi_squares = 0;
  // A chess record (--variant chess) or a PGN game's [FEN] tag that is a valid Xiangqi position: said as a hint.
  bool valid_as_xiangqi = false;
  // A PGN game that is clearly a Xiangqi game (pgn/xiangqi_game.h): said as a hint.
  bool xiangqi_game = false;
  std::uint64_t game = 0;
  std::uint32_t ply = 0;
  // A CSV row over several lines: the lines of its text before the one `line` and `column` name (the FEN's).
  std::uint32_t lines_before = 0;
  // Not 0 when the record was longer than its text keeps (kMaxRejectInput): the record's length in bytes.
  std::uint64_t input_bytes = 0;
};

// The offset in a reject's text of the byte its column names: past `lines_before` line breaks (a CSV row with
// quoted ones), capped at the text's end.
std::size_t column_at(std::string_view text, const Reject& rej);

// A rejected record's text keeps at most this much past its column: a 50 MB line of control bytes made a 300 MB
// rejects object (each byte \u00XX) and took 600 MB of memory.
inline constexpr std::size_t kMaxRejectInput = std::size_t{1} << 20;

// How to find the FEN in the records of one input; decided by the serial reader stage.
struct SourceFormat {
  InputFormat format = InputFormat::kFen;
  int csv_column = 0;       // CSV: index of the FEN column
  char separator = ',';     // CSV: ',' or '\t' (.tsv)
  bool has_header = false;  // CSV: line 1 of the input is a header, not a record
  bool write_header = false;  // CSV output: this input's header goes to the output
  bool xiangqi = false;       // binary input: the file holds Xiangqi records
};

struct ChunkResult {
  std::string header;               // CSV output: the header line, written before the records
  char separator = ',';             // CSV output: the field separator of the header and rows
  std::vector<int> count_columns;   // --count --to csv: the header's own `count` columns, or the one added after
  bool count_column_added = false;  // its last column
  ByteBuffer out;                   // written records in input order (text, or 32-byte binary records)
  std::vector<std::size_t> ends;    // end offset in `out` of each record (dedup, text formats; a chunk's
                                    // output may pass 4 GiB: one PGN game under --with-tags repeats its tags)
  std::vector<Key128> keys;         // one dedup key per record (dedup and stats)
  std::vector<std::size_t> dropped_operations;  // dedup: the records (indexes into keys) whose EPD operations
                                                // the output format cannot hold
  std::vector<Reject> rejects;
  std::string reject_text;
  Counts counts;
  std::uint64_t lines = 0;          // lines in the chunk, blank ones included (binary input: records)
  void clear();
};

// Processes every line (binary input: record) of `bytes`, numbered from 1 within the chunk; `starts_input`:
// the chunk begins its input (a CSV header line, the CSV/PGN output header). `too_large_game_lines` (PGN): not 0 when
// `bytes` are the first line of a game too large to read, which had that many lines (Chunk::too_large_game_lines):
// the game is one GAME_TOO_LARGE reject.
void process_chunk(std::string_view bytes, bool starts_input, const SourceFormat& source, const Job& job,
                   ChunkResult& result, std::uint64_t too_large_game_lines = 0);

KeyLevel key_level(DedupLevel level);
// The columns a PGN input has under --to csv: fen, then the --with-tags names (without --count's column).
std::string pgn_csv_header(const Job& job, char separator);

}  // namespace fenmill
