// Sanity of the precomputed attack tables and the ray-based sliders.
#include "core/attacks.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string_view>

namespace fenmill {
namespace {

// "e4" -> square index.
Square sq(std::string_view name) { return make_square(name[0] - 'a', name[1] - '1'); }

Bitboard squares(std::initializer_list<std::string_view> names) {
  Bitboard b = 0;
  for (std::string_view n : names) b |= square_bb(sq(n));
  return b;
}

// Brute-force slider reference: walk each direction until the edge or the first blocker (included).
Bitboard slow_slider(Square s, Bitboard occ, bool diagonal) {
  static constexpr int kRookDirs[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
  static constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}};
  const auto& dirs = diagonal ? kBishopDirs : kRookDirs;
  Bitboard b = 0;
  for (const auto& d : dirs) {
    for (int f = file_of(s) + d[0], r = rank_of(s) + d[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f += d[0], r += d[1]) {
      b |= square_bb(make_square(f, r));
      if (occ & square_bb(make_square(f, r))) break;
    }
  }
  return b;
}

TEST(Attacks, SquareHelpers) {
  EXPECT_EQ(sq("a1"), 0);
  EXPECT_EQ(sq("h1"), 7);
  EXPECT_EQ(sq("a8"), 56);
  EXPECT_EQ(sq("h8"), 63);
  EXPECT_EQ(file_of(sq("e4")), 4);
  EXPECT_EQ(rank_of(sq("e4")), 3);
  EXPECT_EQ(relative_rank(kWhite, 1), 1);
  EXPECT_EQ(relative_rank(kBlack, 1), 6);
  EXPECT_EQ(lsb(squares({"c3", "f6"})), sq("c3"));
  EXPECT_EQ(msb(squares({"c3", "f6"})), sq("f6"));
  EXPECT_FALSE(more_than_one(square_bb(sq("d4"))));
  EXPECT_TRUE(more_than_one(squares({"d4", "d5"})));
}

TEST(Attacks, KnightTable) {
  EXPECT_EQ(knight_attacks(sq("a1")), squares({"b3", "c2"}));
  EXPECT_EQ(knight_attacks(sq("h8")), squares({"g6", "f7"}));
  EXPECT_EQ(knight_attacks(sq("e4")), squares({"d6", "f6", "g5", "g3", "f2", "d2", "c3", "c5"}));
  EXPECT_EQ(knight_attacks(sq("b1")), squares({"a3", "c3", "d2"}));
  int total = 0;
  for (Square s = 0; s < 64; ++s) total += popcount(knight_attacks(s));
  EXPECT_EQ(total, 336);  // the well-known number of knight moves on an empty board
}

TEST(Attacks, KingTable) {
  EXPECT_EQ(king_attacks(sq("a1")), squares({"a2", "b2", "b1"}));
  EXPECT_EQ(king_attacks(sq("e8")), squares({"d8", "f8", "d7", "e7", "f7"}));
  EXPECT_EQ(popcount(king_attacks(sq("d4"))), 8);
  int total = 0;
  for (Square s = 0; s < 64; ++s) total += popcount(king_attacks(s));
  EXPECT_EQ(total, 420);
}

TEST(Attacks, PawnTable) {
  EXPECT_EQ(pawn_attacks(kWhite, sq("e4")), squares({"d5", "f5"}));
  EXPECT_EQ(pawn_attacks(kBlack, sq("e4")), squares({"d3", "f3"}));
  EXPECT_EQ(pawn_attacks(kWhite, sq("a2")), squares({"b3"}));
  EXPECT_EQ(pawn_attacks(kBlack, sq("h7")), squares({"g6"}));
  EXPECT_EQ(pawn_attacks(kWhite, sq("c8")), 0u);  // nothing beyond the last rank
  EXPECT_EQ(pawn_attacks(kBlack, sq("c1")), 0u);
}

TEST(Attacks, RookRaysWithBlockers) {
  EXPECT_EQ(rook_attacks(sq("a1"), 0), (file_bb(0) | rank_bb(0)) & ~square_bb(sq("a1")));
  // Rook d4, blockers d6 and b4 (included), f4 and d1 (included).
  Bitboard occ = squares({"d6", "b4", "f4", "d1", "d4"});
  EXPECT_EQ(rook_attacks(sq("d4"), occ), squares({"d5", "d6", "c4", "b4", "e4", "f4", "d3", "d2", "d1"}));
  // A blocker right next to it stops the ray at once.
  EXPECT_EQ(rook_attacks(sq("h8"), squares({"g8", "h7"})), squares({"g8", "h7"}));
}

TEST(Attacks, BishopRaysWithBlockers) {
  EXPECT_EQ(bishop_attacks(sq("a1"), 0), squares({"b2", "c3", "d4", "e5", "f6", "g7", "h8"}));
  Bitboard occ = squares({"f6", "b2", "c5"});
  EXPECT_EQ(bishop_attacks(sq("d4"), occ), squares({"e5", "f6", "c3", "b2", "c5", "e3", "f2", "g1"}));
  EXPECT_EQ(queen_attacks(sq("d4"), occ), bishop_attacks(sq("d4"), occ) | rook_attacks(sq("d4"), occ));
}

TEST(Attacks, SlidersMatchBruteForce) {
  // A fixed pseudo-random set of occupancies (xorshift), every square.
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 200; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    Bitboard occ = x & (x >> 3);  // sparser than half
    for (Square s = 0; s < 64; ++s) {
      ASSERT_EQ(rook_attacks(s, occ), slow_slider(s, occ, false)) << int(s) << " " << occ;
      ASSERT_EQ(bishop_attacks(s, occ), slow_slider(s, occ, true)) << int(s) << " " << occ;
    }
  }
}

TEST(Attacks, Between) {
  EXPECT_EQ(between_bb(sq("a1"), sq("a8")), squares({"a2", "a3", "a4", "a5", "a6", "a7"}));
  EXPECT_EQ(between_bb(sq("a8"), sq("a1")), between_bb(sq("a1"), sq("a8")));
  EXPECT_EQ(between_bb(sq("c1"), sq("h6")), squares({"d2", "e3", "f4", "g5"}));
  EXPECT_EQ(between_bb(sq("h1"), sq("a8")), squares({"g2", "f3", "e4", "d5", "c6", "b7"}));
  EXPECT_EQ(between_bb(sq("e4"), sq("e5")), 0u);  // adjacent
  EXPECT_EQ(between_bb(sq("b1"), sq("c3")), 0u);  // not aligned (a knight step)
  EXPECT_EQ(between_bb(sq("e4"), sq("e4")), 0u);
}

TEST(Attacks, Line) {
  EXPECT_EQ(line_bb(sq("a1"), sq("c3")), squares({"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"}));
  EXPECT_EQ(line_bb(sq("c3"), sq("a1")), line_bb(sq("a1"), sq("c3")));
  EXPECT_EQ(line_bb(sq("d2"), sq("d7")), file_bb(3));
  EXPECT_EQ(line_bb(sq("b5"), sq("g5")), rank_bb(4));
  EXPECT_EQ(line_bb(sq("b1"), sq("c3")), 0u);
  EXPECT_EQ(line_bb(sq("e4"), sq("e4")), 0u);
  // Symmetry and consistency with between over the whole board.
  for (Square a = 0; a < 64; ++a)
    for (Square b = 0; b < 64; ++b) {
      ASSERT_EQ(line_bb(a, b), line_bb(b, a));
      ASSERT_EQ(between_bb(a, b), between_bb(b, a));
      if (line_bb(a, b)) {
        ASSERT_TRUE(line_bb(a, b) & square_bb(a));
        ASSERT_TRUE(line_bb(a, b) & square_bb(b));
        ASSERT_EQ(between_bb(a, b) & ~line_bb(a, b), 0u);
      } else {
        ASSERT_EQ(between_bb(a, b), 0u);
      }
    }
}

}  // namespace
}  // namespace fenmill
