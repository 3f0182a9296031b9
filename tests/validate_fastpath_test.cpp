// validate() answers the common position (one king each, plain material, standard or no castling rights, no ep
// square) on a fast path and leaves everything else to the rule-by-rule checks. Whatever path it takes, its Verdict
// (code, squares, repairs, hints) and the position it leaves behind (repair mode drops rights) must be exactly those
// of the validator as it stood before the fast path (tests/validate_reference.h): on real positions and on random
// mutations of them (pieces moved, added, removed; side flipped; castling rights and ep squares set, sensible or
// not; clocks), in both modes, with every semantic ErrorCode hit. FENMILL_VALIDATE_CORPUS=path adds a FEN file's
// lines (e.g. the 8 M-line bench corpus) to the samples.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "fen/errors.h"
#include "fen/parse.h"
#include "fen/validate.h"
#include "validate_reference.h"

namespace fenmill {
namespace {

std::vector<Position> sample_positions() {
  std::vector<Position> out;
  for (const char* name : {"/tests/data/not_in_check_sample.fen", "/tests/data/demo.fen", "/bench/data/lichess-20k.fen"}) {
    std::ifstream in(std::string(FENMILL_SOURCE_DIR) + name);
    for (std::string line; std::getline(in, line);)
      for (bool chess960 : {false, true}) {  // KQkq read as X-FEN: other rook squares with a king off e1/e8
        ParseOptions options;
        options.chess960 = chess960;
        Position pos;
        if (parse_fen(line, pos, options).ok()) out.push_back(pos);
      }
  }
  return out;
}

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : rng_(seed) {}

  void mutate(Position& pos) {
    switch (below(12)) {
      case 0: {  // move a piece, capturing whatever stands there
        Square from = random_square(pos.occupied()), to = Square(below(64));
        if (from == kNoSquare || from == to) break;
        Color c = pos.color_on(from);
        PieceType t = pos.type_on(from);
        pos.remove(from);
        pos.remove(to);
        pos.put(c, t, to);
        break;
      }
      case 1: {  // add pieces
        for (int n = 1 + below(below(4) == 0 ? 12 : 2); n; --n) {
          Square s = Square(below(64));
          pos.remove(s);
          pos.put(Color(below(2)), PieceType(below(below(8) == 0 ? 6 : 5)), s);
        }
        break;
      }
      case 2:  // remove a piece
        if (Square s = random_square(pos.occupied()); s != kNoSquare) pos.remove(s);
        break;
      case 3: pos.side_to_move = ~pos.side_to_move; break;
      case 4:
      case 5: {  // one castling right: none, the standard corner, a back-rank square, anywhere
        Color c = Color(below(2));
        CastlingSide side = CastlingSide(below(2));
        int back = c == kWhite ? 0 : 56;
        switch (below(4)) {
          case 0: pos.castling_rook[c][side] = kNoSquare; break;
          case 1: pos.castling_rook[c][side] = Square(back + (side == kKingSide ? 7 : 0)); break;
          case 2: pos.castling_rook[c][side] = Square(back + below(8)); break;
          default: pos.castling_rook[c][side] = Square(below(64)); break;
        }
        break;
      }
      case 6:  // all standard rights, or none
        if (below(2)) {
          pos.castling_rook[kWhite][kKingSide] = 7, pos.castling_rook[kWhite][kQueenSide] = 0;
          pos.castling_rook[kBlack][kKingSide] = 63, pos.castling_rook[kBlack][kQueenSide] = 56;
        } else {
          pos.castling_rook[0][0] = pos.castling_rook[0][1] = pos.castling_rook[1][0] = pos.castling_rook[1][1] =
              kNoSquare;
        }
        break;
      case 7: {  // a king to a back-rank square (often e1/e8)
        Color c = Color(below(2));
        Bitboard kings = pos.pieces(c, kKing);
        if (!kings) break;
        Square to = Square((c == kWhite ? 0 : 56) + (below(2) ? 4 : below(8)));
        pos.remove(lsb(kings));
        pos.remove(to);
        pos.put(c, kKing, to);
        break;
      }
      case 8: {  // an ep square behind a pawn that may just have made a double push, or anywhere
        Color pusher = ~pos.side_to_move;
        Bitboard pawns = pos.pieces(pusher, kPawn) & rank_bb(pusher == kWhite ? 3 : 4);
        if (pawns && below(4)) {
          pos.ep_square = Square(random_square(pawns) ^ 8);
          if (below(2)) pos.remove(Square(pos.ep_square ^ 24));  // empty the pawn's origin
        } else {
          pos.ep_square = below(3) ? kNoSquare : Square(below(64));
        }
        break;
      }
      case 9: pos.halfmove_clock = below(2) ? 0 : std::uint16_t(below(120)); break;
      case 10: {  // a pawn onto its 4th rank with the ep square behind it: a plausible double push
        Color pusher = ~pos.side_to_move;
        Square to = Square((pusher == kWhite ? 24 : 32) + below(8));
        pos.remove(to);
        pos.put(pusher, kPawn, to);
        pos.ep_square = Square(to ^ 8);
        if (below(2)) pos.remove(pos.ep_square);
        if (below(2)) pos.remove(Square(to ^ 16));
        pos.halfmove_clock = below(3) ? 0 : 1;
        break;
      }
      default: {  // a slider or knight near a king: checks, double checks, impossible checks
        Color c = Color(below(2));
        Bitboard kings = pos.pieces(~c, kKing);
        if (!kings) break;
        Square k = lsb(kings);
        Bitboard near = (rook_pseudo_attacks(k) | bishop_pseudo_attacks(k) | knight_attacks(k)) & ~kings;
        Square s = random_square(near);
        if (s == kNoSquare) break;
        pos.remove(s);
        pos.put(c, PieceType(below(5)), s);
        break;
      }
    }
  }

