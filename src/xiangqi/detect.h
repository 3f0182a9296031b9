// For --variant auto: does a FEN record look like Xiangqi rather than chess?
#pragma once
#include <string_view>

namespace fenmill::xiangqi {

// Looks at the first field (the placement; leading blanks skipped, the rest of the record ignored):
// true if it has 10 ranks (9 slashes), or if it is not 8 ranks and uses a character only Xiangqi has
// (A C E H in either case, or the digit 9), so that a damaged Xiangqi FEN still gets Xiangqi's error
// messages. Cheap: one pass over at most the placement's bytes.
bool looks_like_xiangqi(std::string_view record);

}  // namespace fenmill::xiangqi
