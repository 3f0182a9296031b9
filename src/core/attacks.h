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
  Bitboard rook_pseudo[64];    // rook moves from s on an empty board
  Bitboard bishop_pseudo[64];  // bishop moves from s on an empty board
};

extern const AttackTables kAttacks;

inline Bitboard knight_attacks(Square s) { return kAttacks.knight[s]; }
inline Bitboard king_attacks(Square s) { return kAttacks.king[s]; }
inline Bitboard pawn_attacks(Color c, Square s) { return kAttacks.pawn[c][s]; }
inline Bitboard between_bb(Square a, Square b) { return kAttacks.between[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return kAttacks.line[a][b]; }
inline Bitboard rook_pseudo_attacks(Square s) { return kAttacks.rook_pseudo[s]; }
inline Bitboard bishop_pseudo_attacks(Square s) { return kAttacks.bishop_pseudo[s]; }

// Rays that grow towards higher square indices (N, NE, E, NW) stop at the lowest blocker;
// the others stop at the highest one. Without a blocker the ray runs to the edge: a sentinel blocker
// on h8 (positive rays) or a1 (negative ones), whose own ray in that direction is empty, keeps this
// branch-free; a branch here mispredicts on real positions.
template <int Dir>
inline Bitboard ray_attacks(Square s, Bitboard occupied) {
  Bitboard ray = kAttacks.ray[Dir][s];
  constexpr bool kPositive = Dir == 0 || Dir == 1 || Dir == 2 || Dir == 7;
  Bitboard blockers = ray & occupied;
  Square b = kPositive ? lsb(blockers | square_bb(63)) : msb(blockers | square_bb(0));
  return ray ^ kAttacks.ray[Dir][b];
}

inline Bitboard rook_attacks(Square s, Bitboard occ) {
  return ray_attacks<0>(s, occ) | ray_attacks<2>(s, occ) | ray_attacks<4>(s, occ) | ray_attacks<6>(s, occ);
}
inline Bitboard bishop_attacks(Square s, Bitboard occ) {
  return ray_attacks<1>(s, occ) | ray_attacks<3>(s, occ) | ray_attacks<5>(s, occ) | ray_attacks<7>(s, occ);
}
inline Bitboard queen_attacks(Square s, Bitboard occ) { return rook_attacks(s, occ) | bishop_attacks(s, occ); }

// popcount for hot paths: without -mpopcnt (the portable build) __builtin_popcountll is a libgcc
// call; this SWAR count is a dozen inline instructions.
inline int count_bits(Bitboard b) {
#if defined(__POPCNT__) || !defined(__x86_64__)
  return __builtin_popcountll(b);
#else
  b = b - ((b >> 1) & 0x5555555555555555ull);
  b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
  b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>((b * 0x0101010101010101ull) >> 56);
#endif
}

}  // namespace fenmill
