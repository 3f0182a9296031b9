// Xiangqi vocabulary: colours, piece types, the 90 points of the 9 x 10 board and 128-bit bitboards.
// Points are numbered rank * 9 + file from Red's side: a0 = 0, i0 = 8, a9 = 81, i9 = 89.
#pragma once
#include <cstdint>

namespace fenmill::xiangqi {

// 90 points need more than 64 bits; GCC and Clang's 128-bit integer keeps every board operation a
// pair of 64-bit instructions. __extension__ silences -Wpedantic about the non-standard type.
__extension__ using Bitboard = unsigned __int128;

enum Color : std::uint8_t { kRed = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Record codes and key bytes depend on this order.
enum PieceType : std::uint8_t { kGeneral = 0, kAdvisor, kElephant, kHorse, kChariot, kCannon, kSoldier, kPieceTypeCount };

// The two letter sets of Xiangqi FEN. Both parse; the writer emits one.
enum class Letters : std::uint8_t {
  kUcci,  // K A B N R C P: elephant B, horse N (UCCI engines, e.g. rnbakabnr/9/1c5c1/...)
  kWxf,   // K A E H R C P: elephant E, horse H (WXF move notation's letters; the project's Xiangqi document)
};

using Square = std::uint8_t;
constexpr int kFileCount = 9;
constexpr int kRankCount = 10;
constexpr int kSquareCount = 90;
constexpr Square kNoSquare = 90;

constexpr int file_of(Square s) { return s % kFileCount; }
constexpr int rank_of(Square s) { return s / kFileCount; }
constexpr Square make_square(int file, int rank) { return Square(rank * kFileCount + file); }
constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr bool on_board(int file, int rank) { return file >= 0 && file < kFileCount && rank >= 0 && rank < kRankCount; }

constexpr Bitboard kAllSquares = (Bitboard(1) << kSquareCount) - 1;

constexpr Bitboard rank_bb(int r) { return Bitboard(0x1FF) << (kFileCount * r); }
constexpr Bitboard file_bb(int f) {
  Bitboard b = 0;
  for (int r = 0; r < kRankCount; ++r) b |= square_bb(make_square(f, r));
  return b;
}

inline constexpr Bitboard kFileBB[kFileCount] = {file_bb(0), file_bb(1), file_bb(2), file_bb(3), file_bb(4),
                                                 file_bb(5), file_bb(6), file_bb(7), file_bb(8)};

// Ranks 0-4 are Red's side of the river, 5-9 Black's.
constexpr Bitboard own_side_bb(Color c) {
  Bitboard red = rank_bb(0) | rank_bb(1) | rank_bb(2) | rank_bb(3) | rank_bb(4);
  return c == kRed ? red : kAllSquares & ~red;
}

// Mirror image across the river: a0 <-> a9.
constexpr Square flip_rank(Square s) { return make_square(file_of(s), kRankCount - 1 - rank_of(s)); }

inline std::uint64_t low64(Bitboard b) { return static_cast<std::uint64_t>(b); }
inline std::uint64_t high64(Bitboard b) { return static_cast<std::uint64_t>(b >> 64); }
inline int popcount(Bitboard b) { return __builtin_popcountll(low64(b)) + __builtin_popcountll(high64(b)); }
// Lowest set point; b must not be 0.
inline Square lsb(Bitboard b) {
  std::uint64_t lo = low64(b);
  return Square(lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(high64(b)));
}
inline bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Calls f(point) for every set point, lowest first, with 64-bit operations only (a 128-bit lsb or b & (b - 1)
// costs a branch or a carry chain per step).
template <class F>
inline void for_each_point(Bitboard b, F&& f) {
  for (std::uint64_t lo = low64(b); lo; lo &= lo - 1) f(Square(__builtin_ctzll(lo)));
  for (std::uint64_t hi = high64(b); hi; hi &= hi - 1) f(Square(64 + __builtin_ctzll(hi)));
}

}  // namespace fenmill::xiangqi
