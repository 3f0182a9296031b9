// What one fenmill run does: the subcommand's choices, shared by every pipeline stage.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fen/normalize.h"
#include "xiangqi/types.h"

namespace fenmill {

enum class Command : std::uint8_t { kNormalize, kDedup, kValidate, kConvert, kStats };
// Whether the command writes positions (in the format --to picks); validate and stats write a report.
constexpr bool writes_positions(Command c) {
  return c == Command::kNormalize || c == Command::kDedup || c == Command::kConvert;
}
enum class OutputFormat : std::uint8_t { kFen, kEpd, kBinary, kCsv, kJsonl };
enum class InputFormat : std::uint8_t { kFen, kEpd, kCsv, kJsonl, kBinary, kPgn };

enum class Variant : std::uint8_t { kChess, kXiangqi, kAuto };

// Dedup key levels as the CLI names them.
enum class DedupLevel : std::uint8_t {
  kFull,            // placement, side, castling, ep, clocks
  kPosition,        // placement, side, castling, legal ep (the default)
  kPlacementSide,   // placement, side
  kPlacement,       // placement only
};

struct Job {
  Command command = Command::kNormalize;
  std::vector<std::string> inputs;
  std::string output = "-";
  OutputFormat to = OutputFormat::kFen;
  InputFormat from = InputFormat::kFen;
  bool from_auto = true;  // decide per input by extension
  std::string fen_column;  // CSV: header name or 0-based index; empty = "FEN" or "fen"
  // CSV: whether line 1 is a header. Auto: always with a column name; with an index, when its field there
  // reads as a column name (chunk_feed.cpp).
  enum class CsvHeader { kAuto, kYes, kNo } csv_header = CsvHeader::kAuto;
  std::string json_field = "fen";
  Variant variant = Variant::kChess;
  bool variant_given = false;  // --variant was on the command line (a binary file's own variant yields only to it)
  xiangqi::Letters xiangqi_letters = xiangqi::Letters::kUcci;
  // PGN: which positions of each game (ply 0 = the start position), and which tags go to CSV/JSONL.
  std::uint32_t ply_from = 0, ply_to = ~0u;
  std::uint32_t every = 1;
  bool follow_variations = false;  // PGN: also the positions of variations (by their ply, like the main line's)
  std::vector<std::string> with_tags;
  bool pgn_options_given() const {
    return !with_tags.empty() || ply_from != 0 || ply_to != ~0u || every != 1 || follow_variations;
  }
  NormalizeOptions normalize;
  CastlingNotation castling_notation = CastlingNotation::kXFen;
  DedupLevel key = DedupLevel::kPosition;
  bool count = false;
  bool force = false;
  bool fail_on_invalid = false;
  bool json = false;  // validate: JSON Lines instead of FILE:LINE:COL lines
  int threads = 0;
  std::size_t chunk_size = 2u << 20;
  bool mmap = false;  // map whole regular files, read in order: see docs/PERFORMANCE.md for why it is not the default
  std::string rejects_path;
  std::string summary_path;
  std::string html_path;  // validate --html: a report of the rejected records with pictures
  int progress = -1;  // -1 auto (terminal), 0 off, 1 forced
  bool quiet = false;

  bool dedup() const { return command == Command::kDedup; }
  bool writes_positions() const { return fenmill::writes_positions(command); }
};

}  // namespace fenmill
