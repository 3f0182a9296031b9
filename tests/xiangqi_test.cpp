// Xiangqi FEN core: every error code Xiangqi uses with a failing and a passing case (and the byte column of
// syntax errors), both letter sets, the trailer forms, attacks against a brute-force reference, keys, the
// binary record and variant detection.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "xiangqi/detect.h"
#include "xiangqi/errors.h"
#include "xiangqi/keys.h"
#include "xiangqi/normalize.h"
#include "xiangqi/record.h"
#include "xiangqi/write.h"

namespace fenmill::xiangqi {
namespace {

constexpr const char* kStartUcci = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
constexpr const char* kStartWxf = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1";

Square sq(std::string_view name) { return make_square(name[0] - 'a', name[1] - '0'); }

Bitboard points(std::initializer_list<std::string_view> names) {
  Bitboard b = 0;
  for (std::string_view n : names) b |= square_bb(sq(n));
  return b;
}

// The normalized FEN, or "ERROR <NAME>" so that a failure shows both in one string.
std::string normalized(std::string_view fen, Letters letters = Letters::kUcci) {
  Position pos;
  NormalizeResult r = normalize_fen(fen, pos);
  if (!r.ok()) return "ERROR " + std::string(error_name(r.code));
  return to_fen(pos, letters);
}

Position from_fen(std::string_view fen) {
  Position pos;
  NormalizeResult r = normalize_fen(fen, pos);
  EXPECT_TRUE(r.ok()) << fen << ": " << error_name(r.code);
  return pos;
}

struct Case {
  ErrorCode code;
  const char* bad;
  const char* good;      // a close variant that passes
  std::uint32_t column;  // expected 1-based column for syntax errors, 0 for semantic errors
};

// Generals only (d9, e0), 23 characters: fields start at columns 25 (side), 27 (castling), 29 (ep),
// 31 (halfmove), 33 (fullmove).
#define GENERALS "3k5/9/9/9/9/9/9/9/9/4K4"

const std::vector<Case>& cases() {
  static const std::vector<Case> kCases = {
      // ---- syntax (codes shared with chess) ----
      {ErrorCode::kEmptyRecord, "", GENERALS, 1},
      {ErrorCode::kEmptyRecord, " \t\r", GENERALS " w", 1},
      {ErrorCode::kRankCount, "3k5/9/9/9/9/9/9/9/4K4 w - - 0 1", GENERALS " w - - 0 1", 22},        // 9 ranks
      {ErrorCode::kRankCount, "3k5/9/9/9/9/9/9/9/9/9/4K4 w - - 0 1", GENERALS " w - - 0 1", 22},    // 11 ranks
      {ErrorCode::kRankCount, GENERALS "/ w - - 0 1", GENERALS " w - - 0 1", 24},                  // trailing '/'
      {ErrorCode::kRankSum, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", GENERALS " w - - 0 1", 4},            // a chess FEN
      {ErrorCode::kRankSum, "3k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", GENERALS " w - - 0 1", 4},
      {ErrorCode::kRankSum, "3k5a/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "3k1a3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 4},
      {ErrorCode::kRankSum, "3k6/9/9/9/9/9/9/9/9/4K4 w - - 0 1", GENERALS " w - - 0 1", 3},         // digit overflows
      {ErrorCode::kRankSum, "3k5/9/9/9/9/9/9/9/9/4K3 w - - 0 1", GENERALS " w - - 0 1", 24},        // last rank short
      {ErrorCode::kRankSum, "3k5/9/9//9/9/9/9/9/4K4 w - - 0 1", GENERALS " w - - 0 1", 9},          // empty rank
      {ErrorCode::kBadPiece, "3q5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", GENERALS " w - - 0 1", 2},         // chess queen
      {ErrorCode::kBadPiece, "3k5/9/9/9/9/9/9/9/9/4K3x w - - 0 1", "3k5/9/9/9/9/9/9/9/9/4K3h w - - 0 1", 24},
      {ErrorCode::kBadPiece, "3k5/9/9/9/0/9/9/9/9/4K4 w - - 0 1", GENERALS " w - - 0 1", 11},
      // Adjacent digits, as in 9 of the wukong puzzles ("15k3"): the second digit is the error.
      {ErrorCode::kBadPiece, "15k3/4P4/9/9/9/9/9/9/9/3K5 w - - 0 1", "5k3/4P4/9/9/9/9/9/9/9/3K5 w - - 0 1", 2},
      {ErrorCode::kFieldCount, GENERALS " w - - 0", GENERALS " w - - 0 1", 32},                     // 5 fields
      {ErrorCode::kBadSide, GENERALS " x - - 0 1", GENERALS " r - - 0 1", 25},
      {ErrorCode::kBadSide, GENERALS " W - - 0 1", GENERALS " w - - 0 1", 25},
      {ErrorCode::kBadSide, GENERALS " R - - 0 1", GENERALS " b - - 0 1", 25},
      {ErrorCode::kBadSide, GENERALS " wb - - 0 1", GENERALS " w - - 0 1", 26},
      {ErrorCode::kBadCastling, GENERALS " w K - 0 1", GENERALS " w - - 0 1", 27},
      {ErrorCode::kBadCastling, GENERALS " w -- - 0 1", GENERALS " w - - 0 1", 28},
      {ErrorCode::kBadEpSyntax, GENERALS " w - e3 0 1", GENERALS " w - - 0 1", 29},
      {ErrorCode::kBadEpSyntax, GENERALS " w - 0 1", GENERALS " w - - 0 1", 29},                   // one dash only
      {ErrorCode::kBadCastling, GENERALS " w 0 1", GENERALS " w - - 0 1", 27},                     // no dashes (docs/XIANGQI.md)
      {ErrorCode::kBadHalfmove, GENERALS " w - - x 1", GENERALS " w - - - 1", 31},
      {ErrorCode::kBadHalfmove, GENERALS " w - - -1 1", GENERALS " w - - 1 1", 32},  // a lone '-' is a clock
      {ErrorCode::kBadHalfmove, GENERALS " w - - -- 1", GENERALS " w - - - 1", 32},
      {ErrorCode::kBadHalfmove, GENERALS " w - - 1.5 1", GENERALS " w - - 15 1", 32},
      {ErrorCode::kBadFullmove, GENERALS " w - - 0 0", GENERALS " w - - 0 -", 33},
      {ErrorCode::kBadFullmove, GENERALS " w - - 0 x", GENERALS " w - - 0 1", 33},
      {ErrorCode::kBadFullmove, GENERALS " w - - 0 -x", GENERALS " w - - 0 -", 34},
      {ErrorCode::kClockRange, GENERALS " w - - 70000 1", GENERALS " w - - 65535 1", 31},
      {ErrorCode::kClockRange, GENERALS " w - - 0 1000001", GENERALS " w - - 0 1000000", 33},
      {ErrorCode::kTrailingText, GENERALS " w - - 0 1 x", GENERALS " w - - 0 1 \r", 35},
      {ErrorCode::kTrailingText, GENERALS " w - - - 1 2", GENERALS " w - - - 1", 35},
      // ---- semantics ----
      {ErrorCode::kMissingKing, "9/9/9/9/9/9/9/9/9/4K4 w - - 0 1", GENERALS " w - - 0 1", 0},
      {ErrorCode::kMissingKing, "3k5/9/9/9/9/9/9/9/9/9 b - - 0 1", GENERALS " b - - 0 1", 0},
      {ErrorCode::kTooManyKings, "3kk4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "3k1a3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 0},
      {ErrorCode::kTooManyKings, "3k5/9/9/9/9/9/9/9/4K4/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", 0},
      {ErrorCode::kXqGeneralOutsidePalace, "k8/9/9/9/9/9/9/9/9/4K4 w - - 0 1", GENERALS " w - - 0 1", 0},
      {ErrorCode::kXqGeneralOutsidePalace, "3k5/9/9/9/9/9/4K4/9/9/9 w - - 0 1", "3k5/9/9/9/9/9/9/4K4/9/9 w - - 0 1", 0},
      {ErrorCode::kXqGeneralOutsidePalace, "3k5/9/9/9/9/9/9/9/9/2K6 w - - 0 1", "3k5/9/9/9/9/9/9/9/9/5K3 b - - 0 1", 0},
      {ErrorCode::kXqTooManySoldiers, "3k5/9/9/PPPPPP3/9/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/PPPPP4/9/9/9/9/9/4K4 w - - 0 1", 0},
      {ErrorCode::kXqTooManySoldiers, "3k5/9/9/9/9/pppppp3/9/9/9/5K3 w - - 0 1", "3k5/9/9/9/9/ppppp4/9/9/9/5K3 w - - 0 1", 0},
      {ErrorCode::kXqTooManyPieces, "3k5/9/9/9/9/9/9/9/9/RRR1K4 w - - 0 1", "3k5/9/9/9/9/9/9/9/9/RR2K4 w - - 0 1", 0},
      {ErrorCode::kXqTooManyPieces, "3k5/9/9/9/9/9/9/9/4A4/3AKA3 w - - 0 1", "3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1", 0},
      {ErrorCode::kXqTooManyPieces, "3k5/9/9/9/9/9/9/B3B3B/9/2B1K4 w - - 0 1", "3k5/9/9/9/9/9/9/B3B4/9/4K4 w - - 0 1", 0},
      {ErrorCode::kXqTooManyPieces, "3k5/hhh6/9/9/9/9/9/9/9/4K4 w - - 0 1", "3k5/hh7/9/9/9/9/9/9/9/4K4 w - - 0 1", 0},
      {ErrorCode::kXqTooManyPieces, "3k5/9/ccc6/9/9/9/9/9/9/4K4 w - - 0 1", "3k5/9/cc7/9/9/9/9/9/9/4K4 w - - 0 1", 0},
      {ErrorCode::kXqAdvisorPoint, "3k5/9/9/9/9/9/9/4A4/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1", 0},  // e2 / d2
      {ErrorCode::kXqAdvisorPoint, "a2k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "3k1a3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 0},  // a9 / f9
      {ErrorCode::kXqAdvisorPoint, "3k5/9/9/9/9/9/9/9/9/4Ka3 w - - 0 1", "3k5/4a4/9/9/9/9/9/9/9/4K4 w - - 0 1", 0},  // f0: Red's palace
      {ErrorCode::kXqElephantPoint, "3k5/9/9/9/9/9/9/9/4B4/4K4 w - - 0 1", "3k5/9/9/9/9/9/9/4B4/9/4K4 w - - 0 1", 0},  // e1 / e2
      {ErrorCode::kXqElephantPoint, "3k5/9/9/9/2E6/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/2E6/9/9/9/4K4 w - - 0 1", 0},  // c5 is across the river / c4
      {ErrorCode::kXqElephantPoint, "3k5/9/9/9/9/9/9/9/9/4Kb3 w - - 0 1", "3k5/9/b8/9/9/9/9/9/9/4K4 w - - 0 1", 0},  // f0 / a7
      {ErrorCode::kXqSoldierBehind, "3k5/9/9/9/9/9/9/P8/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/P8/9/9/4K4 w - - 0 1", 0},  // a2 / a3
      {ErrorCode::kXqSoldierBehind, "3k5/9/p8/9/9/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/p8/9/9/9/9/9/4K4 w - - 0 1", 0},  // a7 / a6
      {ErrorCode::kXqSoldierBehind, "3k4p/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/8p/9/9/9/9/9/4K4 w - - 0 1", 0},  // i9 / i6
      {ErrorCode::kXqSoldierFile, "3k5/9/9/9/9/9/1P7/9/9/4K4 w - - 0 1", "3k5/9/9/9/1P7/9/9/9/9/4K4 w - - 0 1", 0},  // b3 / b5
      {ErrorCode::kXqSoldierFile, "3k5/9/9/9/9/3P5/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/9/2P6/9/9/9/4K4 w - - 0 1", 0},  // d4 / c4
      {ErrorCode::kXqSoldierFile, "3k5/9/9/9/7p1/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/9/8p/9/9/9/9/4K4 w - - 0 1", 0},  // h5 / i5
      {ErrorCode::kXqSoldierStacked, "3k5/9/9/9/9/P8/P8/9/9/4K4 w - - 0 1", "3k5/9/9/9/P8/P8/9/9/9/4K4 w - - 0 1", 0},  // a3+a4 / a4+a5
      {ErrorCode::kXqSoldierStacked, "3k5/9/9/8p/8p/9/9/9/9/4K4 w - - 0 1", "3k5/9/9/8p/9/8p/9/9/9/4K4 w - - 0 1", 0},  // i6+i5 / i6+i4
      {ErrorCode::kXqGeneralsFacing, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "4k4/9/9/9/4p4/9/9/9/9/4K4 w - - 0 1", 0},
      {ErrorCode::kXqGeneralsFacing, "5k3/9/9/9/9/9/9/9/5K3/9 b - - 0 1", "5k3/9/9/9/9/9/5H3/9/5K3/9 b - - 0 1", 0},
      {ErrorCode::kOppositeCheck, "3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1", 0},  // chariot
      {ErrorCode::kOppositeCheck, "3k5/9/9/9/3H5/9/9/9/9/3C1K3 w - - 0 1", "3k5/9/9/9/3H5/3H5/9/9/9/3C1K3 w - - 0 1", 0},  // cannon; two screens
      {ErrorCode::kOppositeCheck, "3k5/9/4H4/9/9/9/9/9/9/4K4 w - - 0 1", "3k5/4a4/4H4/9/9/9/9/9/9/4K4 w - - 0 1", 0},  // horse; leg e8 blocked
      {ErrorCode::kOppositeCheck, "3kP4/9/9/9/9/9/9/9/9/5K3 w - - 0 1", "3k5/4P4/9/9/9/9/9/9/9/5K3 w - - 0 1", 0},  // soldier sideways
      {ErrorCode::kOppositeCheck, "3k5/3P5/9/9/9/9/9/9/9/5K3 w - - 0 1", "3k5/3P5/9/9/9/9/9/9/9/5K3 b - - 0 1", 0},  // soldier forward
      {ErrorCode::kOppositeCheck, "3k5/9/9/9/9/9/9/9/9/4Kp3 b - - 0 1", "3k5/9/9/9/9/9/9/9/9/4Kp3 w - - 0 1", 0},  // Black soldier sideways
      {ErrorCode::kOppositeCheck, "3k5/9/9/9/9/9/9/9/2n6/4K4 b - - 0 1", "3k5/9/9/9/9/9/9/9/2nc5/4K4 b - - 0 1", 0},  // horse; leg d1 blocked
  };
  return kCases;
}

bool is_xiangqi_code(ErrorCode code) { return error_name(code).substr(0, 3) == "XQ_"; }

TEST(Xiangqi, EveryXiangqiCodeHasAFailingAndAPassingCase) {
  std::set<ErrorCode> covered;
  for (const Case& c : cases()) covered.insert(c.code);
  int xq = 0;
  for (int i = 1; i < kErrorCodeCount; ++i) {
    auto code = static_cast<ErrorCode>(i);
    if (!is_xiangqi_code(code)) continue;
    ++xq;
    EXPECT_TRUE(covered.count(code)) << "no Xiangqi test case for " << error_name(code);
    EXPECT_FALSE(is_syntax_error(code)) << error_name(code);
  }
  EXPECT_EQ(xq, 9);
  // The shared codes Xiangqi can produce.
  for (ErrorCode code : {ErrorCode::kEmptyRecord, ErrorCode::kRankCount, ErrorCode::kRankSum, ErrorCode::kBadPiece,
                         ErrorCode::kFieldCount, ErrorCode::kBadSide, ErrorCode::kBadCastling, ErrorCode::kBadEpSyntax,
                         ErrorCode::kBadHalfmove, ErrorCode::kBadFullmove, ErrorCode::kClockRange,
                         ErrorCode::kTrailingText, ErrorCode::kMissingKing, ErrorCode::kTooManyKings,
                         ErrorCode::kOppositeCheck})
    EXPECT_TRUE(covered.count(code)) << "no Xiangqi test case for " << error_name(code);
}

TEST(Xiangqi, EachCaseFailsWithExactlyItsCodeAndTheVariantPasses) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(std::string(error_name(c.code)) + " | bad: " + c.bad + " | good: " + c.good);
    Position pos;
    NormalizeResult bad = normalize_fen(c.bad, pos);
    EXPECT_EQ(error_name(bad.code), error_name(c.code));
    EXPECT_EQ(bad.column, c.column);
    EXPECT_EQ(is_syntax_error(c.code), c.column != 0);
    if (!is_syntax_error(c.code) && c.code != ErrorCode::kMissingKing) {
      EXPECT_NE(bad.squares, Bitboard(0)) << "a semantic error names its points";
    }
    NormalizeResult good = normalize_fen(c.good, pos);
    EXPECT_EQ(error_name(good.code), "OK");
  }
}

TEST(Xiangqi, VerdictPoints) {
  Position pos;
  EXPECT_EQ(normalize_fen("k8/9/9/9/9/9/9/9/9/4K4", pos).squares, points({"a9"}));
  EXPECT_EQ(normalize_fen("4k4/9/9/9/9/9/9/9/9/4K4", pos).squares, points({"e9", "e0"}));
  EXPECT_EQ(normalize_fen("3k5/9/9/9/9/P8/P8/9/9/4K4", pos).squares, points({"a3", "a4"}));
  EXPECT_EQ(normalize_fen("3k5/9/9/9/9/9/1P7/P8/9/4K4", pos).squares, points({"a2"}));  // behind before file
  EXPECT_EQ(normalize_fen("3k5/9/4H4/9/9/9/9/9/9/3RK4 w", pos).squares, points({"e7", "d0", "d9"}));
  EXPECT_EQ(normalize_fen("3k5/9/9/9/3H5/9/9/9/9/3C1K3 w", pos).squares, points({"d0", "d9"}));
  // A flipped board (Red's general on e9, Black's on d0) gets the hint.
  NormalizeResult flipped = normalize_fen("4K4/9/9/9/9/9/9/9/9/3k5 w - - 0 1", pos);
  EXPECT_EQ(error_name(flipped.code), "XQ_GENERAL_PALACE");
  EXPECT_EQ(flipped.hints, kHintFlipped);
  EXPECT_EQ(normalize_fen("k8/9/9/9/9/9/9/9/9/4K4", pos).hints, kHintNone);
}

TEST(Xiangqi, SideToMoveMayBeInCheck) {
  EXPECT_EQ(normalized("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"), "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1");
  Position pos = from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1");
  EXPECT_EQ(checkers_of(pos, kRed), points({"d0"}));
  EXPECT_EQ(checkers_of(pos, kBlack), Bitboard(0));
}

TEST(Xiangqi, StartPositionInBothLetterSets) {
  for (const char* fen : {kStartUcci, kStartWxf}) {
    SCOPED_TRACE(fen);
    Position pos;
    NormalizeResult r = normalize_fen(fen, pos);
    ASSERT_TRUE(r.ok()) << error_name(r.code);
    EXPECT_EQ(to_fen(pos, Letters::kUcci), kStartUcci);
    EXPECT_EQ(to_fen(pos, Letters::kWxf), kStartWxf);
    EXPECT_EQ(popcount(pos.occupied()), 32);
    EXPECT_EQ(pos.general_square(kRed), sq("e0"));
    EXPECT_EQ(pos.general_square(kBlack), sq("e9"));
    EXPECT_EQ(pos.pieces(kRed, kElephant), points({"c0", "g0"}));
    EXPECT_EQ(pos.pieces(kBlack, kHorse), points({"b9", "h9"}));
    EXPECT_EQ(pos.pieces(kRed, kCannon), points({"b2", "h2"}));
    EXPECT_EQ(pos.pieces(kBlack, kSoldier), points({"a6", "c6", "e6", "g6", "i6"}));
  }
  Position pos;
  EXPECT_EQ(normalize_fen(kStartUcci, pos).letters_seen, kSeenUcci);
  EXPECT_EQ(normalize_fen(kStartWxf, pos).letters_seen, kSeenWxf);
  EXPECT_EQ(normalize_fen("3k5/9/9/9/9/9/9/9/9/4K4", pos).letters_seen, 0);
  // Mixed letters parse too (each letter means one piece); the writer uses one set.
  EXPECT_EQ(normalized("rneakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHBAKABNR w - - 0 1"), kStartUcci);
  EXPECT_EQ(normalize_fen("rneakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHBAKABNR", pos).letters_seen,
            kSeenUcci | kSeenWxf);
}

// The worked example of the project's Xiangqi document (a composed endgame). It is valid under every rule
// here: Red's general is on e0; Black's general 'k' is on f7 (third rank from the top: "r4khPH" is rank 7),
// the front right corner of Black's palace (files d-f, ranks 7-9), not f8. Red's soldiers (h7, g6, f5) and
// Black's (f4, d1, f1, g1) have all crossed the river, the generals are on different files, 2 chariots /
// 2 cannons / 2 horses at most per side, and Black (not to move) is not attacked: the horse on i7 has both
// legs towards f7 blocked or points elsewhere, the cannons on c0/c1 have no screen on the f file or rank 7.
TEST(Xiangqi, DocumentExample) {
  const char* doc = "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1";
  Position pos;
  NormalizeResult r = normalize_fen(doc, pos);
  ASSERT_TRUE(r.ok()) << error_name(r.code);
  EXPECT_EQ(r.fields, 6);
  EXPECT_EQ(r.letters_seen, kSeenWxf);
  EXPECT_EQ(pos.general_square(kBlack), sq("f7"));
  EXPECT_EQ(pos.general_square(kRed), sq("e0"));
  EXPECT_EQ(pos.halfmove_clock, 0);  // '-' becomes 0
  EXPECT_EQ(pos.fullmove_number, 1u);
  EXPECT_EQ(checkers_of(pos, kRed), Bitboard(0));
  EXPECT_EQ(checkers_of(pos, kBlack), Bitboard(0));  // the horse on f2 is blocked by the soldier on f1
  EXPECT_EQ(to_fen(pos, Letters::kWxf), "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - 0 1");
  EXPECT_EQ(to_fen(pos, Letters::kUcci), "9/9/r4knPN/6P2/5P3/5p3/3r5/5n3/2Cp1pp2/1RCcK3c w - - 0 1");
  // Moving Black's general one point back to f8 keeps it in the palace; to g7 takes it out.
  EXPECT_EQ(normalized("9/5k3/r5hPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1"),
            "9/5k3/r5nPN/6P2/5P3/5p3/3r5/5n3/2Cp1pp2/1RCcK3c w - - 0 1");
  EXPECT_EQ(normalized("9/9/r5khH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1"), "ERROR XQ_GENERAL_PALACE");
}

TEST(Xiangqi, TrailerForms) {
  const std::string placement = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
  struct Form {
    std::string text;
    std::string expected;
    int fields;
  };
  const Form forms[] = {
      {placement, placement + " w - - 0 1", 1},
      {placement + " w", placement + " w - - 0 1", 2},
      {placement + " r", placement + " w - - 0 1", 2},
      {placement + " b", placement + " b - - 0 1", 2},
      {placement + " b -", placement + " b - - 0 1", 3},
      {placement + " w - -", placement + " w - - 0 1", 4},
      {placement + " w - - 0 1", placement + " w - - 0 1", 6},
      {placement + " w - - - 1", placement + " w - - 0 1", 6},
      {placement + " b - - - -", placement + " b - - 0 1", 6},
      {placement + " b - - 12 - ", placement + " b - - 12 1", 6},
      {placement + " b - - 7 42", placement + " b - - 7 42", 6},
      {"  " + placement + "\tw  -  -  3  9\r", placement + " w - - 3 9", 6},
  };
  for (const Form& f : forms) {
    SCOPED_TRACE(f.text);
    Position pos;
    NormalizeResult r = normalize_fen(f.text, pos);
    ASSERT_TRUE(r.ok()) << error_name(r.code) << " at " << r.column;
    EXPECT_EQ(r.fields, f.fields);
    EXPECT_EQ(r.completed(), f.fields < 2);
    EXPECT_EQ(to_fen(pos), f.expected);
  }
}

// EPD operations (allow_operations) follow the fourth or the sixth field, or a ';' right after either, as in chess;
// hmvc / fmvn set the clocks; a fifth field that is no clock starts them (and "5x" is no opcode).
TEST(Xiangqi, EpdOperationsAsInChess) {
  NormalizeOptions epd;
  epd.allow_operations = true;
  struct Case {
    std::string text, fen, operations;
  };
  const Case cases[] = {
      {GENERALS " w - - bm h2e2; hmvc 3;", GENERALS " w - - 3 1", "bm h2e2; hmvc 3;"},
      {GENERALS " w - -;hmvc 3;", GENERALS " w - - 3 1", ";hmvc 3;"},
      {GENERALS " w - - 5 9; id \"q\";", GENERALS " w - - 5 9", "; id \"q\";"},
      {GENERALS " b - - - 9 fmvn 4;", GENERALS " b - - 0 4", "fmvn 4;"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    Position pos;
    NormalizeResult r = normalize_fen(c.text, pos, epd);
    ASSERT_TRUE(r.ok()) << error_name(r.code) << " at " << r.column;
    EXPECT_EQ(to_fen(pos), c.fen);
    EXPECT_EQ(c.text.substr(r.rest), c.operations);
    EXPECT_FALSE(normalize_fen(c.text, pos).ok()) << "without allow_operations they are an error";
  }
  Position pos;
  NormalizeResult r = normalize_fen(GENERALS " w - - 5x 3", pos, epd);
  EXPECT_EQ(error_name(r.code), "TRAILING_TEXT");
  EXPECT_EQ(r.column, std::string_view(GENERALS " w - - ").size() + 1);
  EXPECT_EQ(error_name(normalize_fen(GENERALS " w - - 5x 3", pos).code), "BAD_HALFMOVE");
  EXPECT_EQ(error_name(normalize_fen(GENERALS " w - - 0; bm h2e2", pos, epd).code), "FIELD_COUNT");
}

TEST(Xiangqi, RepairModeFixesFullmoveZero) {
  Position pos;
  NormalizeOptions options;
  options.repair = true;
  NormalizeResult r = normalize_fen(GENERALS " w - - 0 0", pos, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.repairs, 4);  // fenmill::kRepairClock
  EXPECT_EQ(to_fen(pos), GENERALS " w - - 0 1");
  EXPECT_EQ(normalize_fen(GENERALS " w - - 0 1", pos, options).repairs, 0);
}

TEST(Xiangqi, NormalizeIsIdempotentInBothLetterSets) {
  const char* fens[] = {kStartUcci, kStartWxf, "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1",
                        "2bak4/4a4/9/8p/2b1c1p2/2P1n4/3R5/3CB4/4A4/2BAKC2r b - - 0 1", GENERALS " b - - 65535 1000000"};
  for (const char* fen : fens)
    for (Letters letters : {Letters::kUcci, Letters::kWxf}) {
      std::string once = normalized(fen, letters);
      ASSERT_EQ(once.substr(0, 5) == "ERROR", false) << fen << ": " << once;
      EXPECT_EQ(normalized(once, letters), once);
      EXPECT_EQ(normalized(once, letters == Letters::kUcci ? Letters::kWxf : Letters::kUcci),
                normalized(fen, letters == Letters::kUcci ? Letters::kWxf : Letters::kUcci));
    }
}

TEST(Xiangqi, WriterBufferBound) {
  // The longest FEN: a piece on every point (not a valid position, but the writer must still fit).
  std::string full;
  for (int r = 0; r < 10; ++r) {
    if (r) full += '/';
    full += "RRRRRRRRR";
  }
  Position pos;
  ASSERT_TRUE(parse_fen(full + " b - - 65535 1000000", pos).ok());
  char out[kMaxFenLength];
  std::size_t n = write_fen(pos, out);
  EXPECT_LE(n, kMaxFenLength);
  EXPECT_EQ(std::string(out, n), full + " b - - 65535 1000000");
}

// The shuffle writer and the point-by-point one: the same placement for random boards (0 to 90 pieces, each point a
// random colour and type) and the repo's Xiangqi sample, in both letter sets.
TEST(Xiangqi, PlacementWriterAgreesWithThePortableOne) {
  std::vector<Position> positions;
  std::ifstream sample(std::string(FENMILL_SOURCE_DIR) + "/tests/data/xiangqi_sample.fen");
  for (std::string line; std::getline(sample, line);) {
    Position pos;
    if (parse_fen(line, pos).ok()) positions.push_back(pos);
  }
  ASSERT_GT(positions.size(), 10u);
  std::mt19937_64 rng(90);
  for (int i = 0; i < 20000; ++i) {
    Position pos;
    pos.clear();
    const int density = static_cast<int>(rng() % 101);
    for (int s = 0; s < kSquareCount; ++s)
      if (static_cast<int>(rng() % 100) < density) pos.put(Color(rng() % 2), PieceType(rng() % kPieceTypeCount), Square(s));
    positions.push_back(pos);
  }
  for (const Position& pos : positions)
    for (Letters letters : {Letters::kUcci, Letters::kWxf}) {
      char a[kMaxFenLength], b[kMaxFenLength];
      const std::size_t n = write_placement(pos, a, letters);
      ASSERT_EQ(std::string(a, n), std::string(b, write_placement_portable(pos, b, letters)));
    }
}

// Random edits of real FENs: never a crash (run under the sanitizers), a syntax error's column inside the record,
// and whatever is accepted writes back to a FEN that reads as the same position.
TEST(Xiangqi, MutatedFensRoundTripOrFailCleanly) {
  const std::string seeds[] = {kStartUcci, kStartWxf, "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1",
                               "2bak4/4a4/9/8p/2b1c1p2/2P1n4/3R5/3CB4/4A4/2BAKC2r b - - 0 1", GENERALS};
  const char alphabet[] = "KABNRCPEHkabnrcpeh0123456789/ -wrbx\t";
  std::mt19937 rng(99);
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 100000; ++trial) {
    std::string fen = seeds[rng() % std::size(seeds)];
    for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0; --edits) {
      std::size_t at = rng() % (fen.size() + 1);
      char c = alphabet[rng() % (sizeof alphabet - 1)];
      switch (rng() % 3) {
        case 0: if (at < fen.size()) fen[at] = c; break;
        case 1: fen.insert(fen.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default: if (at < fen.size()) fen.erase(at, 1); break;
      }
    }
    Position pos;
    ParseResult r = parse_fen(fen, pos);
    if (!r.ok()) {
      ++rejected;
      ASSERT_TRUE(is_syntax_error(r.code)) << fen;
      ASSERT_GE(r.column, 1u) << fen;
      ASSERT_LE(r.column, fen.size() + 1) << fen;
      continue;
    }
    ++accepted;
    for (Letters letters : {Letters::kUcci, Letters::kWxf}) {
      std::string written = to_fen(pos, letters);
      Position again;
      ASSERT_TRUE(parse_fen(written, again).ok()) << fen << " -> " << written;
      ASSERT_TRUE(again == pos) << fen << " -> " << written;
    }
    validate(pos);  // any parsed position, valid or not, is safe to validate
  }
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(rejected, 10000);
}

// ---- attacks ----

// A brute-force reference: which pieces attack point s, by walking every piece's forward attacks.
Bitboard reference_attackers(const Position& pos, Square s, Color by) {
  Bitboard occ = pos.occupied(), found = 0;
  for (Bitboard b = pos.by_color[by]; b; b &= b - 1) {
    Square from = lsb(b);
    Bitboard att = 0;
    switch (pos.type_on(from)) {
      case kGeneral: att = general_attacks(by, from); break;
      case kAdvisor: att = advisor_attacks(by, from); break;
      case kElephant: att = elephant_attacks(by, from, occ); break;
      case kHorse: att = horse_attacks(from, occ); break;
      case kChariot: att = chariot_attacks(from, occ); break;
      case kCannon: att = cannon_attacks(from, occ); break;
      case kSoldier: att = soldier_attacks(by, from); break;
      default: break;
    }
    if (att & square_bb(s)) found |= square_bb(from);
  }
  return found;
}

TEST(XiangqiAttacks, PieceRules) {
  Bitboard none = 0;
  EXPECT_EQ(chariot_attacks(sq("a0"), none), (kFileBB[0] | rank_bb(0)) & ~points({"a0"}));
  // Cannon on b2 with screens on b5 and e2: attacks beyond each screen up to the next piece (b6 b7, f2 g2).
  Bitboard occ = points({"b2", "b5", "b7", "b9", "e2", "g2", "i2"});
  EXPECT_EQ(cannon_attacks(sq("b2"), occ), points({"b6", "b7", "f2", "g2"}));
  EXPECT_EQ(cannon_attacks(sq("b2"), points({"b2", "b3"})), points({"b4", "b5", "b6", "b7", "b8", "b9"}));
  EXPECT_EQ(cannon_attacks(sq("b2"), points({"b2"})), none);
  // Horse on e4: 8 jumps when free; a piece on e5 blocks the two forward jumps (d6, f6).
  EXPECT_EQ(horse_attacks(sq("e4"), none), points({"d6", "f6", "d2", "f2", "c5", "c3", "g5", "g3"}));
  EXPECT_EQ(horse_attacks(sq("e4"), points({"e5"})), points({"d2", "f2", "c5", "c3", "g5", "g3"}));
  EXPECT_EQ(horse_attacks(sq("a0"), none), points({"b2", "c1"}));
  // Elephant on e2: four points, blocked by an eye piece, never across the river.
  EXPECT_EQ(elephant_attacks(kRed, sq("e2"), none), points({"c0", "g0", "c4", "g4"}));
  EXPECT_EQ(elephant_attacks(kRed, sq("e2"), points({"d3"})), points({"c0", "g0", "g4"}));
  EXPECT_EQ(elephant_attacks(kRed, sq("c4"), none), points({"a2", "e2"}));
  EXPECT_EQ(elephant_attacks(kBlack, sq("c5"), none), points({"a7", "e7"}));
  EXPECT_EQ(advisor_attacks(kRed, sq("e1")), points({"d0", "f0", "d2", "f2"}));
  EXPECT_EQ(advisor_attacks(kRed, sq("d0")), points({"e1"}));
  EXPECT_EQ(general_attacks(kRed, sq("e1")), points({"d1", "f1", "e0", "e2"}));
  EXPECT_EQ(general_attacks(kBlack, sq("d9")), points({"e9", "d8"}));
  // Soldiers: forward only before the river, then sideways too; never backwards.
  EXPECT_EQ(soldier_attacks(kRed, sq("c3")), points({"c4"}));
  EXPECT_EQ(soldier_attacks(kRed, sq("c4")), points({"c5"}));
  EXPECT_EQ(soldier_attacks(kRed, sq("c5")), points({"c6", "b5", "d5"}));
  EXPECT_EQ(soldier_attacks(kRed, sq("i9")), points({"h9"}));
  EXPECT_EQ(soldier_attacks(kBlack, sq("c6")), points({"c5"}));
  EXPECT_EQ(soldier_attacks(kBlack, sq("c4")), points({"c3", "b4", "d4"}));
  EXPECT_EQ(soldier_attacks(kBlack, sq("a0")), points({"b0"}));
}

TEST(XiangqiAttacks, ReverseLookupMatchesBruteForce) {
  std::mt19937 rng(20240501);
  for (int trial = 0; trial < 3000; ++trial) {
    Position pos;
    pos.clear();
    int pieces = 2 + static_cast<int>(rng() % 40);
    for (int i = 0; i < pieces; ++i) {
      Square s = Square(rng() % kSquareCount);
      if (pos.occupied() & square_bb(s)) continue;
      pos.put(Color(rng() & 1), PieceType(rng() % kPieceTypeCount), s);
    }
    for (int s = 0; s < kSquareCount; ++s)
      for (Color by : {kRed, kBlack})
        ASSERT_EQ(pos.attackers(Square(s), by), reference_attackers(pos, Square(s), by))
            << to_fen(pos) << " point " << s << " by " << int(by);
  }
}

// ---- keys ----

TEST(XiangqiKeys, Levels) {
  Position a = from_fen(kStartUcci), b = from_fen(kStartWxf);
  for (KeyLevel level : {KeyLevel::kFull, KeyLevel::kPosition, KeyLevel::kPlacementSide, KeyLevel::kPlacement})
    EXPECT_EQ(dedup_key(a, level), dedup_key(b, level)) << "letters do not matter";
  Position black = from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
  Position clocks = from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 8 30");
  EXPECT_NE(dedup_key(a, KeyLevel::kFull), dedup_key(clocks, KeyLevel::kFull));
  EXPECT_EQ(dedup_key(a, KeyLevel::kPosition), dedup_key(clocks, KeyLevel::kPosition));
  EXPECT_NE(dedup_key(a, KeyLevel::kPosition), dedup_key(black, KeyLevel::kPosition));
  EXPECT_NE(dedup_key(a, KeyLevel::kPlacementSide), dedup_key(black, KeyLevel::kPlacementSide));
  EXPECT_EQ(dedup_key(a, KeyLevel::kPlacement), dedup_key(black, KeyLevel::kPlacement));
  // The level is hashed: the same position gives different keys at different levels.
  std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
  for (KeyLevel level : {KeyLevel::kFull, KeyLevel::kPosition, KeyLevel::kPlacementSide, KeyLevel::kPlacement}) {
    Key128 k = dedup_key(a, level);
    EXPECT_TRUE(seen.insert({k.lo, k.hi}).second);
  }
  // One piece moved changes the key; a piece on a high point (above bit 63) counts too.
  Position moved = from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
  moved.by_color[kBlack] ^= points({"a9", "a8"});
  moved.by_type[kChariot] ^= points({"a9", "a8"});
  EXPECT_NE(dedup_key(a, KeyLevel::kPlacement), dedup_key(moved, KeyLevel::kPlacement));
}

// ---- binary record ----

using Record = std::array<std::uint8_t, kRecordSize>;

Record encode(const Position& pos) {
  Record r;
  encode_record(pos, r.data());
  return r;
}

TEST(XiangqiRecord, StartPositionBytes) {
  // The example in docs/XIANGQI.md. Occupancy: rank 0 (bits 0-8), b2 h2 (19, 25), soldiers a3 c3 e3 g3 i3
  // (27 29 31 33 35), the same mirrored for Black (54 56 58 60 62; 64 70; 81-89).
  const Record expected = {0xFF, 0x01, 0x08, 0xAA, 0x0A, 0x00, 0x40, 0x55,  // occupancy, bits 0-63
                           0x41, 0x00, 0xFE, 0x03,                          // bits 64-95
                           0x34, 0x12, 0x10, 0x32,                          // R H E A K A E H: 4 3 2 1 0 1 2 3
                           0x54, 0x65, 0x66, 0x66,                          // R, C C, P P P P P: 4, 5 5, 6 x5
                           0xDD, 0xDD, 0xCD, 0xBC,                          // p x5, c c, r: 13 x5, 12 12, 11
                           0x9A, 0x78, 0x98, 0xBA,                          // h e a k a e h r: 10 9 8 7 8 9 10 11
                           0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00};  // w, 0, 1, reserved
  EXPECT_EQ(encode(from_fen(kStartUcci)), expected);
}

TEST(XiangqiRecord, SideAndClockBytes) {
  Record r = encode(from_fen(GENERALS " b - - 65535 1000000"));
  EXPECT_EQ(r[28], 1);
  EXPECT_EQ(r[29], 0xFF);
  EXPECT_EQ(r[30], 0xFF);
  EXPECT_EQ(r[31] | r[32] << 8 | r[33] << 16 | r[34] << 24, 1000000);
  EXPECT_EQ(r[35], 0);
}

TEST(XiangqiRecord, RoundTrip) {
  for (const char* fen : {kStartUcci, "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1",
                          GENERALS " b - - 65535 1000000", "2bak4/4a4/9/8p/2b1c1p2/2P1n4/3R5/3CB4/4A4/2BAKC2r b - - 3 77"}) {
    Position pos = from_fen(fen);
    Record r = encode(pos);
    Position back;
    ASSERT_TRUE(decode_record(r.data(), back)) << fen;
    EXPECT_TRUE(back == pos) << fen;
    EXPECT_EQ(to_fen(back), to_fen(pos));
    EXPECT_EQ(encode(back), r);
  }
}

TEST(XiangqiRecord, DecodeRejectsMalformedRecords) {
  const Record good = encode(from_fen(kStartUcci));
  Position pos;
  ASSERT_TRUE(decode_record(good.data(), pos));
  auto rejected = [&](auto change) {
    Record r = good;
    change(r);
    return !decode_record(r.data(), pos);
  };
  EXPECT_TRUE(rejected([](Record& r) { r[11] |= 0x04; }));   // occupancy bit 90
  EXPECT_TRUE(rejected([](Record& r) { r[11] |= 0x80; }));   // occupancy bit 95
  EXPECT_TRUE(rejected([](Record& r) { r[5] |= 0x01; }));    // a 33rd piece
  EXPECT_TRUE(rejected([](Record& r) { r[12] = 0x3E; }));    // code 14
  EXPECT_TRUE(rejected([](Record& r) { r[12] = 0xF4; }));    // code 15
  EXPECT_TRUE(rejected([](Record& r) { r[28] = 2; }));       // unknown flag
  EXPECT_TRUE(rejected([](Record& r) { r[35] = 1; }));       // reserved byte
  EXPECT_TRUE(rejected([](Record& r) { r[31] = 0; }));       // fullmove 0
  EXPECT_TRUE(rejected([](Record& r) { r[31] = 0x41; r[32] = 0x42; r[33] = 0x0F; }));  // 1000001
  EXPECT_FALSE(rejected([](Record& r) { r[31] = 0x40; r[32] = 0x42; r[33] = 0x0F; })); // 1000000
  // A stray nibble after the last piece.
  Record few = encode(from_fen(GENERALS));
  few[13] = 0x10;
  EXPECT_FALSE(decode_record(few.data(), pos));
}

TEST(XiangqiRecord, AnyBytesAreSafeAndAcceptedOnesReencode) {
  std::mt19937 rng(7);
  int accepted = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    Record r;
    for (auto& byte : r) byte = static_cast<std::uint8_t>(rng());
    if (trial & 1) {
      // Mostly plausible: sparse occupancy, codes 0-13, clean tail; then one random byte flipped.
      for (int i = 0; i < 12; ++i) r[i] &= static_cast<std::uint8_t>(rng() & rng() & rng());
      r[11] &= 0x03;
      Bitboard occ = 0;
      for (int i = 0; i < 12; ++i) occ |= Bitboard(r[i]) << (8 * i);
      int count = popcount(occ);
      for (int n = 0; n < 32; ++n) {
        unsigned code = n < count ? rng() % 14 : 0;
        std::uint8_t& byte = r[12 + n / 2];
        byte = static_cast<std::uint8_t>((byte & ~(0xF << (4 * (n & 1)))) | (code << (4 * (n & 1))));
      }
      r[28] &= 1;
      r[33] = r[34] = 0;
      r[31] |= 1;
      r[35] = 0;
      if (trial % 4 == 1) r[rng() % kRecordSize] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
    }
    Position pos;
    if (!decode_record(r.data(), pos)) continue;
    ++accepted;
    EXPECT_EQ(encode(pos), r);
  }
  EXPECT_GT(accepted, 30000);
}

