#include "core/keys.h"

#include <cstring>
#include <type_traits>

// Inlined so that the fixed-length hash compiles to straight-line code (no call, no length dispatch).
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace fenmill {
namespace {

// Polyglot "kind": black pawn 0, white pawn 1, black knight 2, ... white king 11.
constexpr int polyglot_kind(Color c, PieceType t) { return 2 * t + (c == kWhite ? 1 : 0); }

constexpr int kCastlingOffset = 768;
constexpr int kEpOffset = 772;
constexpr int kTurnOffset = 780;

// The bytes dedup_key hashes. Every byte is a field: no padding, so no indeterminate bytes get hashed.
struct KeyMaterial {
  Bitboard black;                      // white = union of the type boards minus black
  Bitboard by_type[kPieceTypeCount];
  std::uint8_t castling_rook[4];       // [color * 2 + side], kNoSquare when absent
  std::uint8_t ep_square;
  std::uint8_t side_to_move;
  std::uint16_t halfmove_clock;
  std::uint32_t fullmove_number;
  std::uint32_t level;
};
static_assert(sizeof(KeyMaterial) == 72);
static_assert(std::has_unique_object_representations_v<KeyMaterial>);

}  // namespace

std::uint64_t polyglot_key(const Position& pos) {
  std::uint64_t key = 0;
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < kPieceTypeCount; ++t) {
      const std::uint64_t* row = kPolyglotRandom + 64 * polyglot_kind(Color(c), PieceType(t));
      for (Bitboard b = pos.by_color[c] & pos.by_type[t]; b; b &= b - 1) key ^= row[lsb(b)];
    }
  for (int c = 0; c < 2; ++c)
    for (int side = 0; side < 2; ++side)
      if (pos.castling_rook[c][side] != kNoSquare) key ^= kPolyglotRandom[kCastlingOffset + 2 * c + side];
  if (pos.ep_square != kNoSquare &&
      (pawn_attacks(~pos.side_to_move, pos.ep_square) & pos.pieces(pos.side_to_move, kPawn)))
    key ^= kPolyglotRandom[kEpOffset + file_of(pos.ep_square)];
  if (pos.side_to_move == kWhite) key ^= kPolyglotRandom[kTurnOffset];
  return key;
}

Key128 dedup_key(const Position& pos, KeyLevel level) {
  KeyMaterial m;
  m.black = pos.by_color[kBlack];
  for (int t = 0; t < kPieceTypeCount; ++t) m.by_type[t] = pos.by_type[t];
  bool with_side = level != KeyLevel::kPlacement;
  bool with_state = level == KeyLevel::kFull || level == KeyLevel::kPosition;
  bool with_clocks = level == KeyLevel::kFull;
  m.castling_rook[0] = with_state ? pos.castling_rook[0][0] : kNoSquare;
  m.castling_rook[1] = with_state ? pos.castling_rook[0][1] : kNoSquare;
  m.castling_rook[2] = with_state ? pos.castling_rook[1][0] : kNoSquare;
  m.castling_rook[3] = with_state ? pos.castling_rook[1][1] : kNoSquare;
  m.ep_square = with_state ? pos.ep_square : kNoSquare;
  m.side_to_move = with_side ? pos.side_to_move : 0;
  m.halfmove_clock = with_clocks ? pos.halfmove_clock : 0;
  m.fullmove_number = with_clocks ? pos.fullmove_number : 0;
  m.level = static_cast<std::uint32_t>(level);
  XXH128_hash_t h = XXH3_128bits(&m, sizeof m);
  return Key128{h.low64, h.high64};
}

}  // namespace fenmill
