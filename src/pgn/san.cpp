#include "pgn/san.h"

#include <initializer_list>

#include "pgn/movegen.h"

namespace fenmill {
namespace {

PieceType piece_from_letter(char c) {
  switch (c) {
    case 'N': return kKnight;
    case 'B': return kBishop;
    case 'R': return kRook;
    case 'Q': return kQueen;
    case 'K': return kKing;
    default: return kPieceTypeCount;
  }
}

PieceType promotion_from_letter(char c) {
  PieceType t = piece_from_letter(static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c));
  return t == kKing ? kPieceTypeCount : t;
}

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }
bool is_annotation(char c) { return c == '+' || c == '#' || c == '!' || c == '?'; }

// Check/mate marks, move assessments and "e.p." can come in any order after the move.
std::string_view strip_suffixes(std::string_view t) {
  for (;;) {
    while (!t.empty() && is_annotation(t.back())) t.remove_suffix(1);
    if (t.size() > 4 && t.substr(t.size() - 4) == "e.p.") {
      t.remove_suffix(4);
      continue;
    }
    return t;
  }
}

Bitboard attacks_to(PieceType piece, Square to, Bitboard occ) {
  switch (piece) {
    case kKnight: return knight_attacks(to);
    case kBishop: return bishop_attacks(to, occ);
    case kRook: return rook_attacks(to, occ);
    case kQueen: return queen_attacks(to, occ);
    case kKing: return king_attacks(to);
    default: return 0;
  }
}

Bitboard disambiguation_mask(const SanMove& san) {
  Bitboard mask = ~Bitboard(0);
  if (san.from_file >= 0) mask &= file_bb(san.from_file);
  if (san.from_rank >= 0) mask &= rank_bb(san.from_rank);
  return mask;
}

PgnError resolve_pawn(const Position& pos, const SanMove& san, Move& out) {
  Color us = pos.side_to_move;
  int forward = us == kWhite ? 1 : -1;
  int to_file = file_of(san.to), to_rank = rank_of(san.to);
  int from_rank = to_rank - forward;
  if (from_rank < 1 || from_rank > 6) return PgnError::kIllegalMove;  // pawns never stand on rank 1 or 8
  Bitboard our_pawns = pos.pieces(us, kPawn), occ = pos.occupied();
  Move move{kNoSquare, san.to, MoveKind::kNormal, kPieceTypeCount};
  if (san.from_file >= 0 && san.from_file != to_file) {  // a capture, with or without the 'x'
    if (san.from_file - to_file != 1 && to_file - san.from_file != 1) return PgnError::kIllegalMove;
    move.from = make_square(san.from_file, from_rank);
    if (!(our_pawns & square_bb(move.from))) return PgnError::kIllegalMove;
    if (san.to == pos.ep_square && !(occ & square_bb(san.to)))
      move.kind = MoveKind::kEnPassant;
    else if (!(pos.by_color[~us] & square_bb(san.to)))
      return PgnError::kIllegalMove;
  } else {
    if (occ & square_bb(san.to)) return PgnError::kIllegalMove;
    move.from = make_square(to_file, from_rank);
    if (!(our_pawns & square_bb(move.from))) {
      // A double push: the square in between is empty and the pawn stands on its start rank.
      if (relative_rank(us, to_rank) != 3 || (occ & square_bb(move.from))) return PgnError::kIllegalMove;
      move.from = make_square(to_file, from_rank - forward);
      if (!(our_pawns & square_bb(move.from))) return PgnError::kIllegalMove;
    }
  }
  if (san.from_rank >= 0 && san.from_rank != rank_of(move.from)) return PgnError::kIllegalMove;
  if (relative_rank(us, to_rank) == 7) {
    if (san.promotion == kPieceTypeCount) return PgnError::kMissingPromotion;
    move.kind = MoveKind::kPromotion;
    move.promotion = san.promotion;
  } else if (san.promotion != kPieceTypeCount) {
    return PgnError::kIllegalMove;
  }
  if (!keeps_king_safe(pos, move)) return PgnError::kIllegalMove;
  out = move;
  return PgnError::kOk;
}

PgnError resolve_castle(const Position& pos, CastlingSide side, Move& out);

PgnError resolve_piece(const Position& pos, const SanMove& san, Move& out) {
  Color us = pos.side_to_move;
  // "Kxa1" / "Ka1": the king onto one of its own castling rooks beside it, castling as Chess960 programs store
  // it and chessops reads it (which, like this, takes it only from a king next to the rook: from afar no program
  // writes it, and no other move can take one's own piece). UCI's e1h1 is read elsewhere, adjacent or not.
  const Bitboard king = pos.pieces(us, kKing);
  if (san.piece == kKing && san.promotion == kPieceTypeCount && (pos.by_color[us] & square_bb(san.to)) &&
      (king & disambiguation_mask(san)) && (king_attacks(lsb(king)) & square_bb(san.to)))
    for (CastlingSide side : {kKingSide, kQueenSide})
      if (pos.castling_rook[us][side] == san.to) return resolve_castle(pos, side, out);
  if (san.promotion != kPieceTypeCount || (pos.by_color[us] & square_bb(san.to))) return PgnError::kIllegalMove;
  Bitboard candidates = pos.pieces(us, san.piece) & attacks_to(san.piece, san.to, pos.occupied()) & disambiguation_mask(san);
  bool found = false;
  for (; candidates; candidates &= candidates - 1) {
    Move m{lsb(candidates), san.to, MoveKind::kNormal, kPieceTypeCount};
    if (!keeps_king_safe(pos, m)) continue;
    if (found) return PgnError::kAmbiguousMove;
    out = m;
    found = true;
  }
  return found ? PgnError::kOk : PgnError::kIllegalMove;
}

