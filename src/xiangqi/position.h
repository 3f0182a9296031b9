// The Xiangqi position record: bitboards per colour and piece type, side to move and the two clocks.
// Xiangqi FEN has no castling or en-passant state.
#pragma once
#include <cstdint>

#include "xiangqi/attacks.h"
#include "xiangqi/types.h"

namespace fenmill::xiangqi {

struct Position {
  Bitboard by_color[2];
  Bitboard by_type[kPieceTypeCount];
  Color side_to_move;
  std::uint16_t halfmove_clock;
  std::uint32_t fullmove_number;

  void clear() {
    by_color[0] = by_color[1] = 0;
    for (auto& b : by_type) b = 0;
    side_to_move = kRed;
    halfmove_clock = 0;
    fullmove_number = 1;
  }
  Bitboard occupied() const { return by_color[kRed] | by_color[kBlack]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color[c] & by_type[t]; }
  Bitboard pieces(PieceType t) const { return by_type[t]; }
  void put(Color c, PieceType t, Square s) {
    by_color[c] |= square_bb(s);
    by_type[t] |= square_bb(s);
  }
  // Piece type on s, or kPieceTypeCount if empty.
  PieceType type_on(Square s) const {
    for (int t = 0; t < kPieceTypeCount; ++t)
      if (by_type[t] & square_bb(s)) return PieceType(t);
    return kPieceTypeCount;
  }
  Color color_on(Square s) const { return (by_color[kBlack] & square_bb(s)) ? kBlack : kRed; }
  // The general's point, or kNoSquare (with more than one, the lowest).
  Square general_square(Color c) const {
    Bitboard g = pieces(c, kGeneral);
    return g ? lsb(g) : kNoSquare;
  }

  // Points of `by` pieces attacking s, given an occupancy (generals facing each other is not an attack).
  Bitboard attackers(Square s, Color by, Bitboard occupied) const;
  Bitboard attackers(Square s, Color by) const { return attackers(s, by, occupied()); }

  bool operator==(const Position& o) const {
    for (int t = 0; t < kPieceTypeCount; ++t)
      if (by_type[t] != o.by_type[t]) return false;
    return by_color[0] == o.by_color[0] && by_color[1] == o.by_color[1] && side_to_move == o.side_to_move &&
           halfmove_clock == o.halfmove_clock && fullmove_number == o.fullmove_number;
  }
};

inline Bitboard Position::attackers(Square s, Color by, Bitboard occupied) const {
  const auto& tables = detail::kAttackTables;
  Bitboard them = by_color[by];
  Bitboard found = soldier_attackers(by, s) & by_type[kSoldier] & them;
  // Most points have no chariot, cannon or horse in reach: skip the scans then.
  Bitboard chariots = by_type[kChariot] & them, cannons = by_type[kCannon] & them;
  if ((chariots | cannons) & tables.lines[s]) found |= line_attackers(s, chariots, cannons, occupied);
  if (Bitboard horses = by_type[kHorse] & them & tables.horse_zone[s]) found |= horse_attackers(s, horses, occupied);
  // Palace and own-side pieces attack only points of their own palace / side; the steps themselves are symmetric.
  if (kPalace[by] & square_bb(s))
    found |= ((tables.orthogonal[s] & by_type[kGeneral]) | (tables.diagonal[s] & by_type[kAdvisor])) & them;
  if (kOwnSide[by] & square_bb(s)) found |= elephant_jumps(s, occupied) & by_type[kElephant] & them;
  return found;
}

}  // namespace fenmill::xiangqi
