// Where each Xiangqi piece may ever stand: the palaces, the advisors' and elephants' points and the
// soldiers' squares. Black's sets are Red's mirrored across the river.
#pragma once
#include <initializer_list>

#include "xiangqi/types.h"

namespace fenmill::xiangqi {

namespace detail {
constexpr Bitboard points(std::initializer_list<Square> squares) {
  Bitboard b = 0;
  for (Square s : squares) b |= square_bb(s);
  return b;
}
constexpr Bitboard mirror(Bitboard red) {
  Bitboard b = 0;
  for (int s = 0; s < kSquareCount; ++s)
    if (red & square_bb(Square(s))) b |= square_bb(flip_rank(Square(s)));
  return b;
}
constexpr Square sq(int file, int rank) { return make_square(file, rank); }

// Files d-f of ranks 0-2.
constexpr Bitboard kRedPalace = points({sq(3, 0), sq(4, 0), sq(5, 0), sq(3, 1), sq(4, 1), sq(5, 1),
                                        sq(3, 2), sq(4, 2), sq(5, 2)});
// The palace corners and centre: d0 f0 e1 d2 f2.
constexpr Bitboard kRedAdvisor = points({sq(3, 0), sq(5, 0), sq(4, 1), sq(3, 2), sq(5, 2)});
// c0 g0 a2 e2 i2 c4 g4: two diagonal steps from c0/g0, never across the river.
constexpr Bitboard kRedElephant = points({sq(2, 0), sq(6, 0), sq(0, 2), sq(4, 2), sq(8, 2), sq(2, 4), sq(6, 4)});
// A soldier only moves straight forward until it crosses the river, so on its own side it stands on
// its starting point (rank 3, files a c e g i) or one step ahead of it (rank 4).
constexpr Bitboard kRedSoldierStart = points({sq(0, 3), sq(2, 3), sq(4, 3), sq(6, 3), sq(8, 3)});
constexpr Bitboard kRedSoldierOwnSide = kRedSoldierStart | (kRedSoldierStart << kFileCount);
// Ranks behind the starting rank, where no soldier can ever be.
constexpr Bitboard kRedSoldierBehind = rank_bb(0) | rank_bb(1) | rank_bb(2);
}  // namespace detail

constexpr Bitboard palace_bb(Color c) { return c == kRed ? detail::kRedPalace : detail::mirror(detail::kRedPalace); }
constexpr Bitboard advisor_points(Color c) {
  return c == kRed ? detail::kRedAdvisor : detail::mirror(detail::kRedAdvisor);
}
constexpr Bitboard elephant_points(Color c) {
  return c == kRed ? detail::kRedElephant : detail::mirror(detail::kRedElephant);
}
constexpr Bitboard soldier_start_points(Color c) {
  return c == kRed ? detail::kRedSoldierStart : detail::mirror(detail::kRedSoldierStart);
}
// The soldier squares on its own side of the river (start point or one step forward).
constexpr Bitboard soldier_own_side_points(Color c) {
  return c == kRed ? detail::kRedSoldierOwnSide : detail::mirror(detail::kRedSoldierOwnSide);
}
constexpr Bitboard soldier_behind_bb(Color c) {
  return c == kRed ? detail::kRedSoldierBehind : detail::mirror(detail::kRedSoldierBehind);
}

// Precomputed, so that the hot path never loops over points to build a mask.
inline constexpr Bitboard kPalace[2] = {palace_bb(kRed), palace_bb(kBlack)};
inline constexpr Bitboard kAdvisorPoints[2] = {advisor_points(kRed), advisor_points(kBlack)};
inline constexpr Bitboard kElephantPoints[2] = {elephant_points(kRed), elephant_points(kBlack)};
inline constexpr Bitboard kSoldierOwnSide[2] = {soldier_own_side_points(kRed), soldier_own_side_points(kBlack)};
inline constexpr Bitboard kSoldierBehind[2] = {soldier_behind_bb(kRed), soldier_behind_bb(kBlack)};
inline constexpr Bitboard kOwnSide[2] = {own_side_bb(kRed), own_side_bb(kBlack)};

}  // namespace fenmill::xiangqi
