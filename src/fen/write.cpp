#include "fen/write.h"

#include <cstring>

#include "fen/write_placement.h"

namespace fenmill {
namespace {

// Every right is a corner rook with the king on the e-file: written KQkq in either notation.
bool standard_castling(const Position& pos) {
  for (Color c : {kWhite, kBlack})
    for (CastlingSide side : {kKingSide, kQueenSide}) {
      Square rook = pos.castling_rook[c][side];
      if (rook != kNoSquare && (file_of(pos.king_square(c)) != 4 || file_of(rook) != (side == kKingSide ? 7 : 0)))
        return false;
    }
  return true;
}

char castling_letter(const Position& pos, Color c, CastlingSide side, CastlingNotation notation, bool standard) {
  Square rook = pos.castling_rook[c][side];
  int back = c == kWhite ? 0 : 7;
  int king_file = file_of(pos.king_square(c));
  char letter_case = c == kWhite ? 0 : 0x20;
  char side_letter = static_cast<char>((side == kKingSide ? 'K' : 'Q') | letter_case);
  char file_letter = static_cast<char>(('A' + file_of(rook)) | letter_case);
  bool corner = file_of(rook) == (side == kKingSide ? 7 : 0);
  if (notation == CastlingNotation::kShredder && !standard) return file_letter;  // Chess960: HAha style
  if (king_file == 4) return corner ? side_letter : file_letter;  // standard chess, or an inner rook
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

std::size_t write_position_fields(const Position& pos, char* out, CastlingNotation notation, std::string_view placement) {
  char* p = out;
  if (placement.empty()) {
    p = write_placement(pos, out);
  } else {
    p += copy_fen_text(placement, out);  // 15 to 71 bytes
  }
  *p++ = ' ';
  *p++ = pos.side_to_move == kWhite ? 'w' : 'b';
  *p++ = ' ';
  char* castling = p;
  const bool standard = notation != CastlingNotation::kShredder || standard_castling(pos);  // X-FEN never asks
  for (Color c : {kWhite, kBlack})
    for (CastlingSide side : {kKingSide, kQueenSide})
      if (pos.castling_rook[c][side] != kNoSquare) *p++ = castling_letter(pos, c, side, notation, standard);
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

std::size_t write_fen(const Position& pos, char* out, CastlingNotation notation, std::string_view placement) {
  char* p = out + write_position_fields(pos, out, notation, placement);
  *p++ = ' ';
  p += write_uint(pos.halfmove_clock, p);
  *p++ = ' ';
  p += write_uint(pos.fullmove_number, p);
  return static_cast<std::size_t>(p - out);
}

std::size_t write_epd_clocks(std::uint32_t halfmove, std::uint32_t fullmove, char* out) {
  if (halfmove == 0 && fullmove == 1) return 0;
  char* p = out;
  std::memcpy(p, " hmvc ", 6);
  p += 6;
  p += write_uint(halfmove, p);
  std::memcpy(p, "; fmvn ", 7);
  p += 7;
  p += write_uint(fullmove, p);
  *p++ = ';';
  return static_cast<std::size_t>(p - out);
}

std::size_t write_epd(const Position& pos, char* out, CastlingNotation notation, std::string_view placement) {
  const std::size_t n = write_position_fields(pos, out, notation, placement);
  return n + write_epd_clocks(pos.halfmove_clock, pos.fullmove_number, out + n);
}

std::string to_fen(const Position& pos, CastlingNotation notation) {
  char buf[kMaxFenLength];
  return std::string(buf, write_fen(pos, buf, notation));
}

}  // namespace fenmill
