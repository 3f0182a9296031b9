// Semantic checks: can this Xiangqi position occur in a game? One ErrorCode per rule, checked in this order
// (the first broken rule is reported):
//   MISSING_KING, TOO_MANY_KINGS   exactly one general per side
//   XQ_GENERAL_PALACE              generals inside their palace (files d-f, ranks 0-2 Red / 7-9 Black)
//   XQ_TOO_MANY_SOLDIERS           at most 5 soldiers per side
//   XQ_TOO_MANY_PIECES             at most 2 advisors, elephants, horses, chariots, cannons per side
//   XQ_ADVISOR_POINT               advisors on their 5 palace points
//   XQ_ELEPHANT_POINT              elephants on their 7 points on their own side
//   XQ_SOLDIER_BEHIND              no soldier behind its starting rank (rank 3 Red, 6 Black)
//   XQ_SOLDIER_FILE                before the river, soldiers only on files a c e g i (ranks 3-4 / 5-6)
//   XQ_SOLDIER_STACKED             before the river, at most one soldier per file and side
//   XQ_GENERALS_FACING             no open file between the generals
//   OPPOSITE_CHECK                 the side not to move is not in check
#pragma once
#include <cstdint>
#include <string_view>

#include "fen/errors.h"
#include "xiangqi/position.h"

namespace fenmill::xiangqi {

// Hints for a rejected position (the same bit as fenmill::kHintFlipped).
enum Hint : std::uint8_t {
  kHintNone = 0,
  kHintFlipped = 1,  // each general in the other's palace: board written from Black's side, or colours swapped
};

struct Verdict {
  ErrorCode code = ErrorCode::kOk;
  Bitboard squares = 0;     // the points that break the rule (empty only for MISSING_KING)
  std::uint8_t hints = 0;   // Hint bits
  bool ok() const { return code == ErrorCode::kOk; }
};

Verdict validate(const Position& pos);

// Pieces of `by` attacking the other side's general (0 without one).
Bitboard checkers_of(const Position& pos, Color by);
// True if both generals stand on one file with no piece between them.
bool generals_facing(const Position& pos);
std::uint8_t position_hints(const Position& pos);

// Which side breaks the one-general rule ("Red has none", "neither side has one", "Black has more than one", ...;
// empty when both have one), Red checked first as validate() does: the detail of MISSING_KING and TOO_MANY_KINGS.
std::string_view general_count_detail(const Position& pos);

}  // namespace fenmill::xiangqi
