// Basic chess vocabulary: colours, piece types, squares and bitboards.
#pragma once
#include <cstdint>

namespace fenmill {

using Bitboard = std::uint64_t;

enum Color : std::uint8_t { kWhite = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t { kPawn = 0, kKnight, kBishop, kRook, kQueen, kKing, kPieceTypeCount };

// Square index: a1 = 0, b1 = 1, ..., h8 = 63. kNoSquare marks "none".
using Square = std::uint8_t;
constexpr Square kNoSquare = 64;

constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }

constexpr Bitboard kRank1 = 0xFFull;
constexpr Bitboard kRank8 = kRank1 << 56;
constexpr Bitboard rank_bb(int r) { return kRank1 << (8 * r); }
constexpr Bitboard kFileA = 0x0101010101010101ull;
constexpr Bitboard file_bb(int f) { return kFileA << f; }

inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
inline Square lsb(Bitboard b) { return Square(__builtin_ctzll(b)); }
inline Square msb(Bitboard b) { return Square(63 ^ __builtin_clzll(b)); }
inline bool more_than_one(Bitboard b) { return b & (b - 1); }

// Relative rank: rank counted from the given colour's side (0 = own back rank).
constexpr int relative_rank(Color c, int rank) { return c == kWhite ? rank : 7 - rank; }

}  // namespace fenmill
