// Everything about one rank of a placement that depends only on which of its 8 squares are occupied (bit f = file
// f): its text with the empty-run digits in place and 0 where a piece goes, its length, where each file's piece lands
// in that text, and those slots as a byte mask. Both placement writers (fen/write_placement.h) index it by occupancy
// instead of branching per square.
#pragma once
#include <cstdint>

namespace fenmill {

struct RankText {
  char text[256][8];
  std::uint8_t length[256];
  std::uint8_t offset[256][8];  // offset[o][f]: position of file f's piece within text[o]
  std::uint64_t slots[256];     // 0xFF on each piece's byte of text[o] (read as a little-endian word)
  constexpr RankText() : text(), length(), offset(), slots() {
    for (int o = 0; o < 256; ++o) {
      int n = 0, empty = 0;
      for (int f = 0; f < 8; ++f) {
        if (!(o >> f & 1)) {
          ++empty;
          continue;
        }
        if (empty) text[o][n++] = static_cast<char>('0' + empty);
        empty = 0;
        slots[o] |= std::uint64_t{0xFF} << (8 * n);
        offset[o][f] = static_cast<std::uint8_t>(n++);
      }
      if (empty) text[o][n++] = static_cast<char>('0' + empty);
      length[o] = static_cast<std::uint8_t>(n);
    }
  }
};
inline constexpr RankText kRankText;

}  // namespace fenmill
