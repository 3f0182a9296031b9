// A game's first position, from its [Variant] and [FEN] tags.
#pragma once
#include <string_view>

#include "core/position.h"
#include "fen/errors.h"
#include "pgn/errors.h"

namespace fenmill {

enum class PgnVariant : std::uint8_t { kStandard, kChess960, kWild, kUnsupported };

// [Variant] value -> variant (case-insensitive). Empty, "Standard", "chess", "normal", "classical",
// "From Position" are standard chess; "Chess960", "fischerandom", "Fischer Random", "frc", "960" are Chess960;
// FICS's "wild/0" ... "wild/8a" are chess rules from an odd start position (kWild); anything else (Crazyhouse,
// Antichess, Atomic, ...) is unsupported.
PgnVariant classify_variant(std::string_view value);

const Position& standard_start_position();

struct StartSetup {
  PgnError code = PgnError::kOk;       // kOk, kUnsupportedVariant or kBadFen
  ErrorCode fen_code = ErrorCode::kOk;  // why the FEN was rejected
  bool chess960 = false;                // the variant says so, or the castling rights need it
};

// A kWild game needs a [FEN] tag (its start position) whose castling rights are standard chess's (FICS castles a
// d-file king its own way); else it is kUnsupportedVariant like a variant with other rules.
// Standard start position unless `fen` is non-empty; a FEN is checked with fen/validate.h and keeps
// its en-passant square as written. A fullmove number of 0 (common in problem collections) is read
// as 1. Chess960 reads KQkq as the outermost rooks (X-FEN).
StartSetup setup_start_position(std::string_view variant, std::string_view fen, Position& pos);

}  // namespace fenmill
