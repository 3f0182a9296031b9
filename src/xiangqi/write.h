// Xiangqi Position -> FEN text, always the full form "<placement> <w|b> - - <half> <full>". Writes into a
// caller's buffer: no allocation.
#pragma once
#include <cstddef>
#include <string>

#include "xiangqi/position.h"

namespace fenmill::xiangqi {

// 90 pieces/digits + 9 slashes + " b - - 65535 1000000" fits with room to spare.
constexpr std::size_t kMaxFenLength = 128;

// Returns the number of bytes written (no terminator); out must hold kMaxFenLength bytes.
std::size_t write_fen(const Position& pos, char* out, Letters letters = Letters::kUcci);
// 4-field EPD ("<placement> <w|b> - -"), followed by " hmvc N; fmvn N;" unless the clocks are 0 and 1.
std::size_t write_epd(const Position& pos, char* out, Letters letters = Letters::kUcci);
// The placement field only. May store up to 16 scratch bytes past its end (out must hold kMaxFenLength bytes).
std::size_t write_placement(const Position& pos, char* out, Letters letters = Letters::kUcci);
// The same text, one point at a time (for tests; write_placement uses byte shuffles where SSSE3 is there).
std::size_t write_placement_portable(const Position& pos, char* out, Letters letters = Letters::kUcci);

std::string to_fen(const Position& pos, Letters letters = Letters::kUcci);

}  // namespace fenmill::xiangqi
