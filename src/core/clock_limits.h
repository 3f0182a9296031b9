// The largest clocks a FEN may hold, chess and Xiangqi alike (the halfmove clock is 16 bits in the binary records;
// a larger fullmove number is no real game's): larger ones are CLOCK_RANGE.
#pragma once
#include <cstdint>

namespace fenmill {

constexpr std::uint16_t kMaxHalfmoveClock = 65535;
constexpr std::uint32_t kMaxFullmoveNumber = 1000000;

}  // namespace fenmill
