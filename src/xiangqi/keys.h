// The 128-bit XXH3 dedup key of a Xiangqi position, with chess's KeyLevel meanings. Xiangqi has no castling
// or en-passant state, so kPosition and kPlacementSide look at the same fields (the keys still differ,
// because the level is hashed too). Xiangqi keys never equal chess keys: a variant tag is hashed as well.
#pragma once
#include "core/keys.h"
#include "xiangqi/position.h"

namespace fenmill::xiangqi {

Key128 dedup_key(const Position& pos, KeyLevel level);

}  // namespace fenmill::xiangqi
