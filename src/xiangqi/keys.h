// The 128-bit XXH3 dedup key of a Xiangqi position, with chess's KeyLevel meanings. Xiangqi has no castling
// or en-passant state, so kPosition and kPlacementSide look at the same fields (the keys still differ,
// because the level is hashed too). Xiangqi keys never equal chess keys: a variant tag is hashed as well.
#pragma once
#include <cstdint>

#include "core/keys.h"
#include "xiangqi/position.h"

namespace fenmill::xiangqi {

Key128 dedup_key(const Position& pos, KeyLevel level);

// The bytes dedup_key hashes (keys.cpp says how they are laid out): equal for two positions exactly when the level
// sees no difference between them. Exposed for the tests, which check that on real and random positions.
struct KeyMaterial {
  std::uint64_t words[10];
  bool operator==(const KeyMaterial&) const = default;
};
KeyMaterial key_material(const Position& pos, KeyLevel level);

}  // namespace fenmill::xiangqi
