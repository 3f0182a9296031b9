// Every way a PGN game can be rejected: one enum, a stable name and a message per code.
#pragma once
#include <cstdint>
#include <string_view>

namespace fenmill {

#define FENMILL_PGN_ERROR_CODES(X)                                                                          \
  X(kOk, "OK", "no error")                                                                                 \
  X(kBadMoveSyntax, "BAD_MOVE_SYNTAX", "token is not a move in SAN or UCI notation")                       \
  X(kIllegalMove, "ILLEGAL_MOVE", "no legal move matches")                                                 \
  X(kAmbiguousMove, "AMBIGUOUS_MOVE", "more than one legal move matches")                                  \
  X(kMissingPromotion, "MISSING_PROMOTION", "a pawn reaching the last rank must name its promotion piece") \
  X(kNullMoveInCheck, "NULL_MOVE_IN_CHECK", "a null move cannot be played while in check")                 \
  X(kBadToken, "BAD_TOKEN", "unexpected character in movetext")                                            \
  X(kBadTag, "BAD_TAG", "malformed tag pair (expected [Name \"value\"])")                                  \
  X(kUnterminatedComment, "UNTERMINATED_COMMENT", "a '{' comment is not closed before the end of input")  \
  X(kUnbalancedVariation, "UNBALANCED_VARIATION",                                                          \
    "')' without '(', a variation left open, or (--variations) a '(' with no move before it to replace")   \
  X(kUnsupportedVariant, "UNSUPPORTED_VARIANT", "the [Variant] tag names a variant other than chess/Chess960 (FICS wild: without [FEN], or castling from odd squares)") \
  X(kBadFen, "BAD_FEN", "the [FEN] tag is not a valid position")                                           \
  X(kDuplicateTag, "DUPLICATE_TAG", "a second [FEN] or [Variant] tag in one game (readers differ in which one counts)") \
  X(kClockRange, "CLOCK_RANGE", "the game runs a clock past what a FEN holds (halfmove 65535, fullmove 1000000)") \
  X(kGameTooLarge, "GAME_TOO_LARGE", "the game has more than 1,000,000 positions, its text passes 16 MiB, or its positions would take more than 64 MiB of output (a long --with-tags value on each)")

enum class PgnError : std::uint8_t {
#define FENMILL_X(id, name, msg) id,
  FENMILL_PGN_ERROR_CODES(FENMILL_X)
#undef FENMILL_X
      kCount
};

constexpr int kPgnErrorCount = static_cast<int>(PgnError::kCount);

std::string_view pgn_error_name(PgnError code);     // e.g. "ILLEGAL_MOVE"
std::string_view pgn_error_message(PgnError code);  // one-line explanation

}  // namespace fenmill
