// Position keys: the 64-bit Polyglot Zobrist key (for opening books) and a 128-bit xxHash3 key
// at four dedup levels (64-bit hashes start colliding around a few billion positions).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/position.h"

namespace fenmill {

constexpr int kPolyglotRandomCount = 781;
// The Polyglot Random64 table (src/core/polyglot_random.cpp).
extern const std::uint64_t kPolyglotRandom[kPolyglotRandomCount];

// The key Polyglot .bin books are indexed by. The en-passant file counts only when a pawn of the side to
// move attacks the ep square, as the book format says; so the position must still carry the ep square
// (EpPolicy::kKeep or kPseudo). Under EpPolicy::kLegal a pseudo-legal-only ep square is already gone
// and the key then differs from Polyglot's (rare: the capture would expose the king).
// Chess960 rights map by side: a king-side rook to the "short" entry, a queen-side rook to "long".
std::uint64_t polyglot_key(const Position& pos);

// What a dedup key looks at, from most to least.
enum class KeyLevel : std::uint8_t {
  kFull,            // placement, side, castling rights, ep square, halfmove clock, fullmove number
  kPosition,        // placement, side, castling rights, ep square (clocks ignored)
  kPlacementSide,   // placement and side to move
  kPlacement,       // placement only
};

struct Key128 {
  std::uint64_t lo;
  std::uint64_t hi;
  bool operator==(const Key128&) const = default;
};

// For unordered containers: the low half is already uniformly mixed.
struct Key128Hash {
  std::size_t operator()(const Key128& k) const { return static_cast<std::size_t>(k.lo); }
};

// XXH3-128 of key_material(pos, level): 48 bytes that hold the fields the level looks at, the others zeroed
// (castling rooks and ep square: kNoSquare).
// The ep square is hashed as stored: normalize it first. The default dedup level (kPosition) wants the
// legal-ep square (EpPolicy::kLegal), so that "e3" written after 1.e4 with no capture possible and "-"
// give the same key. The level is part of the hashed bytes, so keys of different levels never match.
Key128 dedup_key(const Position& pos, KeyLevel level);

// The bytes dedup_key hashes (keys.cpp says how they are laid out): equal for two positions exactly when the level
// sees no difference between them. Exposed for the tests, which check that on real and random positions.
struct KeyMaterial {
  std::uint64_t words[6];
  bool operator==(const KeyMaterial&) const = default;
};
KeyMaterial key_material(const Position& pos, KeyLevel level);

}  // namespace fenmill
