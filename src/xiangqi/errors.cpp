#include "xiangqi/errors.h"

namespace fenmill::xiangqi {

std::string_view message_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::kRankCount: return "placement must have exactly 10 ranks separated by '/'";
    case ErrorCode::kRankSum: return "a rank does not sum to 9 points";
    case ErrorCode::kBadPiece: return "invalid character in the piece placement (pieces KABNRCP or KAEHRCP, digits 1-9)";
    case ErrorCode::kFieldCount: return "a Xiangqi FEN has 1, 2, 3, 4 or 6 fields";
    case ErrorCode::kBadSide: return "side to move must be 'w' or 'r' (Red) or 'b' (Black)";
    case ErrorCode::kBadCastling: return "the third field must be '-' (Xiangqi has no castling)";
    case ErrorCode::kBadEpSyntax: return "the fourth field must be '-' (Xiangqi has no en passant)";
    case ErrorCode::kBadHalfmove: return "halfmove clock must be a non-negative integer or '-'";
    case ErrorCode::kBadFullmove: return "fullmove number must be a positive integer or '-'";
    case ErrorCode::kMissingKing: return "each side needs exactly one general";
    case ErrorCode::kTooManyKings: return "each side needs exactly one general";
    case ErrorCode::kOppositeCheck: return "the side not to move is in check";
    default: return fenmill::error_message(code);
  }
}

}  // namespace fenmill::xiangqi
