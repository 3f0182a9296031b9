// Attack generation: precomputed leaper tables and ray-based sliders.
// Enough for check detection, legal en-passant tests and move generation.
#pragma once
#include "core/types.h"

namespace fenmill {

struct AttackTables {
  Bitboard knight[64];
  Bitboard king[64];
  Bitboard pawn[2][64];   // squares attacked by a pawn of colour c standing on s
  Bitboard ray[8][64];    // N, NE, E, SE, S, SW, W, NW; squares strictly beyond s
  Bitboard between[64][64];  // squares strictly between two aligned squares, else 0
  Bitboard line[64][64];     // the full line through two aligned squares, else 0
};

extern const AttackTables kAttacks;

inline Bitboard knight_attacks(Square s) { return kAttacks.knight[s]; }
inline Bitboard king_attacks(Square s) { return kAttacks.king[s]; }
inline Bitboard pawn_attacks(Color c, Square s) { return kAttacks.pawn[c][s]; }
inline Bitboard between_bb(Square a, Square b) { return kAttacks.between[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return kAttacks.line[a][b]; }

// Rays that grow towards higher square indices (N, NE, E, NW) stop at the lowest blocker;
// the others stop at the highest one.
template <int Dir>
inline Bitboard ray_attacks(Square s, Bitboard occupied) {
  Bitboard ray = kAttacks.ray[Dir][s];
  Bitboard blockers = ray & occupied;
  if (!blockers) return ray;
  constexpr bool kPositive = Dir == 0 || Dir == 1 || Dir == 2 || Dir == 7;
  Square b = kPositive ? lsb(blockers) : msb(blockers);
  return ray ^ kAttacks.ray[Dir][b];
}

inline Bitboard rook_attacks(Square s, Bitboard occ) {
  return ray_attacks<0>(s, occ) | ray_attacks<2>(s, occ) | ray_attacks<4>(s, occ) | ray_attacks<6>(s, occ);
}
inline Bitboard bishop_attacks(Square s, Bitboard occ) {
  return ray_attacks<1>(s, occ) | ray_attacks<3>(s, occ) | ray_attacks<5>(s, occ) | ray_attacks<7>(s, occ);
}
inline Bitboard queen_attacks(Square s, Bitboard occ) { return rook_attacks(s, occ) | bishop_attacks(s, occ); }

}  // namespace fenmill
