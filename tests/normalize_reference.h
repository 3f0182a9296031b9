// normalize_fen as it stood before it was made inline (session 19, base b88dca6), kept verbatim as a test oracle:
// tests/normalize_inline_test.cpp holds src/fen/normalize.h's normalize_fen to exactly this NormalizeResult and
// position on real and mutated records. Do not "fix" it along with normalize_fen: a change goes into both on purpose.
#pragma once
#include <string_view>

#include "fen/epd_operations.h"
#include "fen/normalize.h"

namespace fenmill::normalize_reference {

inline NormalizeResult normalize_fen(std::string_view text, Position& pos, const NormalizeOptions& options);

inline bool castling_valid_as_chess960(std::string_view text, ErrorCode code, NormalizeOptions options) {
  if (options.chess960 || (code != ErrorCode::kCastlingNoRook && code != ErrorCode::kCastlingMismatch)) return false;
  options.chess960 = true;
  Position pos;
  return normalize_reference::normalize_fen(text, pos, options).ok();
}

inline NormalizeResult normalize_fen(std::string_view text, Position& pos, const NormalizeOptions& options) {
  NormalizeResult r;
  ParseOptions po;
  po.chess960 = options.chess960;
  po.allow_operations = options.allow_operations;
  po.repair = options.repair;
  ParseResult pr = parse_fen(text, pos, po);
  r.fields = pr.fields;
  r.rest = pr.rest;
  r.placement_length = pr.placement_length;
  if (!pr.ok()) {
    r.code = pr.code;
    r.column = pr.column;
    return r;
  }
  bool clock_repaired = pr.clock_repaired;
  if (options.allow_operations && pr.rest < text.size()) {  // EPD: hmvc / fmvn operations carry the clocks
    r.code = apply_epd_clocks(text, pr.rest, pos, options.repair, clock_repaired, r.column, &r.operations_as_written);
    if (!r.ok()) return r;
  }
  Verdict v = validate(pos, options.repair);
  r.repairs = static_cast<std::uint8_t>(v.repairs | (clock_repaired ? kRepairClock : 0));
  if (!v.ok()) {
    r.code = v.code;
    r.hints = v.hints;
    r.squares = v.squares;
    if (normalize_reference::castling_valid_as_chess960(text, v.code, options)) r.hints |= kHintChess960;
    return r;
  }
  const Square ep = pos.ep_square;
  apply_ep_policy(pos, options.ep);
  r.canonical = pr.canonical && r.repairs == 0 && pos.ep_square == ep;
  return r;
}

}  // namespace fenmill::normalize_reference
