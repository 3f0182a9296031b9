// The chess position record: bitboards plus the four FEN state fields.
// Castling rights are stored as the castling rooks' squares, so Chess960 needs nothing special.
#pragma once
#include <cstdint>

#include "core/attacks.h"
#include "core/clock_limits.h"
#include "core/types.h"

namespace fenmill {

// Index into Position::castling_rook.
enum CastlingSide : std::uint8_t { kKingSide = 0, kQueenSide = 1 };


struct Position {
  Bitboard by_color[2];
  Bitboard by_type[kPieceTypeCount];
  Square castling_rook[2][2];  // [color][CastlingSide], kNoSquare when the right is absent
  Square ep_square;            // en-passant target square (behind the pushed pawn) or kNoSquare
  Color side_to_move;
  std::uint16_t halfmove_clock;
  std::uint32_t fullmove_number;

  void clear();
  Bitboard occupied() const { return by_color[kWhite] | by_color[kBlack]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color[c] & by_type[t]; }
  Bitboard pieces(PieceType t) const { return by_type[t]; }
  void put(Color c, PieceType t, Square s) {
    by_color[c] |= square_bb(s);
    by_type[t] |= square_bb(s);
  }
  void remove(Square s) {
    Bitboard m = ~square_bb(s);
    by_color[0] &= m;
    by_color[1] &= m;
    for (auto& b : by_type) b &= m;
  }
  // Piece type on s, or kPieceTypeCount if empty.
  PieceType type_on(Square s) const;
  Color color_on(Square s) const { return (by_color[kBlack] >> s) & 1 ? kBlack : kWhite; }
  bool has_castling() const;

  // Squares of `by` pieces attacking s, given an occupancy.
  Bitboard attackers(Square s, Color by, Bitboard occ) const;
  Bitboard attackers(Square s, Color by) const { return attackers(s, by, occupied()); }
  Bitboard checkers() const;  // pieces giving check to the side to move's king (one king assumed)
  Square king_square(Color c) const { return lsb(pieces(c, kKing)); }

  bool operator==(const Position&) const = default;
};

inline PieceType Position::type_on(Square s) const {
  Bitboard b = square_bb(s);
  for (int t = 0; t < kPieceTypeCount; ++t)
    if (by_type[t] & b) return PieceType(t);
  return kPieceTypeCount;
}

inline Bitboard Position::attackers(Square s, Color by, Bitboard occ) const {
  Bitboard them = by_color[by];
  Bitboard rq = by_type[kRook] | by_type[kQueen];
  Bitboard bq = by_type[kBishop] | by_type[kQueen];
  return them & ((pawn_attacks(~by, s) & by_type[kPawn]) | (knight_attacks(s) & by_type[kKnight]) |
                 (king_attacks(s) & by_type[kKing]) | (rook_attacks(s, occ) & rq) |
                 (bishop_attacks(s, occ) & bq));
}

inline Bitboard Position::checkers() const {
  Bitboard k = pieces(side_to_move, kKing);
  return k ? attackers(lsb(k), ~side_to_move) : 0;
}

}  // namespace fenmill
