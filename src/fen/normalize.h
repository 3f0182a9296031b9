// One call from FEN text to a checked, normalized position: parse, validate (or repair), apply the
// en-passant policy. Normalizing a normalized FEN gives the same FEN (idempotent).
#pragma once
#include <string_view>

#include "fen/parse.h"
#include "fen/validate.h"
#include "fen/write.h"

namespace fenmill {

// The parser's options (chess960: X-FEN castling letters everywhere; repair; allow_operations: EPD) and the ep
// policy. A ParseOptions itself, so that normalize_fen hands it to parse_fen as it is.
struct NormalizeOptions : ParseOptions {
  EpPolicy ep = EpPolicy::kLegal;
};

struct NormalizeResult {
  ErrorCode code = ErrorCode::kOk;
  std::uint32_t column = 0;   // syntax errors only
  std::uint8_t fields = 0;    // fields present in the input
  std::uint8_t repairs = 0;   // Repair bits
  std::uint8_t hints = 0;     // Hint bits, for rejected positions
  Bitboard squares = 0;       // offending squares, for rejected positions
  std::uint32_t rest = 0;     // offset of EPD operations (allow_operations)
  std::uint8_t placement_length = 0;  // ParseResult::placement_length: text[0, n) may be copied by writers
  bool canonical = false;  // text[0, rest) is exactly write_fen's text of the normalized position
  bool operations_as_written = false;  // EPD: text[rest, ...) holds operations, EpdClocks::as_written
  bool ok() const { return code == ErrorCode::kOk; }
  bool completed() const { return fields < 4; }
};

void apply_ep_policy(Position& pos, EpPolicy policy);

namespace normalize_detail {
// normalize_fen's rare steps, out of line so that its common record stays small where it is inlined.
// EPD hmvc / fmvn operations at text[r.rest, ...): sets the clocks (or r.code and r.column).
void apply_clock_operations(std::string_view text, Position& pos, bool repair, bool& clock_repaired,
                            NormalizeResult& r);
// A position validation rejected: the verdict into r, with kHintChess960 when the record is valid read as X-FEN.
void reject(std::string_view text, const Verdict& v, const NormalizeOptions& options, NormalizeResult& r);
}  // namespace normalize_detail

// Inline: the common record (parsed, valid, no ep square or clock operations) costs the caller no call and no
// result marshalling (tests/normalize_inline_test.cpp holds it to the out-of-line version it replaced).
inline NormalizeResult normalize_fen(std::string_view text, Position& pos, const NormalizeOptions& options = {}) {
  NormalizeResult r;
  const ParseResult pr = parse_fen(text, pos, options);
  r.fields = pr.fields;
  r.rest = pr.rest;
  r.placement_length = pr.placement_length;
  if (!pr.ok()) [[unlikely]] {
    r.code = pr.code;
    r.column = pr.column;
    return r;
  }
  bool clock_repaired = pr.clock_repaired;
  if (options.allow_operations && pr.rest < text.size()) {
    normalize_detail::apply_clock_operations(text, pos, options.repair, clock_repaired, r);
    if (!r.ok()) return r;
  }
  const Verdict v = validate(pos, options.repair);
  r.repairs = static_cast<std::uint8_t>(v.repairs | (clock_repaired ? kRepairClock : 0));
  if (!v.ok()) [[unlikely]] {
    normalize_detail::reject(text, v, options, r);
    return r;
  }
  r.canonical = pr.canonical && r.repairs == 0;
  if (const Square ep = pos.ep_square; ep != kNoSquare) {
    apply_ep_policy(pos, options.ep);
    r.canonical &= pos.ep_square == ep;  // a dropped ep square is not written
  }
  return r;
}

// Whether a record that standard chess rejects for its castling rights is valid read as Chess960 (X-FEN, where K
// and Q name the outermost rook): a Chess960 start with its king on the e-file, read without --chess960, says so
// (kHintChess960). Rejected records only: it normalizes the record again.
bool castling_valid_as_chess960(std::string_view text, ErrorCode code, NormalizeOptions options);

}  // namespace fenmill
