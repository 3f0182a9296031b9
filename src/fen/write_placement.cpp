#include "fen/write_placement.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "fen/placement_fast.h"
#include "fen/rank_text.h"

namespace fenmill {
namespace {

constexpr char kPieceChars[2][6] = {{'P', 'N', 'B', 'R', 'Q', 'K'}, {'p', 'n', 'b', 'r', 'q', 'k'}};

// Drops `letter` into the slot of each square of b, lowest first. The first `peel` squares take no
// data-dependent branch (an empty round writes to the scratch slot 64); a loop takes any excess.
template <int kPeel>
inline void put_letters(char* out, const std::uint8_t* slot, Bitboard b, char letter) {
  for (int i = 0; i < kPeel; ++i) {
    unsigned square = lsb(b | square_bb(63)) + (b == 0);  // 64 when b is empty, without a branch
    out[slot[square]] = letter;
    b &= b - 1;
  }
  for (; b; b &= b - 1) out[slot[lsb(b)]] = letter;
}

}  // namespace

// Two passes without a branch per square: lay out the eight rank texts from the occupancy (and note
// where each square's letter goes), then drop the letters into their slots, a piece kind at a time:
// kings, queens and minor pieces peeled (0, 1 or 2 of them), pawns in a loop (measured faster for
// them). Stores whole 8-byte rank texts: it may write scratch bytes up to 7 bytes past the placement,
// which the caller overwrites or ignores (all within kMaxFenLength).
char* write_placement_scalar(const Position& pos, char* out) {
  // A scalar chain on purpose: a vectorized OR loads two bitboards at once, which right after the
  // parser stored them one by one stalls on store forwarding.
  Bitboard typed = pos.by_type[kPawn] | pos.by_type[kKnight] | pos.by_type[kBishop] | pos.by_type[kRook] |
                   pos.by_type[kQueen] | pos.by_type[kKing];
  Bitboard occupied = typed & (pos.by_color[kWhite] | pos.by_color[kBlack]);  // squares that get a letter
  std::uint8_t slot[65];
  char* p = out;
  for (int rank = 7; rank >= 0; --rank) {
    unsigned o = static_cast<unsigned>(occupied >> (8 * rank)) & 0xFF;
    std::memcpy(p, kRankText.text[o], 8);
    std::uint64_t offsets;
    std::memcpy(&offsets, kRankText.offset[o], 8);
    offsets += static_cast<std::uint64_t>(p - out) * 0x0101010101010101ull;  // bytewise, never carries
    std::memcpy(slot + 8 * rank, &offsets, 8);
    p += kRankText.length[o];
    *p++ = '/';
  }
  --p;                                            // no slash after rank 1: the caller writes there next,
  slot[64] = static_cast<std::uint8_t>(p - out);  // so it is the scratch slot
  for (int c = 0; c < 2; ++c) {
    const char* letters = kPieceChars[c];
    put_letters<0>(out, slot, pos.pieces(Color(c), kPawn), letters[kPawn]);
    put_letters<2>(out, slot, pos.pieces(Color(c), kKnight), letters[kKnight]);
    put_letters<2>(out, slot, pos.pieces(Color(c), kBishop), letters[kBishop]);
    put_letters<2>(out, slot, pos.pieces(Color(c), kRook), letters[kRook]);
    put_letters<1>(out, slot, pos.pieces(Color(c), kQueen), letters[kQueen]);
    put_letters<1>(out, slot, pos.pieces(Color(c), kKing), letters[kKing]);
  }
  return p;
}

namespace {

using PlacementWriter = char* (*)(const Position& pos, char* out);

// The vector writer where the vector reader would run (AVX2 with fast PDEP/PEXT), unless FENMILL_NO_SIMD is set.
PlacementWriter choose_writer() {
  if (std::getenv("FENMILL_NO_SIMD") == nullptr && placement_avx2_pays_off()) return write_placement_avx2;
  return write_placement_scalar;
}

}  // namespace

char* write_placement(const Position& pos, char* out) {
  static const PlacementWriter writer = choose_writer();
  return writer(pos, out);
}

}  // namespace fenmill
