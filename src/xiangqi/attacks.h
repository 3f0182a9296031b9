// Xiangqi attacks: the points each piece could capture on, and the reverse question "which pieces attack
// this point", which the check rule needs. All tables are built at compile time.
//   chariot  slides orthogonally up to the first piece
//   cannon   captures by jumping exactly one piece (the screen) along a line
//   horse    one step orthogonally, then one diagonally outwards; blocked by a piece on that first point (the leg)
//   elephant two steps diagonally, blocked by a piece on the point between (the eye); never crosses the river
//   advisor  one step diagonally, inside its palace
//   general  one step orthogonally, inside its palace ("flying general", the facing rule, is not an attack here)
//   soldier  one step forward; after crossing the river also one step sideways
#pragma once
#include "xiangqi/board.h"
#include "xiangqi/types.h"

namespace fenmill::xiangqi {

namespace detail {

enum Direction : int { kEast = 0, kWest, kNorth, kSouth };
constexpr int kDirectionStep[4] = {1, -1, kFileCount, -kFileCount};

struct AttackTables {
  std::uint8_t ray_length[kSquareCount][4];  // points before the edge, per Direction
  Bitboard orthogonal[kSquareCount];
  Bitboard diagonal[kSquareCount];
  // horse[s][i]: the i-th horse jump from s and its leg (kNoSquare when off the board). A horse on a
  // jumps to b via leg L iff a horse on b jumps to a via a leg next to b, so reverse lookups use horse_from.
  Square horse_to[kSquareCount][8];
  Square horse_leg[kSquareCount][8];
  Square horse_from[kSquareCount][8];       // where a horse attacking s stands
  Square horse_from_leg[kSquareCount][8];   // and its leg
  Square elephant_to[kSquareCount][4];      // the eye is the midpoint both ways
  Square elephant_eye[kSquareCount][4];
  Bitboard soldier[2][kSquareCount];        // points a soldier on s attacks
  Bitboard soldier_from[2][kSquareCount];   // points from which a soldier attacks s
  Bitboard lines[kSquareCount];             // the file and rank through s, s excluded
  Bitboard horse_zone[kSquareCount];        // horse_from as a set: a cheap "no horse can reach" test

