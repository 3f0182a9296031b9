#include "pgn/movegen.h"

#include <initializer_list>

#include "pgn/make_move.h"

namespace fenmill {
namespace {

Bitboard rooks_and_queens(const Position& pos, Color c) { return pos.by_color[c] & (pos.by_type[kRook] | pos.by_type[kQueen]); }
Bitboard bishops_and_queens(const Position& pos, Color c) {
  return pos.by_color[c] & (pos.by_type[kBishop] | pos.by_type[kQueen]);
}

constexpr Bitboard shift_forward(Color c, Bitboard b) { return c == kWhite ? b << 8 : b >> 8; }

void add_pawn_move(MoveList& list, Square from, Square to, bool promotes) {
  if (!promotes) {
    list.add({from, to, MoveKind::kNormal, kPieceTypeCount});
    return;
  }
  for (PieceType t : {kQueen, kRook, kBishop, kKnight}) list.add({from, to, MoveKind::kPromotion, t});
}

}  // namespace

Bitboard pinned_pieces(const Position& pos, Color c) {
  Square king = pos.king_square(c);
  Bitboard occ = pos.occupied();
  Bitboard snipers = (rook_attacks(king, 0) & rooks_and_queens(pos, ~c)) | (bishop_attacks(king, 0) & bishops_and_queens(pos, ~c));
  Bitboard pinned = 0;
  for (; snipers; snipers &= snipers - 1) {
    Bitboard blockers = between_bb(king, lsb(snipers)) & occ;
    if (blockers && !more_than_one(blockers)) pinned |= blockers;
  }
  return pinned & pos.by_color[c];
}

bool keeps_king_safe(const Position& pos, Move move) {
  Color us = pos.side_to_move;
  Bitboard from = square_bb(move.from), to = square_bb(move.to);
  Bitboard occ = (pos.occupied() ^ from) | to;
  Bitboard captured = to;
  if (move.kind == MoveKind::kEnPassant) {
    captured = square_bb(move.to ^ 8);  // the pawn beside the mover, behind the ep square
    occ ^= captured;
  }
  Square king = (pos.pieces(us, kKing) & from) ? move.to : pos.king_square(us);
  Bitboard them = pos.by_color[~us] & ~captured;
  Bitboard leapers = (knight_attacks(king) & pos.by_type[kKnight]) | (pawn_attacks(us, king) & pos.by_type[kPawn]) |
                     (king_attacks(king) & pos.by_type[kKing]);
  if (leapers & them) return false;
  // Slider rays only when an enemy slider stands on one of the king's lines at all: most of the time
  // none does, and the rays are the expensive part.
  Bitboard rooks = them & (pos.by_type[kRook] | pos.by_type[kQueen]);
  Bitboard bishops = them & (pos.by_type[kBishop] | pos.by_type[kQueen]);
  Bitboard orthogonal = (file_bb(file_of(king)) | rank_bb(rank_of(king))) ^ square_bb(king);
  Bitboard diagonal = kAttacks.ray[1][king] | kAttacks.ray[3][king] | kAttacks.ray[5][king] | kAttacks.ray[7][king];
  if ((rooks & orthogonal) && (rook_attacks(king, occ) & rooks)) return false;
  if ((bishops & diagonal) && (bishop_attacks(king, occ) & bishops)) return false;
  return true;
}

bool castling_legal(const Position& pos, CastlingSide side, Move& move) {
  Color us = pos.side_to_move;
  Square rook = pos.castling_rook[us][side];
  if (rook == kNoSquare || !(pos.pieces(us, kRook) & square_bb(rook))) return false;
  Bitboard king_bb = pos.pieces(us, kKing) & rank_bb(us == kWhite ? 0 : 7);
  if (!king_bb) return false;
  Square king = lsb(king_bb);
  bool king_side = side == kKingSide;
  Square king_to = castling_king_to(us, king_side), rook_to = castling_rook_to(us, king_side);
  // Without the king and the castling rook: both may stand on each other's path (Chess960), and the
  // rook may have been shielding the king's destination from a rook or queen behind it.
  Bitboard occ = pos.occupied() ^ square_bb(king) ^ square_bb(rook);
  Bitboard king_path = between_bb(king, king_to) | square_bb(king_to) | square_bb(king);
  Bitboard rook_path = between_bb(rook, rook_to) | square_bb(rook_to);
  if (occ & (king_path | rook_path)) return false;
  for (Bitboard b = king_path; b; b &= b - 1)
    if (pos.attackers(lsb(b), ~us, occ)) return false;
  move = {king, rook, MoveKind::kCastling, kPieceTypeCount};
  return true;
}

void generate_legal_moves(const Position& pos, MoveList& list) {
  list.size = 0;
  Color us = pos.side_to_move, them = ~us;
  Bitboard ours = pos.by_color[us], occ = pos.occupied();
  Square king = pos.king_square(us);
  Bitboard checkers = pos.attackers(king, them, occ);

  Bitboard occ_without_king = occ ^ square_bb(king);
  for (Bitboard b = king_attacks(king) & ~ours; b; b &= b - 1)
    if (!pos.attackers(lsb(b), them, occ_without_king)) list.add({king, lsb(b), MoveKind::kNormal, kPieceTypeCount});
  if (more_than_one(checkers)) return;  // double check: only the king moves

  Bitboard target = ~ours;
  if (checkers) target &= between_bb(king, lsb(checkers)) | checkers;
  Bitboard pinned = pinned_pieces(pos, us);
  auto add_moves = [&](Square from, Bitboard to_squares) {
    if (pinned & square_bb(from)) to_squares &= line_bb(king, from);
    for (; to_squares; to_squares &= to_squares - 1) list.add({from, lsb(to_squares), MoveKind::kNormal, kPieceTypeCount});
  };
  for (Bitboard b = pos.pieces(us, kKnight) & ~pinned; b; b &= b - 1) add_moves(lsb(b), knight_attacks(lsb(b)) & target);
  for (Bitboard b = bishops_and_queens(pos, us); b; b &= b - 1) add_moves(lsb(b), bishop_attacks(lsb(b), occ) & target);
  for (Bitboard b = rooks_and_queens(pos, us); b; b &= b - 1) add_moves(lsb(b), rook_attacks(lsb(b), occ) & target);

  Bitboard pawns = pos.pieces(us, kPawn);
  Bitboard last_rank = us == kWhite ? kRank8 : kRank1;
  Bitboard third_rank = rank_bb(us == kWhite ? 2 : 5);
  int up = us == kWhite ? 8 : -8;
  auto pawn_allowed = [&](Square from, Square to) {
    return !(pinned & square_bb(from)) || (line_bb(king, from) & square_bb(to));
  };
  Bitboard single = shift_forward(us, pawns) & ~occ;
  Bitboard twice = shift_forward(us, single & third_rank) & ~occ & target;
  for (Bitboard b = single & target; b; b &= b - 1) {
    Square to = lsb(b), from = Square(to - up);
    if (pawn_allowed(from, to)) add_pawn_move(list, from, to, square_bb(to) & last_rank);
  }
  for (Bitboard b = twice; b; b &= b - 1) {
    Square to = lsb(b), from = Square(to - 2 * up);
    if (pawn_allowed(from, to)) list.add({from, to, MoveKind::kNormal, kPieceTypeCount});
  }
  Bitboard enemies = pos.by_color[them] & target;
  for (Bitboard b = pawns; b; b &= b - 1) {
    Square from = lsb(b);
    for (Bitboard c = pawn_attacks(us, from) & enemies; c; c &= c - 1)
      if (pawn_allowed(from, lsb(c))) add_pawn_move(list, from, lsb(c), square_bb(lsb(c)) & last_rank);
  }
  if (pos.ep_square != kNoSquare) {
    for (Bitboard b = pawn_attacks(them, pos.ep_square) & pawns; b; b &= b - 1) {
      Move m{lsb(b), pos.ep_square, MoveKind::kEnPassant, kPieceTypeCount};
      if (keeps_king_safe(pos, m)) list.add(m);
    }
  }
  if (!checkers) {
    Move m;
    if (castling_legal(pos, kKingSide, m)) list.add(m);
    if (castling_legal(pos, kQueenSide, m)) list.add(m);
  }
}

bool is_legal(const Position& pos, Move move) {
  MoveList list;
  generate_legal_moves(pos, list);
  for (const Move& m : list)
    if (m == move) return true;
  return false;
}

std::uint64_t perft(const Position& pos, int depth) {
  if (depth == 0) return 1;
  MoveList list;
  generate_legal_moves(pos, list);
  if (depth == 1) return static_cast<std::uint64_t>(list.size);
  std::uint64_t nodes = 0;
  for (const Move& m : list) {
    Position next = pos;
    make_move(next, m);
    nodes += perft(next, depth - 1);
  }
  return nodes;
}

}  // namespace fenmill
