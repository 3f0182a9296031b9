#include "pgn/make_move.h"

namespace fenmill {
namespace {

// Drops the castling right whose rook stood on `s` (moved away or captured there).
void drop_castling_right_at(Position& pos, Color c, Square s) {
  if (pos.castling_rook[c][kKingSide] == s) pos.castling_rook[c][kKingSide] = kNoSquare;
  if (pos.castling_rook[c][kQueenSide] == s) pos.castling_rook[c][kQueenSide] = kNoSquare;
}

void finish_ply(Position& pos) {
  if (pos.side_to_move == kBlack) ++pos.fullmove_number;
  pos.side_to_move = ~pos.side_to_move;
}

}  // namespace

void make_move(Position& pos, Move move) {
  Color us = pos.side_to_move, them = ~us;
  Bitboard from = square_bb(move.from), to = square_bb(move.to);
  pos.ep_square = kNoSquare;
  if (pos.halfmove_clock != kMaxHalfmoveClock) ++pos.halfmove_clock;

  if (move.kind == MoveKind::kCastling) {
    bool king_side = move.to > move.from;
    Bitboard king_to = square_bb(castling_king_to(us, king_side)), rook_to = square_bb(castling_rook_to(us, king_side));
    pos.by_color[us] ^= from | to;  // lift both first: in Chess960 they may land on each other's square
    pos.by_type[kKing] ^= from;
    pos.by_type[kRook] ^= to;
    pos.by_color[us] |= king_to | rook_to;
    pos.by_type[kKing] |= king_to;
    pos.by_type[kRook] |= rook_to;
    pos.castling_rook[us][kKingSide] = pos.castling_rook[us][kQueenSide] = kNoSquare;
    finish_ply(pos);
    return;
  }

  PieceType moved = pos.type_on(move.from);
  if (move.kind == MoveKind::kEnPassant) {
    Bitboard captured = square_bb(move.to ^ 8);
    pos.by_color[them] ^= captured;
    pos.by_type[kPawn] ^= captured;
  } else if (pos.by_color[them] & to) {
    pos.by_type[pos.type_on(move.to)] ^= to;
    pos.by_color[them] ^= to;
    pos.halfmove_clock = 0;
    drop_castling_right_at(pos, them, move.to);
  }
  pos.by_color[us] ^= from | to;
  pos.by_type[moved] ^= from | to;

  if (moved == kPawn) {
    pos.halfmove_clock = 0;
    if (move.to - move.from == 16 || move.from - move.to == 16) pos.ep_square = Square((move.from + move.to) / 2);
    if (move.kind == MoveKind::kPromotion) {
      pos.by_type[kPawn] ^= to;
      pos.by_type[move.promotion] |= to;
    }
  } else if (moved == kKing) {
    pos.castling_rook[us][kKingSide] = pos.castling_rook[us][kQueenSide] = kNoSquare;
  } else if (moved == kRook) {
    drop_castling_right_at(pos, us, move.from);
  }
  finish_ply(pos);
}

void make_null_move(Position& pos) {
  pos.ep_square = kNoSquare;
  if (pos.halfmove_clock != kMaxHalfmoveClock) ++pos.halfmove_clock;
  finish_ply(pos);
}

}  // namespace fenmill
