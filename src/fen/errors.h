// Every way a FEN record can be rejected: one enum, a stable name and a message per code.
// docs/ERRORS.md lists them; tests/fen_errors_test.cpp (chess) and tests/xiangqi_test.cpp (XQ_*) check that every
// code has a failing and a passing case.
#pragma once
#include <cstdint>
#include <string_view>

namespace fenmill {

#define FENMILL_ERROR_CODES(X)                                                                              \
  X(kOk, "OK", "no error")                                                                                 \
  /* syntax: the text is not a FEN */                                                                      \
  X(kEmptyRecord, "EMPTY_RECORD", "the record holds no FEN")                                               \
  X(kRankCount, "RANK_COUNT", "placement must have exactly 8 ranks separated by '/'")                      \
  X(kRankSum, "RANK_SUM", "a rank does not sum to 8 squares")                                              \
  X(kBadPiece, "BAD_PIECE", "invalid character in the piece placement")                                    \
  X(kFieldCount, "FIELD_COUNT", "a FEN has 1, 2, 3, 4 or 6 fields")                                         \
  X(kBadSide, "BAD_SIDE", "side to move must be 'w' or 'b'")                                               \
  X(kBadCastling, "BAD_CASTLING", "castling field must be '-' or up to 4 of KQkq / A-Ha-h, no repeats")    \
  X(kBadEpSyntax, "BAD_EP_SYNTAX", "en-passant field must be '-' or a square a1..h8")                      \
  X(kBadHalfmove, "BAD_HALFMOVE", "halfmove clock must be a non-negative integer")                         \
  X(kBadFullmove, "BAD_FULLMOVE", "fullmove number must be a positive integer")                             \
  X(kClockRange, "CLOCK_RANGE", "clock value out of range (halfmove > 65535 or fullmove > 1000000)")        \
  X(kTrailingText, "TRAILING_TEXT", "unexpected text after the last FEN field")                            \
  /* semantics: a FEN, but not a position that can arise in a game */                                      \
  X(kMissingKing, "MISSING_KING", "each side needs exactly one king")                                       \
  X(kTooManyKings, "TOO_MANY_KINGS", "each side needs exactly one king")                                    \
  X(kTooManyPawns, "TOO_MANY_PAWNS", "a side has more than 8 pawns")                                        \
  X(kTooManyPieces, "TOO_MANY_PIECES", "a side has more than 16 pieces")                                    \
  X(kTooManyPromoted, "TOO_MANY_PROMOTED", "more promoted pieces than missing pawns allow")                 \
  X(kPawnOnBackRank, "PAWN_ON_BACK_RANK", "a pawn stands on rank 1 or 8")                                   \
  X(kOppositeCheck, "OPPOSITE_CHECK", "the side not to move is in check")                                   \
  X(kTooManyCheckers, "TOO_MANY_CHECKERS", "the king is attacked by more than two pieces")                 \
  X(kImpossibleCheck, "IMPOSSIBLE_CHECK", "no legal last move can give this check")                        \
  X(kCastlingNoKing, "CASTLING_NO_KING", "castling right without the king on its back rank")              \
  X(kCastlingNoRook, "CASTLING_NO_ROOK", "castling right without a rook on its square")                    \
  X(kCastlingMismatch, "CASTLING_MISMATCH", "the two sides' castling rights cannot both stand: the kings start on one file and the rooks on mirrored files") \
  X(kEpWrongRank, "EP_WRONG_RANK", "en-passant square must be on rank 6 (White to move) or 3 (Black)")     \
  X(kEpNoPawn, "EP_NO_PAWN", "no enemy pawn stands in front of the en-passant square")                     \
  X(kEpOccupied, "EP_OCCUPIED", "the en-passant square or the pawn's origin square is occupied")          \
  X(kEpClock, "EP_CLOCK", "en-passant square after a pawn move, but the halfmove clock is not 0")                \
  X(kEpIllegalPush, "EP_ILLEGAL_PUSH", "the double push the en-passant square implies was illegal: the side to move was in check before it") \
  /* Xiangqi semantics (src/xiangqi/validate.h); Xiangqi shares the syntax codes and MISSING_KING,         */ \
  /* TOO_MANY_KINGS (generals) and OPPOSITE_CHECK with chess                                              */ \
  X(kXqGeneralOutsidePalace, "XQ_GENERAL_PALACE", "a general stands outside its palace (files d-f, ranks 0-2 Red / 7-9 Black)") \
  X(kXqTooManySoldiers, "XQ_TOO_MANY_SOLDIERS", "a side has more than 5 soldiers")                         \
  X(kXqTooManyPieces, "XQ_TOO_MANY_PIECES", "a side has more than 2 advisors, elephants, horses, chariots or cannons") \
  X(kXqAdvisorPoint, "XQ_ADVISOR_POINT", "an advisor stands off its 5 palace points")                       \
  X(kXqElephantPoint, "XQ_ELEPHANT_POINT", "an elephant stands off its 7 points on its own side of the river") \
  X(kXqSoldierBehind, "XQ_SOLDIER_BEHIND", "a soldier stands behind its starting rank")                    \
  X(kXqSoldierFile, "XQ_SOLDIER_FILE", "a soldier that has not crossed the river stands off the files a, c, e, g, i") \
  X(kXqSoldierStacked, "XQ_SOLDIER_STACKED", "two soldiers of one side on one file before the river")       \
  X(kXqGeneralsFacing, "XQ_GENERALS_FACING", "the generals face each other on an open file")               \
  /* record formats around the FEN (src/formats/): the FEN could not be found in the record           */ \
  X(kCsvField, "CSV_FIELD", "the CSV row has no FEN column, or a quote is unbalanced")                      \
  X(kJsonField, "JSON_FIELD", "the line is not a JSON object whose FEN field is a string")                 \
  X(kBadRecord, "BAD_RECORD", "the binary record does not decode to a position (docs/FORMAT.md)") \
  X(kLineTooLong, "LINE_TOO_LONG", "the line is longer than 16 MiB, the longest record fenmill reads")

enum class ErrorCode : std::uint8_t {
#define FENMILL_X(id, name, msg) id,
  FENMILL_ERROR_CODES(FENMILL_X)
#undef FENMILL_X
      kCount
};

constexpr int kErrorCodeCount = static_cast<int>(ErrorCode::kCount);

std::string_view error_name(ErrorCode code);     // e.g. "RANK_SUM"
std::string_view error_message(ErrorCode code);  // one-line explanation
bool is_syntax_error(ErrorCode code);            // syntax errors carry a column; semantic ones do not
bool is_record_format_error(ErrorCode code);     // the record around the FEN (CSV, JSON Lines) is broken
// Looks a name up; returns false if unknown.
bool error_from_name(std::string_view name, ErrorCode& out);

}  // namespace fenmill
