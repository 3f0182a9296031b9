#include "fen/write.h"

#include <cstring>

namespace fenmill {
namespace {

constexpr char kPieceChars[2][6] = {{'P', 'N', 'B', 'R', 'Q', 'K'}, {'p', 'n', 'b', 'r', 'q', 'k'}};

// Everything about one rank that depends only on which of its 8 squares are occupied (bit f = file f):
// its text with the empty-run digits in place and 0 where a piece goes, its length, and where each
// file's piece lands in that text. Indexing by occupancy replaces a branch per square.
struct RankTable {
  char text[256][8];
  std::uint8_t length[256];
  std::uint8_t offset[256][8];  // offset[o][f]: position of file f's piece within text[o]
  constexpr RankTable() : text(), length(), offset() {
    for (int o = 0; o < 256; ++o) {
      int n = 0, empty = 0;
      for (int f = 0; f < 8; ++f) {
        if (!(o >> f & 1)) {
          ++empty;
          continue;
        }
        if (empty) text[o][n++] = static_cast<char>('0' + empty);
        empty = 0;
        offset[o][f] = static_cast<std::uint8_t>(n++);
      }
      if (empty) text[o][n++] = static_cast<char>('0' + empty);
      length[o] = static_cast<std::uint8_t>(n);
    }
  }
};
constexpr RankTable kRanks;

// Drops `letter` into the slot of each square of b, lowest first. The first `peel` squares take no
// data-dependent branch (an empty round writes to the scratch slot 64); a loop takes any excess.
template <int kPeel>
inline void put_letters(char* out, const std::uint8_t* slot, Bitboard b, char letter) {
  for (int i = 0; i < kPeel; ++i) {
    unsigned square = lsb(b | square_bb(63)) + (b == 0);  // 64 when b is empty, without a branch
    out[slot[square]] = letter;
    b &= b - 1;
  }
  for (; b; b &= b - 1) out[slot[lsb(b)]] = letter;
}

// Two passes without a branch per square: lay out the eight rank texts from the occupancy (and note
// where each square's letter goes), then drop the letters into their slots, a piece kind at a time:
// kings, queens and minor pieces peeled (0, 1 or 2 of them), pawns in a loop (measured faster for
// them). Stores whole 8-byte rank texts: it may write scratch bytes up to 7 bytes past the placement,
// which the caller overwrites or ignores (all within kMaxFenLength).
char* write_placement(const Position& pos, char* out) {
  // A scalar chain on purpose: a vectorized OR loads two bitboards at once, which right after the
  // parser stored them one by one stalls on store forwarding.
  Bitboard typed = pos.by_type[kPawn] | pos.by_type[kKnight] | pos.by_type[kBishop] | pos.by_type[kRook] |
                   pos.by_type[kQueen] | pos.by_type[kKing];
  Bitboard occupied = typed & (pos.by_color[kWhite] | pos.by_color[kBlack]);  // squares that get a letter
  std::uint8_t slot[65];
  char* p = out;
  for (int rank = 7; rank >= 0; --rank) {
    unsigned o = static_cast<unsigned>(occupied >> (8 * rank)) & 0xFF;
    std::memcpy(p, kRanks.text[o], 8);
    std::uint64_t offsets;
    std::memcpy(&offsets, kRanks.offset[o], 8);
    offsets += static_cast<std::uint64_t>(p - out) * 0x0101010101010101ull;  // bytewise, never carries
    std::memcpy(slot + 8 * rank, &offsets, 8);
    p += kRanks.length[o];
    *p++ = '/';
  }
  --p;                                            // no slash after rank 1: the caller writes there next,
  slot[64] = static_cast<std::uint8_t>(p - out);  // so it is the scratch slot
  for (int c = 0; c < 2; ++c) {
    const char* letters = kPieceChars[c];
    put_letters<0>(out, slot, pos.pieces(Color(c), kPawn), letters[kPawn]);
    put_letters<2>(out, slot, pos.pieces(Color(c), kKnight), letters[kKnight]);
    put_letters<2>(out, slot, pos.pieces(Color(c), kBishop), letters[kBishop]);
    put_letters<2>(out, slot, pos.pieces(Color(c), kRook), letters[kRook]);
    put_letters<1>(out, slot, pos.pieces(Color(c), kQueen), letters[kQueen]);
    put_letters<1>(out, slot, pos.pieces(Color(c), kKing), letters[kKing]);
  }
  return p;
}

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
