#include "fen/normalize.h"

#include "fen/epd_operations.h"

namespace fenmill {

void apply_ep_policy(Position& pos, EpPolicy policy) {
  if (pos.ep_square == kNoSquare) return;
  bool keep = policy == EpPolicy::kKeep || (policy == EpPolicy::kPseudo ? ep_capture_pseudo(pos) : ep_capture_legal(pos));
  if (!keep) pos.ep_square = kNoSquare;
}

namespace normalize_detail {

void apply_clock_operations(std::string_view text, Position& pos, bool repair, bool& clock_repaired,
                            NormalizeResult& r) {
  r.code = apply_epd_clocks(text, r.rest, pos, repair, clock_repaired, r.column, &r.operations_as_written);
}

void reject(std::string_view text, const Verdict& v, const NormalizeOptions& options, NormalizeResult& r) {
  r.code = v.code;
  r.hints = v.hints;
  r.squares = v.squares;
  if (castling_valid_as_chess960(text, v.code, options)) r.hints |= kHintChess960;
}

}  // namespace normalize_detail

bool castling_valid_as_chess960(std::string_view text, ErrorCode code, NormalizeOptions options) {
  if (options.chess960 || (code != ErrorCode::kCastlingNoRook && code != ErrorCode::kCastlingMismatch)) return false;
  options.chess960 = true;
  Position pos;
  return normalize_fen(text, pos, options).ok();
}

}  // namespace fenmill
