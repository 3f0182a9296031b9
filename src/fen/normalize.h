// One call from FEN text to a checked, normalized position: parse, validate (or repair), apply the
// en-passant policy. Normalizing a normalized FEN gives the same FEN (idempotent).
#pragma once
#include <string_view>

#include "fen/parse.h"
#include "fen/validate.h"
#include "fen/write.h"

namespace fenmill {

struct NormalizeOptions {
  EpPolicy ep = EpPolicy::kLegal;
  bool repair = false;
  bool chess960 = false;  // X-FEN castling letters everywhere (see ParseOptions)
  bool allow_operations = false;
};

struct NormalizeResult {
  ErrorCode code = ErrorCode::kOk;
  std::uint32_t column = 0;   // syntax errors only
  std::uint8_t fields = 0;    // fields present in the input
  std::uint8_t repairs = 0;   // Repair bits
  std::uint8_t hints = 0;     // Hint bits, for rejected positions
  Bitboard squares = 0;       // offending squares, for rejected positions
  std::uint32_t rest = 0;     // offset of EPD operations (allow_operations)
  std::uint8_t placement_length = 0;  // ParseResult::placement_length: text[0, n) may be copied by writers
  bool canonical = false;  // text[0, rest) is exactly write_fen's text of the normalized position
  bool operations_as_written = false;  // EPD: text[rest, ...) holds operations, EpdClocks::as_written
  bool ok() const { return code == ErrorCode::kOk; }
  bool completed() const { return fields < 4; }
};

void apply_ep_policy(Position& pos, EpPolicy policy);

NormalizeResult normalize_fen(std::string_view text, Position& pos, const NormalizeOptions& options = {});

// Whether a record that standard chess rejects for its castling rights is valid read as Chess960 (X-FEN, where K
// and Q name the outermost rook): a Chess960 start with its king on the e-file, read without --chess960, says so
// (kHintChess960). Rejected records only: it normalizes the record again.
bool castling_valid_as_chess960(std::string_view text, ErrorCode code, NormalizeOptions options);

}  // namespace fenmill
