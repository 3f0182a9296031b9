#include "xiangqi/write.h"

#include <cstring>

#include "fen/write.h"

namespace fenmill::xiangqi {
namespace {

// [letters][colour][type], in PieceType order: general advisor elephant horse chariot cannon soldier.
constexpr char kPieceChars[2][2][kPieceTypeCount] = {
    {{'K', 'A', 'B', 'N', 'R', 'C', 'P'}, {'k', 'a', 'b', 'n', 'r', 'c', 'p'}},
    {{'K', 'A', 'E', 'H', 'R', 'C', 'P'}, {'k', 'a', 'e', 'h', 'r', 'c', 'p'}},
};

}  // namespace

std::size_t write_placement(const Position& pos, char* out, Letters letters) {
  const auto& chars = kPieceChars[static_cast<int>(letters)];
  char board[kSquareCount];  // only occupied points are read
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < kPieceTypeCount; ++t) {
      char letter = chars[c][t];
      for_each_point(pos.pieces(Color(c), PieceType(t)), [&](Square s) { board[s] = letter; });
    }
  Bitboard occupied = pos.occupied();
  char* p = out;
  for (int rank = kRankCount - 1; rank >= 0; --rank) {
    // Walk the rank's pieces; the gaps between them are the digits.
    auto row = static_cast<unsigned>(occupied >> (kFileCount * rank)) & 0x1FF;
    int file = 0;
    for (; row; row &= row - 1) {
      int f = __builtin_ctz(row);
      if (f > file) *p++ = static_cast<char>('0' + f - file);
      *p++ = board[rank * kFileCount + f];
      file = f + 1;
    }
    if (file < kFileCount) *p++ = static_cast<char>('0' + kFileCount - file);
    if (rank) *p++ = '/';
  }
  return static_cast<std::size_t>(p - out);
}

std::size_t write_fen(const Position& pos, char* out, Letters letters) {
  char* p = out + write_placement(pos, out, letters);
  std::memcpy(p, pos.side_to_move == kBlack ? " b - - " : " w - - ", 7);
  p += 7;
  p += write_uint(pos.halfmove_clock, p);
  *p++ = ' ';
  p += write_uint(pos.fullmove_number, p);
  return static_cast<std::size_t>(p - out);
}

std::size_t write_epd(const Position& pos, char* out, Letters letters) {
  char* p = out + write_placement(pos, out, letters);
  std::memcpy(p, pos.side_to_move == kBlack ? " b - -" : " w - -", 6);
  p += 6;
  return static_cast<std::size_t>(p - out) + fenmill::write_epd_clocks(pos.halfmove_clock, pos.fullmove_number, p);
}

std::string to_fen(const Position& pos, Letters letters) {
  char buffer[kMaxFenLength];
  return std::string(buffer, write_fen(pos, buffer, letters));
}

}  // namespace fenmill::xiangqi
