// Xiangqi FEN text -> Position. No exceptions, no allocation; every syntax error has a code (shared with
// chess: RANK_COUNT, RANK_SUM, BAD_PIECE, ...) and a 1-based byte column. Only syntax is checked here;
// xiangqi/validate.h decides whether the position can occur.
//
// Accepted forms (blanks are spaces or tabs, any number):
//   <placement>                              side defaults to Red
//   <placement> <side>                       side: w or r (Red), b (Black)
//   <placement> <side> -                     the castling field, always '-'
//   <placement> <side> - -                   and the en-passant field, always '-'
//   <placement> <side> - - <half> <full>     either clock may be '-' (halfmove 0, fullmove 1)
// With allow_operations (EPD), EPD operations may follow the fourth or the sixth field (ParseResult::rest).
// Placement: 10 ranks from rank 9 (Black's back rank) down, 9 points each, digits 1-9 for empty points;
// letters K A R C P plus elephant B or E and horse N or H, upper case Red.
#pragma once
#include <cstdint>
#include <string_view>

#include "fen/errors.h"
#include "xiangqi/position.h"

namespace fenmill::xiangqi {

struct ParseOptions {
  // A fullmove number of 0 becomes 1 instead of an error (reported in clock_repaired).
  bool repair = false;
  // EPD: operations (fen/epd_operations.h) may follow the fourth or sixth field: a fifth field that is not a
  // clock starts them, and from the fourth field on a ';' also ends a field, as in chess.
  bool allow_operations = false;
};

// Bits of ParseResult::letters_seen.
enum LetterSeen : std::uint8_t {
  kSeenUcci = 1,  // a B/b or N/n
  kSeenWxf = 2,   // an E/e or H/h
};

struct ParseResult {
  ErrorCode code = ErrorCode::kOk;
  std::uint32_t column = 0;       // 1-based byte column of the error within the record (0 when ok)
  std::uint8_t fields = 0;        // how many FEN fields were present (1..6)
  std::uint32_t rest = 0;         // with allow_operations: offset where EPD operations start, else the end
  std::uint8_t letters_seen = 0;  // LetterSeen bits: which elephant/horse letters the placement used
  bool clock_repaired = false;    // repair mode changed a clock
  bool ok() const { return code == ErrorCode::kOk; }
  bool completed() const { return fields < 2; }  // the side to move was filled in (Red)
};

ParseResult parse_fen(std::string_view text, Position& pos, const ParseOptions& options = {});

}  // namespace fenmill::xiangqi