PgnError resolve_castle(const Position& pos, CastlingSide side, Move& out) {
  return castling_legal(pos, side, out) ? PgnError::kOk : PgnError::kIllegalMove;
}

// "e1g1" / "e1h1" (king takes own rook, the Chess960 UCI form) / "g1f3" / "e7e8q".
PgnError resolve_coordinate(const Position& pos, const SanMove& san, Move& out) {
  Color us = pos.side_to_move;
  Square from = make_square(san.from_file, san.from_rank);
  if (!(pos.by_color[us] & square_bb(from))) return PgnError::kIllegalMove;
  PieceType piece = pos.type_on(from);
  SanMove typed = san;
  typed.piece = piece;
  if (piece == kPawn) return resolve_pawn(pos, typed, out);
  if (piece == kKing) {
    int file_step = file_of(san.to) - file_of(from);
    for (CastlingSide side : {kKingSide, kQueenSide}) {
      Square rook = pos.castling_rook[us][side];
      if (rook == kNoSquare) continue;
      bool onto_rook = san.to == rook;
      bool two_files = (file_step >= 2 || file_step <= -2) && san.to == castling_king_to(us, side == kKingSide);
      if (onto_rook || two_files) return resolve_castle(pos, side, out);
    }
  }
  return resolve_piece(pos, typed, out);
}

}  // namespace

PgnError parse_san(std::string_view token, SanMove& out) {
  out = SanMove{};
  std::string_view t = strip_suffixes(token);
  if (t == "--" || t == "Z0" || t == "0000" || t == "@@@@") {
    out.kind = SanMove::Kind::kNull;
    return PgnError::kOk;
  }
  if (t == "O-O" || t == "0-0" || t == "o-o" || t == "O-O-O" || t == "0-0-0" || t == "o-o-o") {
    out.kind = SanMove::Kind::kCastle;
    out.castle = t.size() == 3 ? kKingSide : kQueenSide;
    return PgnError::kOk;
  }
  std::size_t i = 0, n = t.size();
  bool piece_given = false;
  if (n > 0 && piece_from_letter(t[0]) != kPieceTypeCount) {
    out.piece = piece_from_letter(t[0]);
    piece_given = true;
    i = 1;
  } else if (n > 0 && t[0] == 'P') {  // an explicit pawn letter, as some old files write it
    piece_given = true;
    i = 1;
  }
  // Promotion: "=Q", or a bare letter right after the rank ("e8Q", UCI "e7e8q").
  if (n >= i + 3 && promotion_from_letter(t[n - 1]) != kPieceTypeCount && (t[n - 2] == '=' || is_rank(t[n - 2]))) {
    out.promotion = promotion_from_letter(t[n - 1]);
    n -= t[n - 2] == '=' ? 2 : 1;
  }
  if (n < i + 2 || !is_file(t[n - 2]) || !is_rank(t[n - 1])) return PgnError::kBadMoveSyntax;
  out.to = make_square(t[n - 2] - 'a', t[n - 1] - '1');
  n -= 2;
  if (i < n && is_file(t[i])) out.from_file = static_cast<std::int8_t>(t[i++] - 'a');
  if (i < n && is_rank(t[i])) out.from_rank = static_cast<std::int8_t>(t[i++] - '1');
  if (i < n && (t[i] == 'x' || t[i] == ':')) {
    out.capture = true;
    ++i;
  } else if (i < n && t[i] == '-') {
    ++i;
  }
  if (i != n) return PgnError::kBadMoveSyntax;
  if (!piece_given && out.from_rank >= 0) {
    if (out.from_file < 0) return PgnError::kBadMoveSyntax;  // "2e4" names no square
    out.piece = kPieceTypeCount;                              // coordinates: any piece
  }
  return PgnError::kOk;
}

PgnError resolve_move(const Position& pos, const SanMove& san, Move& out) {
  switch (san.kind) {
    case SanMove::Kind::kNull:
      if (pos.checkers()) return PgnError::kNullMoveInCheck;
      out = Move{kNoSquare, kNoSquare, MoveKind::kNull, kPieceTypeCount};
      return PgnError::kOk;
    case SanMove::Kind::kCastle:
      return resolve_castle(pos, san.castle, out);
    case SanMove::Kind::kPiece:
      break;
  }
  if (san.piece == kPieceTypeCount) return resolve_coordinate(pos, san, out);
  if (san.piece == kPawn) return resolve_pawn(pos, san, out);
  return resolve_piece(pos, san, out);
}

PgnError parse_move(const Position& pos, std::string_view token, Move& out) {
  SanMove san;
  if (PgnError e = parse_san(token, san); e != PgnError::kOk) return e;
  return resolve_move(pos, san, out);
}

std::size_t write_uci(Move move, bool chess960, char* out) {
  if (move.kind == MoveKind::kNull) {
    out[0] = out[1] = out[2] = out[3] = '0';
    return 4;
  }
  Square to = move.to;
  if (move.kind == MoveKind::kCastling && !chess960)
    to = make_square(move.to > move.from ? 6 : 2, rank_of(move.from));
  out[0] = static_cast<char>('a' + file_of(move.from));
  out[1] = static_cast<char>('1' + rank_of(move.from));
  out[2] = static_cast<char>('a' + file_of(to));
  out[3] = static_cast<char>('1' + rank_of(to));
  if (move.kind != MoveKind::kPromotion) return 4;
  out[4] = "pnbrqk"[move.promotion];
  return 5;
}

}  // namespace fenmill
