// Plays a move on a Position, keeping all FEN state right: castling rights (king moved, castling rook
// moved or captured), the en-passant square (set after EVERY double push, as the original FEN standard
// says; callers apply their ep policy later), the halfmove clock and the fullmove number.
#pragma once
#include "core/position.h"
#include "pgn/move.h"

namespace fenmill {

// `move` must be legal in `pos` (see movegen.h); nothing is checked here.
void make_move(Position& pos, Move move);

// A null move ("--", "Z0"): the other side moves, the ep square is cleared, clocks advance.
void make_null_move(Position& pos);

}  // namespace fenmill
