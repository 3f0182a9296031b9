// One call from Xiangqi FEN text to a checked position: parse, then validate. Writing the position back
// (xiangqi/write.h) gives the normalized FEN "<placement> <w|b> - - <half> <full>"; normalizing that again
// gives the same text (idempotent), in either letter set.
#pragma once
#include <cstdint>
#include <string_view>

#include "xiangqi/parse.h"
#include "xiangqi/validate.h"
#include "xiangqi/write.h"

namespace fenmill::xiangqi {

struct NormalizeOptions {
  bool repair = false;               // a fullmove number of 0 becomes 1 (reported as fenmill::kRepairClock)
  bool allow_operations = false;     // EPD: operations may follow; hmvc / fmvn set the clocks
  Letters letters = Letters::kUcci;  // for the caller's write_fen; parsing accepts both sets
};

struct NormalizeResult {
  ErrorCode code = ErrorCode::kOk;
  std::uint32_t column = 0;       // syntax errors only
  std::uint8_t fields = 0;        // fields present in the input
  std::uint32_t rest = 0;         // offset of EPD operations (allow_operations)
  std::uint8_t repairs = 0;       // fenmill::Repair bits (only kRepairClock applies)
  std::uint8_t hints = 0;         // Hint bits, for rejected positions
  std::uint8_t letters_seen = 0;  // LetterSeen bits of the input placement
  Bitboard squares = 0;           // offending points, for rejected positions
  bool ok() const { return code == ErrorCode::kOk; }
  bool completed() const { return fields < 2; }
};

NormalizeResult normalize_fen(std::string_view text, Position& pos, const NormalizeOptions& options = {});

}  // namespace fenmill::xiangqi