// ---- variant detection and messages ----

TEST(Xiangqi, LooksLikeXiangqi) {
  EXPECT_TRUE(looks_like_xiangqi(kStartUcci));
  EXPECT_TRUE(looks_like_xiangqi(kStartWxf));
  EXPECT_TRUE(looks_like_xiangqi("  9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1"));
  EXPECT_TRUE(looks_like_xiangqi("3k5/9/9/9/9/9/9/9/4K4"));  // 9 ranks, but Xiangqi digits
  EXPECT_FALSE(looks_like_xiangqi("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  EXPECT_FALSE(looks_like_xiangqi("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(looks_like_xiangqi("4k3/8/8/8/8/8/8/4K3 w - - 0 1 c9/9/9/9/9/9/9/9/9/9"));  // only the first field
  EXPECT_FALSE(looks_like_xiangqi(""));
  // Read 16 bytes at a time: the same verdict as a plain reading of the rule for random texts of every length, with
  // blanks, slashes and the Xiangqi-only characters anywhere (before and after the first field's end).
  auto rule = [](std::string_view r) {
    std::size_t i = r.find_first_not_of(" \t");
    if (i == std::string_view::npos) return false;
    const std::size_t end = std::min(r.find_first_of(" \t", i), r.size());
    int slashes = 0;
    bool only = false;
    for (char ch : r.substr(i, end - i)) {
      slashes += ch == '/';
      only = only || std::string_view("9aAcCeEhH").find(ch) != std::string_view::npos;
    }
    return slashes == 9 || (slashes != 7 && only);
  };
  std::mt19937 rng(33);
  const std::string_view pool = "/////////12345678kKrRpP 9aCeh\t";
  for (int round = 0; round < 200000; ++round) {
    std::string r(rng() % 60, ' ');
    for (char& ch : r) ch = pool[rng() % pool.size()];
    ASSERT_EQ(looks_like_xiangqi(r), rule(r)) << r;
  }
}

TEST(Xiangqi, GeneralCountDetailNamesTheSide) {
  const std::pair<const char*, std::string_view> cases[] = {
      {"3k5/9/9/9/9/9/9/9/9/9 w - - 0 1", "Red has none"},
      {"9/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "Black has none"},
      {"9/9/9/9/9/9/9/9/9/9 w - - 0 1", "neither side has one"},
      {"3k5/9/9/9/9/9/9/9/9/3KK4 w - - 0 1", "Red has more than one"},
      {"3kk4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "Black has more than one"},
      {"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", ""},
  };
  for (const auto& [fen, detail] : cases) {
    SCOPED_TRACE(fen);
    Position pos;
    ASSERT_TRUE(parse_fen(fen, pos).ok());
    EXPECT_EQ(general_count_detail(pos), detail);
  }
}

TEST(Xiangqi, MessagesUseXiangqiWords) {
  EXPECT_NE(message_for(ErrorCode::kRankCount).find("10 ranks"), std::string_view::npos);
  EXPECT_NE(message_for(ErrorCode::kRankSum).find("9 points"), std::string_view::npos);
  EXPECT_NE(message_for(ErrorCode::kMissingKing).find("general"), std::string_view::npos);
  EXPECT_EQ(message_for(ErrorCode::kXqGeneralsFacing), error_message(ErrorCode::kXqGeneralsFacing));
  EXPECT_EQ(message_for(ErrorCode::kTrailingText), error_message(ErrorCode::kTrailingText));
}

TEST(Xiangqi, EveryCodeIsDocumented) {
  std::ifstream in(std::string(FENMILL_SOURCE_DIR) + "/docs/XIANGQI.md");
  ASSERT_TRUE(in) << "docs/XIANGQI.md is missing";
  std::stringstream ss;
  ss << in.rdbuf();
  std::string doc = ss.str();
  for (int i = 1; i < kErrorCodeCount; ++i) {
    auto code = static_cast<ErrorCode>(i);
    if (!is_xiangqi_code(code)) continue;
    std::string heading = "### `" + std::string(error_name(code)) + "`";
    EXPECT_NE(doc.find(heading), std::string::npos) << heading << " missing from docs/XIANGQI.md";
  }
}

}  // namespace
}  // namespace fenmill::xiangqi
