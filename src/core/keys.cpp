#include "core/keys.h"

// Inlined so that the fixed-length hash compiles to straight-line code (no call, no length dispatch).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <type_traits>

namespace fenmill {

static_assert(sizeof(KeyMaterial) == 48);  // XXH3: 33 to 64 bytes take two mixing rounds
static_assert(std::has_unique_object_representations_v<KeyMaterial>);  // no padding gets hashed

namespace {

// Polyglot "kind": black pawn 0, white pawn 1, black knight 2, ... white king 11.
constexpr int polyglot_kind(Color c, PieceType t) { return 2 * t + (c == kWhite ? 1 : 0); }

constexpr int kCastlingOffset = 768;
constexpr int kEpOffset = 772;
constexpr int kTurnOffset = 780;

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

// The bytes dedup_key hashes, 48 of them: XXH3 hashes 33 to 64 bytes in two mixing rounds (65 to 96 take three).
// The board in four words with no loss: the black pieces, then three bit planes of a piece type code that is never
// 0 on an occupied square (pawn 1, knight 2, bishop 3, rook 4, queen 5, king 6); an empty square is 0 in every
// plane, so the planes give the occupancy, the code the type and the black board the colour. Then a word of state,
// lowest byte first: the four castling rooks ([color * 2 + side], kNoSquare when absent), the ep square, the side to
// move, the halfmove clock (2 bytes); and a word with the fullmove number (4 bytes) and the level (1 byte, then 3
// zero bytes). Each word is one 8-byte store that XXH3's 8-byte loads read back whole: the state built from byte and
// 16-bit stores cost a store-forwarding stall per load (dedup_key took ~19 ns a key then, ~15 ns after).
KeyMaterial key_material(const Position& pos, KeyLevel level) {
  KeyMaterial m;
  const Bitboard* t = pos.by_type;
  m.words[0] = pos.by_color[kBlack];
  m.words[1] = t[kPawn] | t[kBishop] | t[kQueen];  // codes 1, 3, 5: bit 0
  m.words[2] = t[kKnight] | t[kBishop] | t[kKing];  // codes 2, 3, 6: bit 1
  m.words[3] = t[kRook] | t[kQueen] | t[kKing];     // codes 4, 5, 6: bit 2
  const bool with_side = level != KeyLevel::kPlacement;
  const bool with_state = level == KeyLevel::kFull || level == KeyLevel::kPosition;
  const bool with_clocks = level == KeyLevel::kFull;
  auto byte = [](std::uint64_t v, int at) { return v << (8 * at); };
  std::uint64_t state = with_state ? byte(pos.castling_rook[0][0], 0) | byte(pos.castling_rook[0][1], 1) |
                                         byte(pos.castling_rook[1][0], 2) | byte(pos.castling_rook[1][1], 3) |
                                         byte(pos.ep_square, 4)
                                   : byte(kNoSquare, 0) | byte(kNoSquare, 1) | byte(kNoSquare, 2) |
                                         byte(kNoSquare, 3) | byte(kNoSquare, 4);
  if (with_side) state |= byte(pos.side_to_move, 5);
  if (with_clocks) state |= byte(pos.halfmove_clock, 6);
  m.words[4] = state;
  m.words[5] = (with_clocks ? std::uint64_t{pos.fullmove_number} : 0) | std::uint64_t{static_cast<std::uint8_t>(level)} << 32;
  return m;
}

Key128 dedup_key(const Position& pos, KeyLevel level) {
  const KeyMaterial m = key_material(pos, level);
  XXH128_hash_t h = XXH3_128bits(&m, sizeof m);
  return Key128{h.low64, h.high64};
}

}  // namespace fenmill
