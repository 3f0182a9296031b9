#include "fen/write.h"

#include <cstring>

namespace fenmill {
namespace {

constexpr char kPieceChars[2][6] = {{'P', 'N', 'B', 'R', 'Q', 'K'}, {'p', 'n', 'b', 'r', 'q', 'k'}};

char* write_placement(const Position& pos, char* out) {
  char board[64];
  std::memset(board, 0, sizeof board);
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < kPieceTypeCount; ++t)
      for (Bitboard b = pos.by_color[c] & pos.by_type[t]; b; b &= b - 1) board[lsb(b)] = kPieceChars[c][t];
  for (int rank = 7; rank >= 0; --rank) {
    const char* row = board + rank * 8;
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      if (!row[f]) {
        ++empty;
        continue;
      }
      if (empty) *out++ = static_cast<char>('0' + empty);
      empty = 0;
      *out++ = row[f];
    }
    if (empty) *out++ = static_cast<char>('0' + empty);
    if (rank) *out++ = '/';
  }
  return out;
}

char castling_letter(const Position& pos, Color c, CastlingSide side, CastlingNotation notation) {
  Square rook = pos.castling_rook[c][side];
  int back = c == kWhite ? 0 : 7;
  int king_file = file_of(pos.king_square(c));
  char letter_case = c == kWhite ? 0 : 0x20;
  char side_letter = static_cast<char>((side == kKingSide ? 'K' : 'Q') | letter_case);
  char file_letter = static_cast<char>(('A' + file_of(rook)) | letter_case);
  bool corner = file_of(rook) == (side == kKingSide ? 7 : 0);
  if (king_file == 4) return corner ? side_letter : file_letter;  // standard chess, or an inner rook
  if (notation == CastlingNotation::kShredder) return file_letter;
  Bitboard rooks = pos.pieces(c, kRook) & rank_bb(back);
  Bitboard outer = side == kKingSide ? rooks & ~((square_bb(rook) << 1) - 1) : rooks & (square_bb(rook) - 1);
  return outer ? file_letter : side_letter;
}

}  // namespace

std::size_t write_uint(std::uint32_t value, char* out) {
  char tmp[10];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value);
  for (int i = 0; i < n; ++i) out[i] = tmp[n - 1 - i];
  return static_cast<std::size_t>(n);
}

std::size_t write_position_fields(const Position& pos, char* out, CastlingNotation notation) {
  char* p = write_placement(pos, out);
  *p++ = ' ';
  *p++ = pos.side_to_move == kWhite ? 'w' : 'b';
  *p++ = ' ';
  char* castling = p;
  for (Color c : {kWhite, kBlack})
    for (CastlingSide side : {kKingSide, kQueenSide})
      if (pos.castling_rook[c][side] != kNoSquare) *p++ = castling_letter(pos, c, side, notation);
  if (p == castling) *p++ = '-';
  *p++ = ' ';
  if (pos.ep_square == kNoSquare) {
    *p++ = '-';
  } else {
    *p++ = static_cast<char>('a' + file_of(pos.ep_square));
    *p++ = static_cast<char>('1' + rank_of(pos.ep_square));
  }
  return static_cast<std::size_t>(p - out);
}

std::size_t write_fen(const Position& pos, char* out, CastlingNotation notation) {
  char* p = out + write_position_fields(pos, out, notation);
  *p++ = ' ';
  p += write_uint(pos.halfmove_clock, p);
  *p++ = ' ';
  p += write_uint(pos.fullmove_number, p);
  return static_cast<std::size_t>(p - out);
}

std::size_t write_epd(const Position& pos, char* out, CastlingNotation notation) {
  char* p = out + write_position_fields(pos, out, notation);
  if (pos.halfmove_clock != 0 || pos.fullmove_number != 1) {
    std::memcpy(p, " hmvc ", 6);
    p += 6;
    p += write_uint(pos.halfmove_clock, p);
    std::memcpy(p, "; fmvn ", 7);
    p += 7;
    p += write_uint(pos.fullmove_number, p);
    *p++ = ';';
  }
  return static_cast<std::size_t>(p - out);
}

std::string to_fen(const Position& pos, CastlingNotation notation) {
  char buf[kMaxFenLength];
  return std::string(buf, write_fen(pos, buf, notation));
}

}  // namespace fenmill
