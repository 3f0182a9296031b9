// FEN text -> Position. No exceptions, no allocation; every syntax error has a code and a byte column.
// Only syntax is checked here; fen/validate.h decides whether the position can occur.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/position.h"
#include "fen/errors.h"

namespace fenmill {

struct ParseOptions {
  // X-FEN everywhere: K/Q/k/q always mean the outermost rook on that side. Off (the default, "auto"):
  // with the king on e1/e8 they mean the h/a-file corner rook, as in standard chess.
  bool chess960 = false;
  // Leave text after the 4th field unparsed when it is not a clock pair (EPD operations).
  bool allow_operations = false;
  // Repair mode: a fullmove number of 0 becomes 1 instead of an error (reported in clock_repaired).
  bool repair = false;
};

// 16 bytes (the fields ordered so): returned in two registers (x86-64 SysV) rather than through memory.
struct ParseResult {
  ErrorCode code = ErrorCode::kOk;
  std::uint8_t fields = 0;      // how many FEN fields were present (1..6)
  bool clock_repaired = false;  // repair mode changed a clock
  // When not 0: the placement is text[0, placement_length), already canonical (every accepted placement is),
  // so writers may copy it (see write.h). 0 when the record starts with blanks.
  std::uint8_t placement_length = 0;
  std::uint32_t column = 0;     // 1-based byte column of the error within the record (0 when ok)
  std::uint32_t rest = 0;       // with allow_operations: offset where EPD operations start, else end
  // text[0, rest) holds six fields exactly as write_fen writes this position (not a word about its legality:
  // validation may still reject it, or a repair or the ep policy change it).
  bool canonical = false;
  bool ok() const { return code == ErrorCode::kOk; }
  bool completed() const { return fields < 4; }  // side/castling/ep were filled in with defaults
};

static_assert(sizeof(ParseResult) == 16);

ParseResult parse_fen(std::string_view text, Position& pos, const ParseOptions& options = {});

}  // namespace fenmill
