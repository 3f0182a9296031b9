#include "core/position.h"

namespace fenmill {

void Position::clear() {
  by_color[0] = by_color[1] = 0;
  for (auto& b : by_type) b = 0;
  castling_rook[0][0] = castling_rook[0][1] = castling_rook[1][0] = castling_rook[1][1] = kNoSquare;
  ep_square = kNoSquare;
  side_to_move = kWhite;
  halfmove_clock = 0;
  fullmove_number = 1;
}

bool Position::has_castling() const {
  return castling_rook[0][0] != kNoSquare || castling_rook[0][1] != kNoSquare ||
         castling_rook[1][0] != kNoSquare || castling_rook[1][1] != kNoSquare;
}

}  // namespace fenmill
