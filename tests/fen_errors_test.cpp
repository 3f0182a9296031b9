// Every ErrorCode: at least one FEN rejected with exactly that code (and the right column for syntax errors),
// and a close variant that passes. Adding a code without a case here (or a line in docs/ERRORS.md) fails the suite.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fen/epd_operations.h"
#include "fen/errors.h"
#include "fen/normalize.h"
#include "fen/parse.h"
#include "fen/validate.h"
#include "fen/write.h"
#include "pipeline/report.h"

namespace fenmill {
namespace {

using namespace std::string_literals;

Square sq(std::string_view name) { return make_square(name[0] - 'a', name[1] - '1'); }

Bitboard squares(std::initializer_list<std::string_view> names) {
  Bitboard b = 0;
  for (std::string_view n : names) b |= square_bb(sq(n));
  return b;
}

NormalizeOptions opts(EpPolicy ep = EpPolicy::kLegal, bool repair = false, bool chess960 = false) {
  NormalizeOptions o;
  o.ep = ep;
  o.repair = repair;
  o.chess960 = chess960;
  return o;
}

// The normalized FEN, or "ERROR <NAME>" so that a failure shows both in one string.
std::string normalized(std::string_view fen, const NormalizeOptions& o = {}) {
  Position pos;
  NormalizeResult r = normalize_fen(fen, pos, o);
  if (!r.ok()) return "ERROR " + std::string(error_name(r.code));
  return to_fen(pos);
}

struct Case {
  ErrorCode code;
  const char* bad;
  const char* good;        // a close variant that passes
  std::uint32_t column;    // expected 1-based column for syntax errors, 0 for semantic errors
  bool chess960 = false;
};

// Kings only, 19 characters: fields start at columns 21 (side), 23 (castling), 25 (ep), 27 (halfmove), 29 (fullmove).
// A syntax error's column is the first byte the parser cannot accept; for an en-passant square or a clock
// that is not a well-formed square or number, the first byte of that field.
#define KINGS "4k3/8/8/8/8/8/8/4K3"

const std::vector<Case>& cases() {
  static const std::vector<Case> kCases = {
      // ---- syntax ----
      {ErrorCode::kEmptyRecord, "", KINGS, 1},
      {ErrorCode::kEmptyRecord, " \t  ", KINGS " w", 1},
      {ErrorCode::kEmptyRecord, "\r", KINGS "\r", 1},
      {ErrorCode::kRankCount, "4k3/8/8/8/8/8/4K3 w - - 0 1", KINGS " w - - 0 1", 18},         // 7 ranks
      {ErrorCode::kRankCount, "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", KINGS " w - - 0 1", 18},     // 9 ranks
      {ErrorCode::kRankCount, "4k3/8/8/8/8/8/8/4K3/ w - - 0 1", KINGS " w - - 0 1", 20},      // trailing '/'
      {ErrorCode::kRankSum, "4k3/pp1pppp/8/8/8/8/8/4K3 w - - 0 1", "4k3/pp1ppppp/8/8/8/8/8/4K3 w - - 0 1", 12},
      {ErrorCode::kRankSum, "4k3/ppppppppp/8/8/8/8/8/4K3 w - - 0 1", "4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", 13},
      {ErrorCode::kRankSum, "4k3/8/8/8/8/8/8/4K4 w - - 0 1", KINGS " w - - 0 1", 19},         // digit overflows
      {ErrorCode::kRankSum, "4k3/8/8/8/8/8/8/4K2 w - - 0 1", KINGS " w - - 0 1", 20},         // last rank short
      {ErrorCode::kRankSum, "4k3/8/8//8/8/8/4K3 w - - 0 1", KINGS " w - - 0 1", 9},          // empty rank
      {ErrorCode::kBadPiece, "4k3/8/8/8/8/8/8/4Kx2 w - - 0 1", "4k3/8/8/8/8/8/8/4Kn2 w - - 0 1", 19},
      {ErrorCode::kBadPiece, "4k3/8/8/8/08/8/8/4K3 w - - 0 1", KINGS " w - - 0 1", 11},
      {ErrorCode::kBadPiece, "4k3/8/8/8/9/8/8/4K3 w - - 0 1", KINGS " w - - 0 1", 11},
      {ErrorCode::kBadPiece, "4k3/8/8/8/44/8/8/4K3 w - - 0 1", KINGS " w - - 0 1", 12},       // adjacent digits
      {ErrorCode::kBadPiece, "4k3/8/8/8/3P4/8/8/4K3|w - - 0 1", "4k3/8/8/8/3P4/8/8/4K3\tw - - 0 1", 22},
      {ErrorCode::kFieldCount, KINGS " w - - 0", KINGS " w - - 0 1", 28},                      // 5 fields
      {ErrorCode::kBadSide, KINGS " x - - 0 1", KINGS " b - - 0 1", 21},
      {ErrorCode::kBadSide, KINGS " wb - - 0 1", KINGS " w - - 0 1", 22},
      {ErrorCode::kBadSide, KINGS " W - - 0 1", KINGS " w - - 0 1", 21},
      {ErrorCode::kBadCastling, "4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", 26},
      {ErrorCode::kBadCastling, "r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 31},
      {ErrorCode::kBadCastling, KINGS " w X - 0 1", KINGS " w - - 0 1", 23},
      {ErrorCode::kBadCastling, "4k3/8/8/8/8/8/8/4K2R w -K - 0 1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", 25},
      {ErrorCode::kBadCastling, "4k3/8/8/8/8/8/8/4K2R w KH - 0 1", "4k3/8/8/8/8/8/8/4K2R w H - 0 1", 25},  // same right twice
      {ErrorCode::kBadEpSyntax, KINGS " w - e9 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 25},
      {ErrorCode::kBadEpSyntax, KINGS " w - i3 0 1", KINGS " w - - 0 1", 25},
      {ErrorCode::kBadEpSyntax, KINGS " w - e33 0 1", KINGS " w - - 0 1", 27},
      {ErrorCode::kBadEpSyntax, KINGS " w - E6 0 1", KINGS " w - - 0 1", 25},
      {ErrorCode::kBadEpSyntax, KINGS " w - -- 0 1", KINGS " w - - 0 1", 26},
      {ErrorCode::kBadHalfmove, KINGS " w - - -1 1", KINGS " w - - 1 1", 27},
      {ErrorCode::kBadHalfmove, KINGS " w - - x 1", KINGS " w - - 0 1", 27},
      {ErrorCode::kBadHalfmove, KINGS " w - - 1.5 1", KINGS " w - - 15 1", 28},  // the first byte that makes it so
      {ErrorCode::kBadHalfmove, KINGS " w - - 12x 1", KINGS " w - - 12 1", 29},
      {ErrorCode::kBadHalfmove, KINGS " w - - +1 1", KINGS " w - - 01 1", 27},
      {ErrorCode::kBadFullmove, KINGS " w - - 0 0", KINGS " w - - 0 1", 29},
      {ErrorCode::kBadFullmove, KINGS " w - - 0 x", KINGS " w - - 0 1", 29},
      {ErrorCode::kBadFullmove, KINGS " w - - 0 -1", KINGS " w - - 0 1", 29},
      {ErrorCode::kBadFullmove, KINGS " w - - 0 3.0", KINGS " w - - 0 3", 30},
      {ErrorCode::kClockRange, KINGS " w - - 70000 1", KINGS " w - - 65535 1", 27},
      {ErrorCode::kClockRange, KINGS " w - - 0 1000001", KINGS " w - - 0 1000000", 29},
      {ErrorCode::kClockRange, KINGS " w - - 0 99999999999999999999", KINGS " w - - 0 999999", 29},
      {ErrorCode::kTrailingText, KINGS " w - - 0 1 extra", KINGS " w - - 0 1  ", 31},
      {ErrorCode::kTrailingText, KINGS " w - - 0 1 2", KINGS " w - - 0 1", 31},                // 7 fields
      {ErrorCode::kTrailingText, KINGS " w - - 0 1 ; bm e4", KINGS " w - - 0 1", 31},          // EPD needs allow_operations
      // ---- semantics ----
      {ErrorCode::kMissingKing, "8/8/8/8/8/8/8/4K3 w - - 0 1", KINGS " w - - 0 1", 0},
      {ErrorCode::kMissingKing, "4k3/8/8/8/8/8/8/8 b - - 0 1", KINGS " b - - 0 1", 0},
      {ErrorCode::kTooManyKings, "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 0},
      {ErrorCode::kTooManyKings, "k3k3/8/8/8/8/8/8/4K3 w - - 0 1", "q3k3/8/8/8/8/8/8/4K3 w - - 0 1", 0},
      {ErrorCode::kTooManyPawns, "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "4k3/8/8/8/8/P7/1PPPPPPP/4K3 w - - 0 1", 0},
      {ErrorCode::kTooManyPieces, "4k3/8/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQ - 0 1",
       "4k3/8/8/8/8/N7/PPPPPPP1/RNBQKBNR w KQ - 0 1", 0},  // 17 pieces vs 16 with one pawn promoted
      {ErrorCode::kTooManyPromoted, "4k3/8/8/8/8/8/PPPPPPPP/QQQ1K3 w - - 0 1", "4k3/8/8/8/8/8/PPPPPP2/QQQ1K3 w - - 0 1", 0},
      {ErrorCode::kTooManyPromoted, "4k3/8/8/8/8/8/PPPPPPPP/1B1BK3 w - - 0 1",   // b1, d1: both light squares
       "4k3/8/8/8/8/8/PPPPPPPP/2B1KB2 w - - 0 1", 0},                             // c1 dark, f1 light
      {ErrorCode::kTooManyPromoted, "4k3/8/8/8/8/8/PPPPPPPP/1B1BK3 w - - 0 1", "4k3/8/8/8/8/8/PPPPPPP1/1B1BK3 w - - 0 1", 0},
      {ErrorCode::kTooManyPromoted, "rnnqknnr/pppppppp/8/8/8/8/8/4K3 b - - 0 1", "rnnqknnr/pppppp2/8/8/8/8/8/4K3 b - - 0 1", 0},
      {ErrorCode::kPawnOnBackRank, "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1", 0},
      {ErrorCode::kPawnOnBackRank, "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", 0},
      {ErrorCode::kPawnOnBackRank, "4k2p/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/7p/8/8/8/8/8/4K3 w - - 0 1", 0},
      {ErrorCode::kOppositeCheck, "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", 0},
      {ErrorCode::kOppositeCheck, "4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", 0},
      {ErrorCode::kTooManyCheckers, "4k3/8/3N4/1B6/8/8/8/4R1K1 b - - 0 1", "4k3/8/8/1B6/8/8/8/4R1K1 b - - 0 1", 0},
      // Two rooks checking along one file from both sides: no single move gives that.
      // (Good: a rook promoted by exd8=R+ on the e-file, uncovering the a7 rook's rank.)
      {ErrorCode::kImpossibleCheck, "4R3/8/8/8/4k3/8/8/4R1K1 b - - 0 1", "4R3/R3k3/8/8/8/8/8/6K1 b - - 0 1", 0},
      // The moved checker must have left the other's line: a knight on c3 cannot have come from e5-e7 (good: from e6
      // to c5); the c7 queen and the d6 knight cannot have come off each other's line (good: no knight on d6).
      {ErrorCode::kImpossibleCheck, "4R3/8/8/8/4k3/2N5/8/K7 b - - 0 1", "4R3/8/8/2N5/4k3/8/8/K7 b - - 0 1", 0},
      {ErrorCode::kImpossibleCheck, "rn5r/ppQ2kp1/2pN1np1/3p1p2/3P4/2NNP2P/PP3PP1/R3K2R b KQ - 4 14",
       "rn5r/ppQ2kp1/2p2np1/3p1p2/3P4/2NNP2P/PP3PP1/R3K2R b KQ - 4 14", 0},
      // A knight promoted on d8 (from d7) uncovers the c7 rook (good); a knight on d6 came from no square of d7-e7.
      {ErrorCode::kImpossibleCheck, "8/2R2k2/3N4/8/8/8/8/K7 b - - 0 1", "3N4/2R2k2/8/8/8/8/8/K7 b - - 0 1", 0},
      // exd6 en passant uncovers the e8 rook through e5 and the a8 bishop through d5 (good); with no pawn on d6,
      // nothing explains the two checks.
      {ErrorCode::kImpossibleCheck, "B3R3/8/8/8/4k3/8/8/K7 b - - 0 1", "B3R3/8/3P4/8/4k3/8/8/K7 b - - 0 1", 0},
      // A checker next to the king moved there, from an empty square: the knight on f7 has every origin taken
      // (good: g5 free); the pawn on g3 has f2, g2 and h2 taken.
      {ErrorCode::kImpossibleCheck, "3B3k/5N2/3P3P/4P1P1/8/8/8/K7 b - - 0 1", "3B3k/5N2/3P3P/4P3/8/8/8/K7 b - - 0 1", 0},
      {ErrorCode::kImpossibleCheck, "4Q3/5R2/6p1/7p/1N5k/6P1/4BPPP/6K1 b - - 0 38",
       "4Q3/5R2/6p1/7p/1N5k/6P1/4BP1P/6K1 b - - 0 38", 0},
      // Knight + pawn: a double check needs a discovered slider.
      {ErrorCode::kImpossibleCheck, "8/8/8/4k3/3P4/5N2/8/4K3 b - - 0 1", "8/8/8/4k3/8/2B2N2/8/4K3 b - - 0 1", 0},
      // A pawn on its own second rank has never moved, so it cannot have just given check.
      {ErrorCode::kImpossibleCheck, "8/8/8/8/8/5k2/4P3/4K3 b - - 0 1", "8/8/8/8/5k2/4P3/8/4K3 b - - 0 1", 0},
      {ErrorCode::kImpossibleCheck, "4k3/3p4/4K3/8/8/8/8/8 w - - 0 1", "4k3/8/3p4/4K3/8/8/8/8 w - - 0 1", 0},
      // Two bishops, two rooks on the king's rank and file, a pawn with a rook on the king's rank: one move
      // cannot give both checks. Good variants: one checker; a pawn with a rook on the file (d3xe4 uncovered it).
      {ErrorCode::kImpossibleCheck, "4k3/8/2B3B1/8/8/8/8/4K3 b - - 0 1", "4k3/8/2B5/8/8/8/8/4K3 b - - 0 1", 0},
      {ErrorCode::kImpossibleCheck, "7k/8/8/8/1b6/6b1/8/4K3 w - - 0 1", "7k/8/8/8/1b6/8/8/4K3 w - - 0 1", 0},
      // ...even with one on the promotion rank: no promotion gives two bishop checks either.
      {ErrorCode::kImpossibleCheck, "2B5/3k4/8/8/8/7B/8/4K3 b - - 0 1", "2B5/3k4/8/8/8/8/8/4K3 b - - 0 1", 0},
      {ErrorCode::kImpossibleCheck, "8/4R3/8/8/R3k3/8/8/5K2 b - - 0 1", "8/4R3/8/8/4k3/8/8/5K2 b - - 0 1", 0},
      {ErrorCode::kImpossibleCheck, "8/8/8/3k3R/4P3/8/8/4K3 b - - 0 1", "8/8/8/3k4/4P3/8/8/3RK3 b - - 0 1", 0},
      // e2-e4 was the last move, but the rook on h5 already gave check before it. The good variant:
      // the push uncovered the rook on a2.
      {ErrorCode::kEpIllegalPush, "8/8/8/k6R/4P3/8/8/4K3 b - e3 0 1", "8/8/8/8/4P3/8/R6k/4K3 b - e3 0 1", 0},
      {ErrorCode::kEpIllegalPush, "8/8/8/k6R/4P3/8/8/4K3 b - e3 0 1", "8/8/8/k6R/4P3/8/8/4K3 b - - 0 1", 0},
      // Double check right after a double push: the rook's check was there before.
      {ErrorCode::kEpIllegalPush, "8/8/8/5k2/4P3/8/8/4KR2 b - e3 0 1", "8/8/8/5k2/4P3/8/8/4K3 b - e3 0 1", 0},
      // Without any check now: the pawn on g2 attacked the king on f3 before g2-g4; the queen's line d1-h5
      // was open until g4 blocked it; the pawn on d7 attacked e6.
      {ErrorCode::kEpIllegalPush, "8/8/8/8/5pP1/5k2/8/2K5 b - g3 0 120", "8/8/8/8/5pP1/5k2/8/2K5 b - - 0 120", 0},
      {ErrorCode::kEpIllegalPush, "8/2q5/8/3K3k/5pPp/8/8/3Q4 b - g3 0 15", "8/2q5/8/3K3k/5pPp/8/8/3Q4 b - - 0 15", 0},
      {ErrorCode::kEpIllegalPush, "4k3/8/4K3/3pP3/8/8/8/8 w - d6 0 2", "4k3/8/4K3/3pP3/8/8/8/8 w - - 0 2", 0},
      {ErrorCode::kCastlingNoKing, "4k3/8/8/8/8/8/4K3/7R w K - 0 1", "4k3/8/8/8/8/8/4K3/7R w - - 0 1", 0},
      {ErrorCode::kCastlingNoKing, "r7/4k3/8/8/8/8/8/4K3 w q - 0 1", "r3k3/8/8/8/8/8/8/4K3 w q - 0 1", 0},
      {ErrorCode::kCastlingNoRook, "r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1", 0},
      {ErrorCode::kCastlingNoRook, "r3k2r/8/8/8/8/8/8/R3K2N w K - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1", 0},
      {ErrorCode::kCastlingNoRook, "4k3/8/8/8/8/8/8/R2K4 w K - 0 1", "4k3/8/8/8/8/8/8/3K3R w K - 0 1", 0},  // d1 king
      {ErrorCode::kCastlingNoRook, "4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "4k3/8/8/8/8/8/8/R3K1R1 w K - 0 1", 0, true},
      {ErrorCode::kCastlingNoRook, "4k3/8/8/8/8/8/8/4K3 w G - 0 1", "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", 0},  // file letter
      {ErrorCode::kCastlingNoRook, "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", 0},  // auto: K = h1
      // Both sides castle, so neither king moved: they start on one file (here e1 and d8, k/q read as X-FEN),
      // and their rooks on mirrored files (h1 and g8).
      {ErrorCode::kCastlingMismatch, "r2k3r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r2k3r/8/8/8/8/8/8/R3K2R w KQ - 0 1", 0},
      {ErrorCode::kCastlingMismatch, "1r2k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", 0, true},
      {ErrorCode::kEpWrongRank, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1",
       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0},
      {ErrorCode::kEpWrongRank, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 0},
      {ErrorCode::kEpNoPawn, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
       "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 0},
      {ErrorCode::kEpNoPawn, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1",
       "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1", 0},
      {ErrorCode::kEpOccupied, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/RNBQKB1R b KQkq e3 0 1",  // origin e2
       "rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", 0},
      {ErrorCode::kEpOccupied, "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3 0 1",  // target e3
       "rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/R1BQKB1R b KQkq e3 0 1", 0},
      {ErrorCode::kEpClock, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 3 1",
       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0},
  };
  return kCases;
}

// Codes that a chess FEN never produces, tested where they arise: Xiangqi's own codes (XQ_*) in
// tests/xiangqi_test.cpp, the record formats around a FEN (CSV_FIELD, JSON_FIELD, BAD_RECORD) in the format
// and CLI tests. Both still need their section in docs/ERRORS.md (EveryCodeIsDocumented).
bool tested_elsewhere(ErrorCode code) {
  return error_name(code).substr(0, 3) == "XQ_" || is_record_format_error(code);
}

TEST(FenErrors, EveryCodeHasAFailingAndAPassingCase) {
  std::set<int> covered;
  for (const Case& c : cases()) covered.insert(static_cast<int>(c.code));
  for (int i = 1; i < kErrorCodeCount; ++i) {
    if (tested_elsewhere(static_cast<ErrorCode>(i))) continue;
    EXPECT_TRUE(covered.count(i)) << "no test case for " << error_name(static_cast<ErrorCode>(i));
  }
}

TEST(FenErrors, EachCaseFailsWithExactlyItsCodeAndTheVariantPasses) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(std::string(error_name(c.code)) + " | bad: " + c.bad + " | good: " + c.good);
    Position pos;
    NormalizeResult bad = normalize_fen(c.bad, pos, opts(EpPolicy::kLegal, false, c.chess960));
    EXPECT_EQ(error_name(bad.code), error_name(c.code));
    EXPECT_EQ(bad.column, c.column);
    EXPECT_EQ(is_syntax_error(c.code), c.column != 0);
    if (!is_syntax_error(c.code) && c.code != ErrorCode::kMissingKing) {
      EXPECT_NE(bad.squares, 0u) << "a semantic error names its squares";
    }
    NormalizeResult good = normalize_fen(c.good, pos, opts(EpPolicy::kLegal, false, c.chess960));
    EXPECT_EQ(error_name(good.code), "OK");
    EXPECT_EQ(good.repairs, 0) << "a passing variant needs no repair";
  }
}

// MISSING_KING has no square to show; every other semantic code names at least one.
// Checks one legal last move explains, each of a kind IMPOSSIBLE_CHECK must let pass (the reachable-positions test
// plays random games; these are the corners random play rarely reaches).
// The one-king rule's message says which side breaks it; the side checked first (White) is the one named when both do.
TEST(FenErrors, KingCountDetailNamesTheSide) {
  const std::pair<const char*, std::string_view> cases[] = {
      {"4k3/8/8/8/8/8/8/8 w - - 0 1", "White has none"},
      {"8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has none"},
      {"8/8/8/8/8/8/8/8 w - - 0 1", "neither side has one"},
      {"4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "White has more than one"},
      {"3kk3/8/8/8/8/8/8/4K3 w - - 0 1", "Black has more than one"},
      {"3kk3/8/8/8/8/8/8/8 w - - 0 1", "White has none"},
      {"3kk3/8/8/8/8/8/8/3KK3 w - - 0 1", "White has more than one"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", ""},
  };
  for (const auto& [fen, detail] : cases) {
    SCOPED_TRACE(fen);
    Position pos;
    ASSERT_TRUE(parse_fen(fen, pos).ok());
    EXPECT_EQ(king_count_detail(pos), detail);
    const ErrorCode code = validate(pos).code;
    if (detail.empty())
      EXPECT_NE(code, ErrorCode::kMissingKing);
    else  // validate() rejects for the side named
      EXPECT_EQ(code, detail.find("none") != std::string_view::npos || detail.starts_with("neither")
                          ? ErrorCode::kMissingKing : ErrorCode::kTooManyKings);
  }
}

TEST(FenErrors, ChecksFromOneLegalLastMovePass) {
  const char* legal[] = {
      "8/8/4kP2/8/8/7B/8/4R1K1 b - - 0 2",   // exf6 e.p.: the e1 rook through e5, the h3 bishop through f5; the pawn gives none
      "B3R3/8/3P4/8/4k3/8/8/K7 b - - 0 1",   // exd6 e.p.: through e5 and d5
      "4R3/R3k3/8/8/8/8/8/6K1 b - - 0 1",    // dxe8=R: the promoted rook and the a7 rook through d7
      "3N4/2R2k2/8/8/8/8/8/K7 b - - 0 1",    // d8=N: the knight and the c7 rook through d7
      "4R3/8/8/2N5/4k3/8/8/K7 b - - 0 1",    // Ne6-c5: the knight and the e8 rook through e6
      "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",     // a queen next to the king came along one of its open lines
      "3B3k/5N2/3P3P/4P3/8/8/8/K7 b - - 0 1", // the knight came from g5, the one empty origin
      "5k2/8/8/8/8/8/8/5RK1 b - - 0 1",       // O-O with check: the castled rook
      "5k2/8/8/8/8/8/8/4K2R b - - 0 1",       // a rook's check from afar may have been uncovered
  };
  for (const char* fen : legal) {
    Position pos;
    NormalizeResult r = normalize_fen(fen, pos, opts(EpPolicy::kLegal, false, false));
    EXPECT_EQ(error_name(r.code), std::string_view("OK")) << fen;
  }
}

TEST(FenErrors, MissingKingHasNoSquares) {
  Position pos;
  EXPECT_EQ(normalize_fen("8/8/8/8/8/8/8/4K3 w - - 0 1", pos).squares, 0u);
}

TEST(FenErrors, NamesMessagesAndLookup) {
  std::set<std::string_view> names;
  for (int i = 0; i < kErrorCodeCount; ++i) {
    ErrorCode code = static_cast<ErrorCode>(i);
    std::string_view name = error_name(code);
    EXPECT_FALSE(name.empty());
    EXPECT_FALSE(error_message(code).empty());
    EXPECT_TRUE(names.insert(name).second) << "duplicate name " << name;
    ErrorCode back;
    ASSERT_TRUE(error_from_name(name, back));
    EXPECT_EQ(back, code);
  }
  ErrorCode unused;
  EXPECT_FALSE(error_from_name("NO_SUCH_CODE", unused));
  EXPECT_FALSE(error_from_name("rank_sum", unused));  // names are case-sensitive
  EXPECT_EQ(error_name(ErrorCode::kRankSum), "RANK_SUM");
  EXPECT_FALSE(is_syntax_error(ErrorCode::kOk));
  EXPECT_TRUE(is_syntax_error(ErrorCode::kTrailingText));
  EXPECT_FALSE(is_syntax_error(ErrorCode::kMissingKing));
}

TEST(FenErrors, EveryCodeIsDocumented) {
  std::ifstream in(std::string(FENMILL_SOURCE_DIR) + "/docs/ERRORS.md");
  ASSERT_TRUE(in) << "docs/ERRORS.md is missing";
  std::stringstream ss;
  ss << in.rdbuf();
  std::string doc = ss.str();
  for (int i = 1; i < kErrorCodeCount; ++i) {
    std::string heading = "### `" + std::string(error_name(static_cast<ErrorCode>(i))) + "`";
    EXPECT_NE(doc.find(heading), std::string::npos) << heading << " missing from docs/ERRORS.md";
  }
}

// ---- squares and hints ----

TEST(FenErrors, VerdictSquares) {
  Position pos;
  EXPECT_EQ(normalize_fen("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", pos).squares, squares({"d1", "e1"}));
  EXPECT_EQ(normalize_fen("4k3/8/8/8/8/8/8/P3K2p w - - 0 1", pos).squares, squares({"a1", "h1"}));
  EXPECT_EQ(normalize_fen("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", pos).squares, squares({"e1", "e8"}));
  EXPECT_EQ(normalize_fen("4k3/8/3N4/1B6/8/8/8/4R1K1 b - - 0 1", pos).squares, squares({"d6", "b5", "e1"}));
  EXPECT_EQ(normalize_fen("8/8/8/4k3/3P4/5N2/8/4K3 b - - 0 1", pos).squares, squares({"d4", "f3", "e5"}));
  EXPECT_EQ(normalize_fen("r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", pos).squares, squares({"h1"}));
  EXPECT_EQ(normalize_fen("4k3/8/8/8/8/8/4K3/7R w K - 0 1", pos).squares, squares({"e2"}));
  EXPECT_EQ(normalize_fen("4k3/8/8/8/8/8/PPPPPPPP/QQQ1K3 w - - 0 1", pos).squares, squares({"a1", "b1", "c1", "e1"}));
  EXPECT_EQ(normalize_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/RNBQKB1R b KQkq e3 0 1", pos).squares, squares({"e2"}));
  EXPECT_EQ(normalize_fen("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3 0 1", pos).squares, squares({"e3"}));
  EXPECT_EQ(normalize_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", pos).squares, squares({"e3"}));
  EXPECT_EQ(normalize_fen("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", pos).squares, rank_bb(1) | squares({"a3"}));
}

TEST(FenErrors, FlippedBoardHint) {
  Position pos;
  // Written from rank 1: White's pawns on rank 7 in an opening position.
  NormalizeResult r = normalize_fen("RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr w KQkq - 0 1", pos);
  EXPECT_EQ(error_name(r.code), "CASTLING_NO_KING");
  EXPECT_EQ(r.hints, kHintFlipped);
  // Colours swapped after 1.e4.
  r = normalize_fen("RNBQKBNR/PPPPPPPP/8/8/4p3/8/pppp1ppp/rnbqkbnr b KQkq - 0 1", pos);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.hints, kHintFlipped);
  // Kings only, each on the other's back rank, and something else wrong.
  r = normalize_fen("4K3/8/8/8/8/8/8/4k3 w KQ - 0 1", pos);
  EXPECT_EQ(error_name(r.code), "CASTLING_NO_KING");
  EXPECT_EQ(r.hints, kHintFlipped | kHintByKings);  // the message then speaks of kings, not pawns
  // An ordinary mistake gets no hint.
  r = normalize_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", pos);
  EXPECT_EQ(error_name(r.code), "CASTLING_NO_ROOK");
  EXPECT_EQ(r.hints, kHintNone);
  // Hints come with rejections only; a flipped board with no impossible field is a legal-looking position,
  // but position_hints() still recognises the pattern.
  r = normalize_fen("RNBQKBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr w - - 0 1", pos);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.hints, kHintNone);
  EXPECT_EQ(position_hints(pos), kHintFlipped);
  ASSERT_TRUE(normalize_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", pos).ok());
  EXPECT_EQ(position_hints(pos), kHintNone);
}

// A Chess960 start whose king stands on the e-file reads KQkq as the corner rooks without --chess960: the
// rejection says that the position is valid as Chess960, and only then.
TEST(FenErrors, Chess960Hint) {
  Position pos;
  const char* chess960_start = "rnbqkrnb/pppppppp/8/8/8/8/PPPPPPPP/RNBQKRNB w KQkq - 0 1";
  NormalizeResult r = normalize_fen(chess960_start, pos);
  EXPECT_EQ(error_name(r.code), "CASTLING_NO_ROOK");
  EXPECT_EQ(r.hints, kHintChess960);
  Reject rej{};
  rej.code = r.code;
  rej.hints = r.hints;
  EXPECT_NE(reject_message(rej).find("valid as Chess960: with --chess960"), std::string::npos) << reject_message(rej);
  NormalizeOptions chess960;
  chess960.chess960 = true;
  EXPECT_TRUE(normalize_fen(chess960_start, pos, chess960).ok());
  // Wrong either way: a file letter names a square without a rook, or no rook stands beyond the king.
  r = normalize_fen("rnbqkrnb/pppppppp/8/8/8/8/PPPPPPPP/RNBQKRNB w HAha - 0 1", pos);
  EXPECT_EQ(error_name(r.code), "CASTLING_NO_ROOK");
  EXPECT_EQ(r.hints, kHintNone);
  r = normalize_fen("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", pos);
  EXPECT_EQ(error_name(r.code), "CASTLING_NO_ROOK");
  EXPECT_EQ(r.hints, kHintNone);
  // Valid as Chess960 but rejected for another reason: no hint either.
  r = normalize_fen("rnbqkrnb/pppppppp/8/8/8/8/PPPPPPPP/RNBQKRNB w KQkq - 0 0", pos);
  EXPECT_EQ(r.hints, kHintNone);
  // Already read as Chess960, and wrong: nothing to hint at.
  r = normalize_fen("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", pos, chess960);
  EXPECT_EQ(error_name(r.code), "CASTLING_NO_ROOK");
  EXPECT_EQ(r.hints, kHintNone);
}

// ---- fields, whitespace, defaults ----

TEST(FenErrors, WhitespacePolicy) {
  const std::string expected = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const std::string s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
  for (const std::string& text : {
           "  " + s + " w KQkq - 0 1",             // leading blanks
           "\t" + s + " w KQkq - 0 1",             // leading tab
           s + " w KQkq - 0 1   ",                 // trailing blanks
           s + "\tw\tKQkq\t-\t0\t1",               // tabs between fields
           s + "   w  \t KQkq    -  0     1",      // runs of blanks
           s + " w KQkq - 0 1\r",                  // CRLF line, LF already removed
           s + " w KQkq - 0 1\0\0"s,               // NUL padding at the end (EPD collections)
           s + " w KQkq - 0 1 \0\r"s,              // a mix of trailing junk
           s + " w KQkq - 0 1\r\n",                // a JSON string's "\r\n", a quoted CSV field's line break
       }) {
    SCOPED_TRACE(text);
    Position pos;
    NormalizeResult r = normalize_fen(text, pos);
    ASSERT_TRUE(r.ok()) << error_name(r.code);
    EXPECT_EQ(to_fen(pos), expected);
    EXPECT_EQ(r.fields, 6);
  }
  // Blanks are spaces and tabs only: other control bytes inside the record are errors.
  Position pos;
  EXPECT_EQ(error_name(normalize_fen(s + " w KQkq -\v0 1", pos).code), "BAD_EP_SYNTAX");
  EXPECT_EQ(error_name(normalize_fen(s + " w KQkq - 0 1 \0x"s, pos).code), "TRAILING_TEXT");
  EXPECT_EQ(error_name(normalize_fen(s + " w KQkq - 0 1\0x"s, pos).code), "BAD_FULLMOVE");
  EXPECT_EQ(error_name(normalize_fen("\r" + s + " w KQkq - 0 1", pos).code), "BAD_PIECE");
  EXPECT_EQ(error_name(normalize_fen(s + " w KQkq - 0\n1", pos).code), "BAD_HALFMOVE");
  EXPECT_EQ(error_name(normalize_fen(s + " w KQkq - 0 1\f", pos).code), "BAD_FULLMOVE");
  // A UTF-8 byte order mark is the reader's business; the parser sees a bad piece.
  NormalizeResult bom = normalize_fen("\xEF\xBB\xBF" + s + " w KQkq - 0 1", pos);
  EXPECT_EQ(error_name(bom.code), "BAD_PIECE");
  EXPECT_EQ(bom.column, 1u);
}

TEST(FenErrors, ShortRecordsAreCompletedWithDefaults) {
  struct Short {
    const char* text;
    std::uint8_t fields;
    const char* expected;
  };
  const Short kShort[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 1, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b", 2, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", 3, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", 4, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
      {"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3", 4,
       "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6,
       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
  };
  for (const Short& s : kShort) {
    SCOPED_TRACE(s.text);
    Position pos;
    NormalizeResult r = normalize_fen(s.text, pos);
    ASSERT_TRUE(r.ok()) << error_name(r.code);
    EXPECT_EQ(r.fields, s.fields);
    EXPECT_EQ(r.completed(), s.fields < 4);
    EXPECT_EQ(to_fen(pos), s.expected);
    ParseResult p = parse_fen(s.text, pos);
    EXPECT_EQ(p.fields, s.fields);
    EXPECT_EQ(p.completed(), s.fields < 4);
  }
  // A completed record is still validated: a missing king stays an error.
  Position pos;
  EXPECT_EQ(error_name(normalize_fen("8/8/8/8/8/8/8/4K3", pos).code), "MISSING_KING");
  // With one field Black cannot be in check: White moves by default.
  EXPECT_EQ(error_name(normalize_fen("4k3/8/8/8/8/8/8/4R1K1", pos).code), "OPPOSITE_CHECK");
}

TEST(FenErrors, ClockRanges) {
  EXPECT_EQ(normalized(KINGS " w - - 65535 1000000"), KINGS " w - - 65535 1000000");
  EXPECT_EQ(normalized(KINGS " w - - 007 010"), KINGS " w - - 7 10");  // leading zeros are read as decimal
  EXPECT_EQ(normalized(KINGS " w - - 65536 1"), "ERROR CLOCK_RANGE");
  EXPECT_EQ(normalized(KINGS " w - - 0 1000001"), "ERROR CLOCK_RANGE");
  // A fullmove number of 0 is an error, or 1 in repair mode (reported as a clock repair).
  EXPECT_EQ(normalized(KINGS " w - - 0 0"), "ERROR BAD_FULLMOVE");
  Position pos;
  NormalizeResult r = normalize_fen(KINGS " b - - 5 0", pos, opts(EpPolicy::kLegal, true));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.repairs, kRepairClock);
  EXPECT_EQ(to_fen(pos), KINGS " b - - 5 1");
  // Repair does not turn other clock errors into numbers.
  EXPECT_EQ(normalized(KINGS " w - - 0 -1", opts(EpPolicy::kLegal, true)), "ERROR BAD_FULLMOVE");
  EXPECT_EQ(normalized(KINGS " w - - 70000 1", opts(EpPolicy::kLegal, true)), "ERROR CLOCK_RANGE");
}

TEST(FenErrors, EpdOperationsNeedAllowOperations) {
  NormalizeOptions o;
  o.allow_operations = true;
  struct Epd {
    const char* text;
    const char* fen;
    const char* operations;
  };
  const Epd kEpd[] = {
      {KINGS " w - - bm Kd2; id \"x\";", KINGS " w - - 0 1", "bm Kd2; id \"x\";"},
      {KINGS " w - - 3 40 ; bm Kd2", KINGS " w - - 3 40", "; bm Kd2"},
      {KINGS " w - - 3 40; D1 5; D2 25", KINGS " w - - 3 40", "; D1 5; D2 25"},  // perft suites
      {KINGS " w - -; am Kd2", KINGS " w - - 0 1", "; am Kd2"},                   // ';' right after the ep field
      {KINGS " b - -  ; bm Kd7", KINGS " b - - 0 1", "; bm Kd7"},
      {KINGS " w - - hmvc 4; fmvn 9;", KINGS " w - - 4 9", "hmvc 4; fmvn 9;"},  // the clock opcodes
      {KINGS " w - - 3 40; hmvc 5;", KINGS " w - - 5 40", "; hmvc 5;"},             // hmvc wins over the field
      {KINGS " w - - c0 \"a; b\"; fmvn 7;", KINGS " w - - 0 7", "c0 \"a; b\"; fmvn 7;"},  // ';' inside quotes
      {KINGS " w - -", KINGS " w - - 0 1", ""},
  };
  for (const Epd& e : kEpd) {
    SCOPED_TRACE(e.text);
    Position pos;
    NormalizeResult r = normalize_fen(e.text, pos, o);
    ASSERT_TRUE(r.ok()) << error_name(r.code) << " at " << r.column;
    EXPECT_EQ(to_fen(pos), e.fen);
    EXPECT_EQ(std::string_view(e.text).substr(r.rest), e.operations);
    EXPECT_FALSE(normalize_fen(e.text, pos).ok() && *e.operations) << "strict mode rejects operations";
  }
  // ';' ends a field only in EPD mode, and only at a field boundary inside the fields it cannot appear.
  Position pos;
  EXPECT_EQ(error_name(normalize_fen(KINGS " w -; - 0 1", pos, o).code), "BAD_CASTLING");
  EXPECT_EQ(error_name(normalize_fen(KINGS ";w - - 0 1", pos, o).code), "BAD_PIECE");
  EXPECT_EQ(error_name(normalize_fen(KINGS " w - - 0 1; bm Kd2", pos).code), "BAD_FULLMOVE");  // strict: "1;"
  EXPECT_EQ(error_name(normalize_fen(KINGS " w - - 0; bm Kd2", pos, o).code), "FIELD_COUNT");
  EXPECT_EQ(error_name(normalize_fen(KINGS " w - - 0 1 bm Kd2", pos).code), "TRAILING_TEXT");
  // Bad clock operands are clock errors; an unterminated quoted operand is trailing text.
  EXPECT_EQ(error_name(normalize_fen(KINGS " w - - hmvc x;", pos, o).code), "BAD_HALFMOVE");
  EXPECT_EQ(error_name(normalize_fen(KINGS " w - - fmvn 0;", pos, o).code), "BAD_FULLMOVE");
  EXPECT_EQ(error_name(normalize_fen(KINGS " w - - hmvc 70000;", pos, o).code), "CLOCK_RANGE");
  EXPECT_EQ(error_name(normalize_fen(KINGS " w - - bm Kd2; c0 \"open", pos, o).code), "TRAILING_TEXT");
  // An opcode starts with a letter: "5 3" after ';' is no operation (written back, it would read as clocks).
  NormalizeResult r = normalize_fen(KINGS " w - -;5 3", pos, o);
  EXPECT_EQ(error_name(r.code), "TRAILING_TEXT");
  EXPECT_EQ(r.column, std::string_view(KINGS " w - -;").size() + 1);
  EXPECT_EQ(error_name(normalize_fen(KINGS " w - - bm Kd2; \"x\";", pos, o).code), "TRAILING_TEXT");
  // Text after a CR is the next line of a file whose lines end in CR alone, not operations: a placement starting with
  // a letter read as an opcode, and the second record was kept as an operation of the first.
  const std::string first = "r3k3/8/8/8/8/8/8/4K3 w - - bm Kd2;\r", second = "r3k3/8/8/8/8/8/8/4K3 b - - bm Kd7;\r";
  r = normalize_fen(first + second, pos, o);
  EXPECT_EQ(error_name(r.code), "TRAILING_TEXT");
  EXPECT_EQ(r.column, first.size() + 1);
  EXPECT_TRUE(normalize_fen(first, pos, o).ok()) << "a CR at the end ends the line";
  EXPECT_TRUE(normalize_fen(first + " \r", pos, o).ok());
  // --repair reads fmvn 0 as 1, as it does a fullmove field of 0.
  NormalizeOptions repair = o;
  repair.repair = true;
  r = normalize_fen(KINGS " w - - hmvc 2; fmvn 0;", pos, repair);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.repairs, kRepairClock);
  EXPECT_EQ(to_fen(pos), KINGS " w - - 2 1");
  // Only a repair that reaches the position counts: a later fmvn overrides a repaired 0.
  for (const char* overridden : {KINGS " w - - fmvn 0; fmvn 5;", KINGS " w - - 3 0 fmvn 4;"}) {
    r = normalize_fen(overridden, pos, repair);
    ASSERT_TRUE(r.ok()) << overridden;
    EXPECT_EQ(r.repairs, 0) << overridden;
  }
  EXPECT_EQ(normalize_fen(KINGS " w - - 3 0 hmvc 4;", pos, repair).repairs, kRepairClock);
  // A clock error points at the operand, not the blank before it; a quoted operand escapes '"' with '\'.
  r = normalize_fen(KINGS " w - - c0 \"x\\\"y;\"; hmvc  3 4;", pos, o);
  EXPECT_EQ(error_name(r.code), "BAD_HALFMOVE");
  EXPECT_EQ(r.column, std::string_view(KINGS " w - - c0 \"x\\\"y;\"; hmvc  ").size() + 1);
  // A quote ends the opcode: `c0"a;b";` is one operation whose string holds the ';' and is written back as it
  // came (it was cut at that ';' and written `c0"a; b";`), and `c0"x y;z";` is read like `c0 "x y;z";` (it
  // was TRAILING_TEXT).
  for (const char* ops : {"c0\"a;b\"; id \"x\";", "c0\"x y;z\";"}) {
    const std::string text = std::string(KINGS " w - - ") + ops;
    r = normalize_fen(text, pos, o);
    ASSERT_TRUE(r.ok()) << text << ": " << error_name(r.code);
    std::string written;
    append_epd_operations_but_clocks(written, std::string_view(text).substr(r.rest));
    EXPECT_EQ(written, std::string(" ") + ops);
  }
  EXPECT_EQ(error_name(normalize_fen(KINGS " w - - hmvc\"3\";", pos, o).code), "BAD_HALFMOVE");
}

// Operations already in the writer's form are copied, not rebuilt: the flag must be set only when the copy is
// what the writer builds.
TEST(FenErrors, EpdOperationsAsWrittenAreCopiedOnlyWhenTheWriterWouldWriteThem) {
  NormalizeOptions o;
  o.allow_operations = true;
  struct Case {
    const char* ops;
    bool as_written;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"bm e4;", true},
           {"bm e4; id \"a;b\";", true},
           {"bm e4; id \"x\"; \r", true},  // a CRLF line's CR
           {"bm e4", true},
           {"bm e4 ;", true},
           {"c0 \"a\"; c1 \"b\"", true},
           {"bm e4;  id \"x\";", false},   // two blanks between
           {"bm e4;;", false},              // a separator ';' the writer drops
           {"bm e4;; id \"x\";", false},
           {"bm e4;\tid \"x\";", false},   // a tab the writer turns into a blank
           {"hmvc 3; bm e4;", false},       // clocks are the writer's
           {"bm e4; fmvn 7;", false},
           {";bm e4;", false},
       }) {
    const std::string text = std::string(KINGS " w - - ") + c.ops;
    Position pos;
    const NormalizeResult r = normalize_fen(text, pos, o);
    ASSERT_TRUE(r.ok()) << text << ": " << error_name(r.code);
    EXPECT_EQ(r.operations_as_written, c.as_written) << c.ops;
    std::string rebuilt, copied;
    append_epd_operations_but_clocks(rebuilt, std::string_view(text).substr(r.rest));
    append_epd_operations_but_clocks(copied, std::string_view(text).substr(r.rest), r.operations_as_written);
    EXPECT_EQ(copied, rebuilt) << c.ops;
  }
  Position pos;
  EXPECT_FALSE(normalize_fen(KINGS " w - -", pos, o).operations_as_written);
  // Long operands (scanned 16 bytes a step): a ';' or an escaped quote at any place inside a string ends nothing, so
  // the hmvc there is text; one outside a string ends the operation, and the hmvc after it counts.
  for (std::size_t at = 0; at < 40; ++at) {
    const std::string pad(at, 'x'), tail(40 - at, 'y');
    for (const std::string inner : {";hmvc 5;", "\\\";hmvc 5;\\\""}) {
      const std::string ops = "c0 \"" + pad + inner + tail + "\"; id \"z\";";
      const NormalizeResult r = normalize_fen(std::string(KINGS " w - - ") + ops, pos, o);
      ASSERT_TRUE(r.ok()) << ops;
      EXPECT_EQ(pos.halfmove_clock, 0) << ops;
      std::string written;
      append_epd_operations_but_clocks(written, ops, r.operations_as_written);
      EXPECT_EQ(written, " " + ops);
    }
    const std::string ops = "c0 " + pad + "; hmvc 5; id \"" + tail + "\";";
    ASSERT_TRUE(normalize_fen(std::string(KINGS " w - - ") + ops, pos, o).ok()) << ops;
    EXPECT_EQ(pos.halfmove_clock, 5) << ops;
  }
  EXPECT_FALSE(normalize_fen(KINGS " w - - 0 1", pos, o).operations_as_written);
}

// ---- castling letter semantics ----

TEST(FenErrors, CastlingLetters) {
  const NormalizeOptions c960 = opts(EpPolicy::kLegal, false, true);
  // Shredder-FEN letters in a standard position come back as KQkq.
  EXPECT_EQ(normalized("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(normalized("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  // King on d1: K means the outermost rook to its right, in both modes.
  EXPECT_EQ(normalized("4k3/8/8/8/8/8/8/3K3R w K - 0 1"), "4k3/8/8/8/8/8/8/3K3R w K - 0 1");
  EXPECT_EQ(normalized("4k3/8/8/8/8/8/8/3K2R1 w K - 0 1"), "4k3/8/8/8/8/8/8/3K2R1 w K - 0 1");
  EXPECT_EQ(normalized("4k3/8/8/8/8/8/8/3K2R1 w K - 0 1", c960), "4k3/8/8/8/8/8/8/3K2R1 w K - 0 1");
  // King on e1, rook on g1 only: auto mode reads K as the h1 corner; chess960 mode as the outermost rook g1,
  // which is written with its file letter because K would mean h1 again in auto mode.
  EXPECT_EQ(normalized("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1"), "ERROR CASTLING_NO_ROOK");
  EXPECT_EQ(normalized("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", c960), "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1");
  EXPECT_EQ(normalized("4k3/8/8/8/8/8/8/4K1R1 w G - 0 1"), "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1");
  // Two rooks on one side: the inner one needs its file letter (X-FEN), the outer one is K/Q.
  EXPECT_EQ(normalized("1r1k3r/8/8/8/8/8/8/1R1K3R w Bb - 0 1"), "1r1k3r/8/8/8/8/8/8/1R1K3R w Qq - 0 1");
  EXPECT_EQ(normalized("1r1k3r/8/8/8/8/8/8/1R1K3R w Dd - 0 1"), "ERROR CASTLING_NO_ROOK");  // the king's own file
  EXPECT_EQ(normalized("1r1k1r1r/8/8/8/8/8/8/1R1K1R1R w Ff - 0 1"), "1r1k1r1r/8/8/8/8/8/8/1R1K1R1R w Ff - 0 1");
  EXPECT_EQ(normalized("1r1k1r1r/8/8/8/8/8/8/1R1K1R1R w Kk - 0 1"), "1r1k1r1r/8/8/8/8/8/8/1R1K1R1R w Kk - 0 1");
  // A Chess960 start position in X-FEN and in Shredder-FEN gives the same position.
  const char* xfen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1";
  const char* shredder = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
  EXPECT_EQ(normalized(xfen, c960), xfen);
  EXPECT_EQ(normalized(xfen), xfen);  // king not on e1: auto mode reads X-FEN too
  EXPECT_EQ(normalized(shredder), xfen);
  Position pos;
  ASSERT_TRUE(normalize_fen(xfen, pos).ok());
  EXPECT_EQ(to_fen(pos, CastlingNotation::kShredder), shredder);
  ASSERT_TRUE(normalize_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", pos).ok());
  EXPECT_EQ(to_fen(pos, CastlingNotation::kShredder), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  // Shredder-FEN decides for the whole field: one right that is not a corner rook of an e-file king puts the
  // standard ones in file letters too (Black's q here), as docs/ERRORS.md says.
  ASSERT_TRUE(normalize_fen("r3k2r/8/8/8/8/8/8/R3K1R1 w Gq - 0 1", pos).ok());
  EXPECT_EQ(to_fen(pos, CastlingNotation::kShredder), "r3k2r/8/8/8/8/8/8/R3K1R1 w Ga - 0 1");
  EXPECT_EQ(to_fen(pos), "r3k2r/8/8/8/8/8/8/R3K1R1 w Gq - 0 1");
  // A file letter on the king's own file, or a right whose rook is on the wrong side, is an error.
  EXPECT_EQ(normalized("4k3/8/8/8/8/8/8/4K2R w E - 0 1"), "ERROR CASTLING_NO_ROOK");
  // Writing order is White king side, White queen side, Black king side, Black queen side.
  EXPECT_EQ(normalized("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1"), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

// ---- en-passant policies ----

TEST(FenErrors, EpPolicies) {
  struct EpCase {
    const char* fen;
    bool legal, pseudo;  // is the ep square kept under that policy ("keep" always keeps it)
  };
  const EpCase kEp[] = {
      // French: exd6 e.p. is legal.
      {"rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", true, true},
      // After 1.e4: no black pawn can capture.
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false, false},
      // The capturing pawn is pinned on the e-file.
      {"4r1k1/8/8/3pP3/8/8/8/4K3 w - d6 0 2", false, true},
      // A pawn pinned on the diagonal it captures along stays legal.
      {"6k1/2b5/8/3pP3/8/8/7K/8 w - d6 0 2", true, true},
      // Horizontal pin: both pawns leave the 5th rank and open it to the rook.
      {"7k/8/8/K2pP2r/8/8/8/8 w - d6 0 2", false, true},
      // Same, but another pawn on the rank still shields the king.
      {"7k/8/8/K1PpP2r/8/8/8/8 w - d6 0 2", true, true},
      // Capturing en passant removes the checking pawn: legal.
      {"8/8/8/3pP3/2K5/8/8/7k w - d6 0 2", true, true},
      // The push uncovered a bishop check that the capture does not block: illegal.
      {"2b4k/8/8/3pPK2/8/8/8/8 w - d6 0 2", false, true},
  };
  for (const EpCase& e : kEp) {
    SCOPED_TRACE(e.fen);
    Position pos;
    ASSERT_TRUE(normalize_fen(e.fen, pos, opts(EpPolicy::kKeep)).ok());
    EXPECT_NE(pos.ep_square, kNoSquare) << "keep";
    EXPECT_EQ(ep_capture_pseudo(pos), e.pseudo);
    EXPECT_EQ(ep_capture_legal(pos), e.legal);
    ASSERT_TRUE(normalize_fen(e.fen, pos, opts(EpPolicy::kPseudo)).ok());
    EXPECT_EQ(pos.ep_square != kNoSquare, e.pseudo) << "pseudo";
    ASSERT_TRUE(normalize_fen(e.fen, pos, opts(EpPolicy::kLegal)).ok());
    EXPECT_EQ(pos.ep_square != kNoSquare, e.legal) << "legal";
    // The policy never turns an accepted record into a rejected one, nor reports a repair.
    EXPECT_EQ(normalize_fen(e.fen, pos).repairs, 0);
  }
  EXPECT_EQ(normalized("7k/8/8/K2pP2r/8/8/8/8 w - d6 0 2"), "7k/8/8/K2pP2r/8/8/8/8 w - - 0 2");
  EXPECT_EQ(normalized("7k/8/8/K2pP2r/8/8/8/8 w - d6 0 2", opts(EpPolicy::kPseudo)), "7k/8/8/K2pP2r/8/8/8/8 w - d6 0 2");
  // An impossible ep square is an error under every policy, even "keep".
  for (EpPolicy p : {EpPolicy::kLegal, EpPolicy::kPseudo, EpPolicy::kKeep})
    EXPECT_EQ(normalized("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", opts(p)), "ERROR EP_NO_PAWN");
}

// ---- repair mode ----

TEST(FenErrors, RepairMode) {
  struct RepairCase {
    const char* in;
    const char* out;  // normalized, legal ep policy
    std::uint8_t repairs;
  };
  const RepairCase kRepair[] = {
      {"r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1", kRepairCastling},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w kq - 0 1",
       kRepairCastling},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
       kRepairEp},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1",
       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", kRepairEp},
      {"rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3 0 1",
       "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq - 0 1", kRepairEp},
      // EP_CLOCK: the ep square is kept and the halfmove clock set to 0.
      {"rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 3 3",
       "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", kRepairClock},
      // An ep square that makes a check impossible is dropped; the check itself stays.
      {"8/8/8/k6R/4P3/8/8/4K3 b - e3 0 1", "8/8/8/k6R/4P3/8/8/4K3 b - - 0 1", kRepairEp},
      {"r3k2r/8/8/8/8/8/8/4K3 w KQkq e6 0 0", "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1",
       kRepairCastling | kRepairEp | kRepairClock},
      // Nothing to repair.
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       kRepairNone},
  };
  for (const RepairCase& c : kRepair) {
    SCOPED_TRACE(c.in);
    Position pos;
    EXPECT_FALSE(c.repairs != kRepairNone && normalize_fen(c.in, pos).ok()) << "strict mode rejects it";
    NormalizeResult r = normalize_fen(c.in, pos, opts(EpPolicy::kLegal, true));
    ASSERT_TRUE(r.ok()) << error_name(r.code);
    EXPECT_EQ(r.repairs, c.repairs);
    EXPECT_EQ(to_fen(pos), c.out);
    // The repaired output is clean: strict mode accepts it unchanged.
    EXPECT_EQ(normalized(c.out), c.out);
  }
  // EP_CLOCK repair keeps the square under the keep policy.
  EXPECT_EQ(normalized("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 3 1", opts(EpPolicy::kKeep, true)),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  // What repair cannot fix stays an error.
  for (const char* fen : {"8/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
                          "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "8/8/8/4k3/3P4/5N2/8/4K3 b - - 0 1",
                          "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "4k3/8/8/8/44/8/8/4K3 w - - 0 1"}) {
    Position pos;
    EXPECT_FALSE(normalize_fen(fen, pos, opts(EpPolicy::kLegal, true)).ok()) << fen;
  }
}

TEST(FenErrors, ValidateDirectly) {
  Position pos;
  ASSERT_TRUE(parse_fen("r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", pos).ok());
  Position copy = pos;
  Verdict v = validate(copy);
  EXPECT_EQ(v.code, ErrorCode::kCastlingNoRook);
  EXPECT_EQ(copy, pos) << "strict validation leaves the position alone";
  v = validate(copy, true);
  EXPECT_TRUE(v.ok());
  EXPECT_EQ(v.repairs, kRepairCastling);
  EXPECT_EQ(copy.castling_rook[kWhite][kKingSide], kNoSquare);
  EXPECT_EQ(copy.castling_rook[kWhite][kQueenSide], sq("a1"));
  EXPECT_EQ(copy.castling_rook[kBlack][kKingSide], sq("h8"));
  // validate() does not apply an ep policy: a consistent but uncapturable ep square survives it.
  ASSERT_TRUE(parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", pos).ok());
  EXPECT_TRUE(validate(pos).ok());
  EXPECT_EQ(pos.ep_square, sq("e3"));
}

TEST(FenErrors, NormalizingIsIdempotent) {
  const char* kFens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
      "  rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR\tw KQkq d6 0 3\r",
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
      "4k3/8/8/8/8/8/8/3K2R1 w K - 0 1",
      "1r1k1r1r/8/8/8/8/8/8/1R1K1R1R w Ff - 0 1",
      "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
      "7k/8/8/K2pP2r/8/8/8/8 w - d6 0 2",
      "r3k2r/8/8/8/8/8/8/4K3 w KQkq e6 0 0",
      "8/8/8/8/8/8/8/4K2k",
  };
  for (const char* fen : kFens)
    for (EpPolicy p : {EpPolicy::kLegal, EpPolicy::kPseudo, EpPolicy::kKeep})
      for (bool repair : {false, true}) {
        SCOPED_TRACE(std::string(fen) + " policy " + std::to_string(int(p)) + " repair " + std::to_string(repair));
        NormalizeOptions o = opts(p, repair);
        std::string once = normalized(fen, o);
        if (once.rfind("ERROR", 0) == 0) continue;  // only the repair run accepts some
        EXPECT_EQ(normalized(once, o), once);
        EXPECT_EQ(normalized(once, opts(p, false, true)), once) << "same in chess960 mode";
      }
}

}  // namespace
}  // namespace fenmill
