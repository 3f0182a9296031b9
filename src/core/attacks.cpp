#include "core/attacks.h"

namespace fenmill {
namespace {

constexpr int kDirFile[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kDirRank[8] = {1, 1, 0, -1, -1, -1, 0, 1};

bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

Bitboard leaper(Square s, const int (*deltas)[2], int n) {
  Bitboard b = 0;
  for (int i = 0; i < n; ++i) {
    int f = file_of(s) + deltas[i][0], r = rank_of(s) + deltas[i][1];
    if (on_board(f, r)) b |= square_bb(make_square(f, r));
  }
  return b;
}

AttackTables build() {
  AttackTables t{};
  static constexpr int kKnight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  static constexpr int kKing[8][2] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};
  static constexpr int kWhitePawn[2][2] = {{-1, 1}, {1, 1}};
  static constexpr int kBlackPawn[2][2] = {{-1, -1}, {1, -1}};
  for (Square s = 0; s < 64; ++s) {
    t.knight[s] = leaper(s, kKnight, 8);
    t.king[s] = leaper(s, kKing, 8);
    t.pawn[kWhite][s] = leaper(s, kWhitePawn, 2);
    t.pawn[kBlack][s] = leaper(s, kBlackPawn, 2);
    for (int d = 0; d < 8; ++d) {
      Bitboard ray = 0;
      for (int f = file_of(s) + kDirFile[d], r = rank_of(s) + kDirRank[d]; on_board(f, r);
           f += kDirFile[d], r += kDirRank[d]) {
        Square to = make_square(f, r);
        ray |= square_bb(to);
        t.between[s][to] = ray & ~square_bb(to);
      }
      for (Bitboard b = ray; b; b &= b - 1) {
        Square to = lsb(b);
        t.line[s][to] = ray | t.ray[(d + 4) % 8][s] | square_bb(s);
      }
      t.ray[d][s] = ray;
      (d % 2 ? t.bishop_pseudo : t.rook_pseudo)[s] |= ray;
    }
  }
  // line[] needs the opposite ray, which may not have been built yet in the loop above.
  for (Square s = 0; s < 64; ++s)
    for (int d = 0; d < 8; ++d)
      for (Bitboard b = t.ray[d][s]; b; b &= b - 1)
        t.line[s][lsb(b)] = t.ray[d][s] | t.ray[(d + 4) % 8][s] | square_bb(s);
  return t;
}

}  // namespace

const AttackTables kAttacks = build();

}  // namespace fenmill
