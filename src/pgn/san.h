// Move text -> Move. Reads Standard Algebraic Notation as written in the wild (piece letter,
// disambiguation by file, rank or square, 'x' or ':' captures, promotions with or without '=',
// O-O / O-O-O / 0-0 / 0-0-0 and the king onto its own castling rook (Kxh1, Ka1), trailing + # ! ? !! ?? !? ?!
// and "e.p."), long algebraic (Ng1-f3, e2-e4),
// UCI coordinates (g1f3, e7e8q; castling as e1g1 or king-takes-rook e1h1) and null moves (--, Z0).
// Matching is against the legal moves only, so "Nd2" is fine when the other knight is pinned.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/position.h"
#include "pgn/errors.h"
#include "pgn/move.h"

namespace fenmill {

// The move as written, before it meets a position.
struct SanMove {
  enum class Kind : std::uint8_t { kPiece, kCastle, kNull };
  Kind kind = Kind::kPiece;
  PieceType piece = kPawn;        // kPieceTypeCount: coordinate move, the piece is whatever stands on the from square
  std::int8_t from_file = -1;     // disambiguation, -1 if not given
  std::int8_t from_rank = -1;
  Square to = kNoSquare;
  PieceType promotion = kPieceTypeCount;
  CastlingSide castle = kKingSide;
  bool capture = false;           // 'x' or ':' was written (not checked: real files get it wrong)
};

// Syntax only. kOk or kBadMoveSyntax.
PgnError parse_san(std::string_view token, SanMove& out);

// Finds the one legal move that `san` describes: kOk, kIllegalMove, kAmbiguousMove, kMissingPromotion
// or kNullMoveInCheck.
PgnError resolve_move(const Position& pos, const SanMove& san, Move& out);

// parse_san + resolve_move.
PgnError parse_move(const Position& pos, std::string_view token, Move& out);

// UCI text of a move ("e2e4", "e7e8q"; castling as king-to-g/c-file, or king-takes-rook with
// chess960). Null moves write "0000". Returns the bytes written (at most 5).
std::size_t write_uci(Move move, bool chess960, char* out);

}  // namespace fenmill
