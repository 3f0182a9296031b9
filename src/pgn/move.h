// A chess move as the replay needs it: four bytes, no board context.
// Castling is stored as "king takes own rook" (from = king, to = castling rook), which covers
// Chess960 without special cases; the king's and rook's destinations follow from the side.
#pragma once
#include <cstdint>

#include "core/types.h"

namespace fenmill {

enum class MoveKind : std::uint8_t { kNormal, kPromotion, kEnPassant, kCastling, kNull };

struct Move {
  Square from = kNoSquare;
  Square to = kNoSquare;
  MoveKind kind = MoveKind::kNormal;
  PieceType promotion = kPieceTypeCount;  // kKnight..kQueen for kPromotion

  bool operator==(const Move&) const = default;
};

// Room for every legal move of any reachable position (the known maximum is 218).
struct MoveList {
  Move moves[256];
  int size = 0;
  void add(Move m) { moves[size++] = m; }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
};

// Castling destinations: the king ends on the g/c file, the rook on the f/d file of its back rank.
constexpr Square castling_king_to(Color c, bool king_side) { return make_square(king_side ? 6 : 2, c == kWhite ? 0 : 7); }
constexpr Square castling_rook_to(Color c, bool king_side) { return make_square(king_side ? 5 : 3, c == kWhite ? 0 : 7); }

}  // namespace fenmill
