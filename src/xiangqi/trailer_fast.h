// The fields after a Xiangqi placement in their common form, " w - - H F" (or side b or r): single spaces, both
// clocks plain numbers in range, nothing after. parse_fen reads them here at once (the field loop tested each byte
// of each field: a fifth of the parse); anything else (other blanks, '-' clocks, a fullmove 0, out of range,
// EPD operations) is the field loop's, which also names any error.
#pragma once
#include <cstring>

#include "core/clock_limits.h"
#include "fen/clock_text.h"
#include "xiangqi/position.h"

namespace fenmill::xiangqi {

// [p, end) is such a trailer: sets the side to move and the clocks and returns true; false (pos untouched) for
// anything else.
inline bool read_trailer_fast(const char* p, const char* end, Position& pos) {
  if (end - p < 10) return false;  // " w - - 0 1" is the shortest
  const char side = p[1];
  if (p[0] != ' ' || (side != 'w' && side != 'b' && side != 'r') || std::memcmp(p + 2, " - -", 4) != 0) return false;
  ClockText clocks;
  if (!read_clock_text(p + 6, end, clocks)) return false;
  if (clocks.halfmove > kMaxHalfmoveClock || clocks.fullmove == 0 || clocks.fullmove > kMaxFullmoveNumber) return false;
  pos.side_to_move = side == 'b' ? kBlack : kRed;
  pos.halfmove_clock = static_cast<std::uint16_t>(clocks.halfmove);
  pos.fullmove_number = clocks.fullmove;
  return true;
}

}  // namespace fenmill::xiangqi
