// Legal move generation and legality tests on fenmill::Position, Chess960 castling included.
// The position must be a valid one (one king each, side not to move not in check), which every
// FEN that passed fen/validate.h and every position reached by make_move from it is.
#pragma once
#include <cstdint>

#include "core/position.h"
#include "pgn/move.h"

namespace fenmill {

// Every legal move of the side to move.
void generate_legal_moves(const Position& pos, MoveList& list);

// Pieces of colour c pinned to their own king.
Bitboard pinned_pieces(const Position& pos, Color c);

// For a pseudo-legal non-castling move (the piece on `from` can go to `to` by its own rules):
// true if the mover's king is not attacked afterwards. En passant included (the captured pawn
// leaves the board, so a horizontal pin along the 5th/4th rank is seen).
bool keeps_king_safe(const Position& pos, Move move);

// True if the side to move may castle on `side` now: the right exists, every square the king and
// rook cross or land on is empty (except the king and rook themselves), the king is not in check and
// crosses no attacked square. Returns the move in `move`.
bool castling_legal(const Position& pos, CastlingSide side, Move& move);

// True if `move` is one of the legal moves (any origin: generated, parsed or made up).
bool is_legal(const Position& pos, Move move);

// Leaf count of the legal move tree to `depth` plies (perft); depth 0 counts 1.
std::uint64_t perft(const Position& pos, int depth);

}  // namespace fenmill