  constexpr AttackTables() : ray_length(), orthogonal(), diagonal(), horse_to(), horse_leg(), horse_from(),
                             horse_from_leg(), elephant_to(), elephant_eye(), soldier(), soldier_from(), lines(), horse_zone() {
    constexpr int kHorse[8][4] = {  // file step, rank step, leg file step, leg rank step
        {1, 2, 0, 1}, {-1, 2, 0, 1}, {1, -2, 0, -1}, {-1, -2, 0, -1},
        {2, 1, 1, 0}, {2, -1, 1, 0}, {-2, 1, -1, 0}, {-2, -1, -1, 0}};
    constexpr int kDiagonal[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int s = 0; s < kSquareCount; ++s) {
      int f = file_of(Square(s)), r = rank_of(Square(s));
      ray_length[s][kEast] = std::uint8_t(kFileCount - 1 - f);
      ray_length[s][kWest] = std::uint8_t(f);
      ray_length[s][kNorth] = std::uint8_t(kRankCount - 1 - r);
      ray_length[s][kSouth] = std::uint8_t(r);
      constexpr int kOrth[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
      for (auto& d : kOrth)
        if (on_board(f + d[0], r + d[1])) orthogonal[s] |= square_bb(make_square(f + d[0], r + d[1]));
      for (int i = 0; i < 4; ++i) {
        const int* d = kDiagonal[i];
        if (on_board(f + d[0], r + d[1])) diagonal[s] |= square_bb(make_square(f + d[0], r + d[1]));
        bool fits = on_board(f + 2 * d[0], r + 2 * d[1]);
        elephant_to[s][i] = fits ? make_square(f + 2 * d[0], r + 2 * d[1]) : kNoSquare;
        elephant_eye[s][i] = fits ? make_square(f + d[0], r + d[1]) : kNoSquare;
      }
      for (int i = 0; i < 8; ++i) {
        const int* h = kHorse[i];
        bool fits = on_board(f + h[0], r + h[1]);
        horse_to[s][i] = fits ? make_square(f + h[0], r + h[1]) : kNoSquare;
        horse_leg[s][i] = fits ? make_square(f + h[2], r + h[3]) : kNoSquare;
        // The horse that lands on s with this jump stands at s - jump; its leg is one step from it.
        bool from_fits = on_board(f - h[0], r - h[1]);
        horse_from[s][i] = from_fits ? make_square(f - h[0], r - h[1]) : kNoSquare;
        horse_from_leg[s][i] = from_fits ? make_square(f - h[0] + h[2], r - h[1] + h[3]) : kNoSquare;
        if (from_fits) horse_zone[s] |= square_bb(horse_from[s][i]);
      }
      lines[s] = (file_bb(f) | rank_bb(r)) & ~square_bb(Square(s));
      for (int c = 0; c < 2; ++c) {
        int forward = c == kRed ? 1 : -1;
        bool crossed = c == kRed ? r >= 5 : r <= 4;
        if (on_board(f, r + forward)) soldier[c][s] |= square_bb(make_square(f, r + forward));
        if (crossed && f > 0) soldier[c][s] |= square_bb(make_square(f - 1, r));
        if (crossed && f < kFileCount - 1) soldier[c][s] |= square_bb(make_square(f + 1, r));
      }
    }
    for (int c = 0; c < 2; ++c)
      for (int s = 0; s < kSquareCount; ++s)
        for (int t = 0; t < kSquareCount; ++t)
          if (soldier[c][s] & square_bb(Square(t))) soldier_from[c][t] |= square_bb(Square(s));
  }
};

inline constexpr AttackTables kAttackTables;

}  // namespace detail

inline Bitboard chariot_attacks(Square s, Bitboard occupied) {
  Bitboard attacks = 0;
  for (int d = 0; d < 4; ++d) {
    int step = detail::kDirectionStep[d];
    int t = s;
    for (int n = detail::kAttackTables.ray_length[s][d]; n > 0; --n) {
      t += step;
      attacks |= square_bb(Square(t));
      if (occupied & square_bb(Square(t))) break;
    }
  }
  return attacks;
}

// The points a cannon attacks: beyond the first piece on a line (the screen) up to and including the next
// piece, which it can capture. (It moves without capturing like a chariot, but that is no attack.) As for
// the other pieces, an empty point counts as attacked if a piece standing there could be captured; so the
// relation is symmetric: a cannon on a attacks b iff one on b attacks a.
inline Bitboard cannon_attacks(Square s, Bitboard occupied) {
  Bitboard attacks = 0;
  for (int d = 0; d < 4; ++d) {
    int step = detail::kDirectionStep[d];
    int t = s;
    bool screen = false;
    for (int n = detail::kAttackTables.ray_length[s][d]; n > 0; --n) {
      t += step;
      bool occupied_here = occupied & square_bb(Square(t));
      if (screen) {
        attacks |= square_bb(Square(t));
        if (occupied_here) break;
      } else {
        screen = occupied_here;
      }
    }
  }
  return attacks;
}

inline Bitboard horse_attacks(Square s, Bitboard occupied) {
  const auto& t = detail::kAttackTables;
  Bitboard attacks = 0;
  for (int i = 0; i < 8; ++i)
    if (t.horse_to[s][i] != kNoSquare && !(occupied & square_bb(t.horse_leg[s][i])))
      attacks |= square_bb(t.horse_to[s][i]);
  return attacks;
}

// Two diagonal steps with an empty eye, ignoring the river (symmetric: used for reverse lookups too).
inline Bitboard elephant_jumps(Square s, Bitboard occupied) {
  const auto& t = detail::kAttackTables;
  Bitboard jumps = 0;
  for (int i = 0; i < 4; ++i)
    if (t.elephant_to[s][i] != kNoSquare && !(occupied & square_bb(t.elephant_eye[s][i])))
      jumps |= square_bb(t.elephant_to[s][i]);
  return jumps;
}
inline Bitboard elephant_attacks(Color c, Square s, Bitboard occupied) { return elephant_jumps(s, occupied) & kOwnSide[c]; }

inline Bitboard advisor_attacks(Color c, Square s) { return detail::kAttackTables.diagonal[s] & kPalace[c]; }
inline Bitboard general_attacks(Color c, Square s) { return detail::kAttackTables.orthogonal[s] & kPalace[c]; }
inline Bitboard soldier_attacks(Color c, Square s) { return detail::kAttackTables.soldier[c][s]; }

// Points of horses (from the given set) that attack s.
inline Bitboard horse_attackers(Square s, Bitboard horses, Bitboard occupied) {
  const auto& t = detail::kAttackTables;
  Bitboard from = 0;
  for (int i = 0; i < 8; ++i) {
    Square h = t.horse_from[s][i];
    if (h != kNoSquare && (horses & square_bb(h)) && !(occupied & square_bb(t.horse_from_leg[s][i])))
      from |= square_bb(h);
  }
  return from;
}

// Chariots (first piece on each line from s) and cannons (second piece) among the given pieces: one scan.
inline Bitboard line_attackers(Square s, Bitboard chariots, Bitboard cannons, Bitboard occupied) {
  Bitboard found = 0;
  for (int d = 0; d < 4; ++d) {
    int step = detail::kDirectionStep[d];
    int t = s;
    bool screen = false;
    for (int n = detail::kAttackTables.ray_length[s][d]; n > 0; --n) {
      t += step;
      Bitboard b = square_bb(Square(t));
      if (!(occupied & b)) continue;
      if (screen) {
        found |= b & cannons;
        break;
      }
      found |= b & chariots;
      screen = true;
    }
  }
  return found;
}

inline Bitboard soldier_attackers(Color c, Square s) { return detail::kAttackTables.soldier_from[c][s]; }

}  // namespace fenmill::xiangqi