 private:
  unsigned below(unsigned n) { return unsigned(rng_() % n); }
  Square random_square(Bitboard b) {
    int n = popcount(b);
    if (!n) return kNoSquare;
    for (int skip = below(n); skip; --skip) b &= b - 1;
    return lsb(b);
  }
  std::mt19937_64 rng_;
};

struct Tally {
  std::array<long, kErrorCodeCount> codes{};
  long positions = 0, repaired = 0, hinted = 0;
};

void print(const Tally& tally) {
  for (int c = 0; c < kErrorCodeCount; ++c)
    if (tally.codes[c]) std::printf("%-20s %ld\n", std::string(error_name(ErrorCode(c))).c_str(), tally.codes[c]);
  std::printf("%ld verdicts compared, %ld repaired, %ld with hints\n", tally.positions, tally.repaired, tally.hinted);
}

void expect_same_verdict(const Position& pos, Tally& tally) {
  for (bool repair : {false, true}) {
    Position fast = pos, reference = pos;
    const Verdict a = validate(fast, repair);
    const Verdict b = validate_reference::validate(reference, repair);
    ASSERT_EQ(int(a.code), int(b.code)) << error_name(a.code) << " vs " << error_name(b.code);
    ASSERT_EQ(a.squares, b.squares) << error_name(a.code);
    ASSERT_EQ(int(a.repairs), int(b.repairs)) << error_name(a.code);
    ASSERT_EQ(int(a.hints), int(b.hints)) << error_name(a.code);
    ASSERT_TRUE(fast == reference) << error_name(a.code);
    ++tally.codes[int(a.code)];
    ++tally.positions;
    tally.repaired += a.repairs != 0;
    tally.hinted += a.hints != 0;
  }
}

TEST(ValidateFastPath, SameVerdictAsTheReferenceOnRealAndMutatedPositions) {
  const std::vector<Position> samples = sample_positions();
  ASSERT_GE(samples.size(), 50000u);
  Mutator mutator(18);
  Tally tally;
  for (const Position& pos : samples) {
    ASSERT_NO_FATAL_FAILURE(expect_same_verdict(pos, tally));
    for (int variant = 0; variant < 24; ++variant) {
      Position mutated = pos;
      for (int n = 1 + variant % 3; n; --n) mutator.mutate(mutated);
      ASSERT_NO_FATAL_FAILURE(expect_same_verdict(mutated, tally));
    }
  }
  EXPECT_GT(tally.positions, 2000000);
  EXPECT_GT(tally.repaired, 1000);
  EXPECT_GT(tally.hinted, 1000);
  for (int c = int(ErrorCode::kMissingKing); c <= int(ErrorCode::kEpIllegalPush); ++c)
    EXPECT_GT(tally.codes[c], 20) << error_name(ErrorCode(c));
  EXPECT_GT(tally.codes[int(ErrorCode::kOk)], 100000);
  print(tally);
}

// A large FEN file (FENMILL_VALIDATE_CORPUS), read as it comes and with one mutation per line.
TEST(ValidateFastPath, SameVerdictAsTheReferenceOnACorpus) {
  const char* corpus = std::getenv("FENMILL_VALIDATE_CORPUS");
  if (!corpus) GTEST_SKIP() << "FENMILL_VALIDATE_CORPUS not set";
  std::ifstream in(corpus);
  ASSERT_TRUE(in) << corpus;
  Mutator mutator(2026);
  Tally tally;
  for (std::string line; std::getline(in, line);) {
    Position pos;
    if (!parse_fen(line, pos).ok()) continue;
    ASSERT_NO_FATAL_FAILURE(expect_same_verdict(pos, tally)) << line;
    mutator.mutate(pos);
    ASSERT_NO_FATAL_FAILURE(expect_same_verdict(pos, tally)) << line;
  }
  print(tally);
}

}  // namespace
}  // namespace fenmill
