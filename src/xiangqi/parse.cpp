#include "xiangqi/parse.h"

#include "core/clock_limits.h"
#include "fen/text_cursor.h"
#include "xiangqi/placement_fast.h"
#include "xiangqi/trailer_fast.h"

namespace fenmill::xiangqi {
namespace {

// Placement characters: 0..13 = piece (colour * 7 + type), 20 + n = digit n, 30 = '/', -1 = invalid.
struct PlacementTable {
  std::int8_t code[256];
  std::uint8_t seen[256];  // LetterSeen bit of the letter
  constexpr PlacementTable() : code(), seen() {
    for (auto& c : code) c = -1;
    // Both letter sets map to the same types: "KABNRCP" (UCCI) and "KAEHRCP" (WXF / the document).
    constexpr char kUcci[] = "KABNRCP";
    constexpr char kWxf[] = "KAEHRCP";
    for (int colour = 0; colour < 2; ++colour)
      for (int t = 0; t < kPieceTypeCount; ++t) {
        char lower = colour ? 0x20 : 0;
        auto u = static_cast<unsigned char>(kUcci[t] | lower);
        auto w = static_cast<unsigned char>(kWxf[t] | lower);
        code[u] = code[w] = static_cast<std::int8_t>(colour * kPieceTypeCount + t);
        if (u != w) {
          seen[u] = kSeenUcci;
          seen[w] = kSeenWxf;
        }
      }
    for (int n = 1; n <= 9; ++n) code['0' + n] = static_cast<std::int8_t>(20 + n);
    code[static_cast<unsigned char>('/')] = 30;
  }
};
constexpr PlacementTable kPlacement;

ParseResult fail(ErrorCode code, const Cursor& c, std::uint8_t fields, std::uint8_t seen = 0) {
  ParseResult r;
  r.code = code;
  r.column = c.column();
  r.fields = fields;
  r.letters_seen = seen;
  return r;
}

// On an error the cursor stays on the byte that broke the rule (or the field end), as for chess.
ErrorCode parse_placement(Cursor& c, Position& pos, std::uint8_t& seen) {
  if (const char* after = nullptr; parse_placement_fast(c.p, c.end, pos, seen, after)) {
    c.p = after;
    return ErrorCode::kOk;
  }
  Bitboard slot[2 * kPieceTypeCount] = {};  // per colour * 7 + type, merged into the position once
  int rank = kRankCount - 1, file = 0;
  bool last_was_digit = false;
  for (; !c.at_field_end(); ++c.p) {
    auto ch = static_cast<unsigned char>(*c.p);
    int code = kPlacement.code[ch];
    if (code >= 0 && code < 2 * kPieceTypeCount) {
      if (file >= kFileCount) return ErrorCode::kRankSum;
      slot[code] |= square_bb(make_square(file, rank));
      seen |= kPlacement.seen[ch];
      ++file;
      last_was_digit = false;
    } else if (code > 20 && code <= 29) {
      if (last_was_digit) return ErrorCode::kBadPiece;  // "54" is not FEN
      file += code - 20;
      if (file > kFileCount) return ErrorCode::kRankSum;
      last_was_digit = true;
    } else if (code == 30) {
      if (file != kFileCount) return ErrorCode::kRankSum;
      if (rank == 0) return ErrorCode::kRankCount;
      --rank;
      file = 0;
      last_was_digit = false;
    } else {
      return ErrorCode::kBadPiece;
    }
  }
  if (rank != 0) return ErrorCode::kRankCount;
  if (file != kFileCount) return ErrorCode::kRankSum;
  for (int colour = 0; colour < 2; ++colour)
    for (int t = 0; t < kPieceTypeCount; ++t) {
      Bitboard b = slot[colour * kPieceTypeCount + t];
      pos.by_color[colour] |= b;
      pos.by_type[t] |= b;
    }
  return ErrorCode::kOk;
}

// A clock written as '-' (the document's "w - - - 1").
bool parse_dash(Cursor& c) {
  Cursor after = c;
  ++after.p;
  if (*c.p != '-' || !after.at_field_end()) return false;
  c = after;
  return true;
}

// The first byte that makes a clock field malformed: past a leading '-' (a lone one is a clock) or past the digits.
Cursor malformed_clock_byte(Cursor c) {
  if (*c.p == '-') return ++c.p, c;
  while (c.p < c.end && *c.p >= '0' && *c.p <= '9') ++c.p;
  return c;
}

// A field that must be a lone '-' (castling, en passant). Returns false with the cursor on the bad byte.
bool parse_dash_field(Cursor& c) {
  if (*c.p != '-') return false;
  ++c.p;
  return c.at_field_end();
}

}  // namespace

ParseResult parse_fen(std::string_view text, Position& pos, const ParseOptions& options) {
  pos.clear();
  const char* end = text.data() + text.size();
  while (end > text.data() && is_trailing_junk(end[-1])) --end;
  Cursor c{text.data(), text.data(), end};
  c.skip_blanks();
  if (c.p == c.end) return fail(ErrorCode::kEmptyRecord, c, 0);

  std::uint8_t seen = 0;
  if (ErrorCode e = parse_placement(c, pos, seen); e != ErrorCode::kOk) return fail(e, c, 1, seen);
  ParseResult result;
  result.letters_seen = seen;
  result.fields = 1;
  if (read_trailer_fast(c.p, c.end, pos)) {  // " w - - H F": all six fields, in range
    result.fields = 6;
    result.rest = static_cast<std::uint32_t>(c.end - text.data());
    return result;
  }
  auto next_field = [&] {
    c.skip_blanks();
    return c.p != c.end && !c.at_operations();
  };
  auto failed = [&](ErrorCode code, const Cursor& at) { return fail(code, at, result.fields, seen); };

  if (next_field()) {  // side to move
    result.fields = 2;
    char side = *c.p;
    if ((side != 'w' && side != 'r' && side != 'b') || !(++c.p, c.at_field_end()))
      return failed(ErrorCode::kBadSide, c);
    pos.side_to_move = side == 'b' ? kBlack : kRed;
  }
  if (result.fields == 2 && next_field()) {  // castling: none in Xiangqi
    result.fields = 3;
    if (!parse_dash_field(c)) return failed(ErrorCode::kBadCastling, c);
  }
  c.semicolon_ends_field = options.allow_operations;  // as in chess (fen/text_cursor.h)
  if (result.fields == 3 && next_field()) {  // en passant: none in Xiangqi
    result.fields = 4;
    if (!parse_dash_field(c)) return failed(ErrorCode::kBadEpSyntax, c);
  }
  if (result.fields == 4 && next_field()) {
    Cursor half_start = c;
    std::uint64_t half = 0, full = 1;
    const bool half_ok = parse_dash(c) || parse_uint(c, half);
    if (!half_ok && options.allow_operations) {  // EPD: what is not a clock starts the operations, as in chess
      c = half_start;
      result.rest = static_cast<std::uint32_t>(c.p - text.data());
      return result;
    }
    result.fields = 5;
    if (!half_ok) return failed(ErrorCode::kBadHalfmove, malformed_clock_byte(half_start));
    if (!next_field()) return failed(ErrorCode::kFieldCount, c);
    result.fields = 6;
    Cursor full_start = c;
    if (!parse_dash(c)) {
      if (!parse_uint(c, full)) return failed(ErrorCode::kBadFullmove, malformed_clock_byte(full_start));
      if (full == 0) {
        if (!options.repair) return failed(ErrorCode::kBadFullmove, full_start);
        full = 1;
        result.clock_repaired = true;
      }
    }
    if (half > kMaxHalfmoveClock) return failed(ErrorCode::kClockRange, half_start);
    if (full > kMaxFullmoveNumber) return failed(ErrorCode::kClockRange, full_start);
    pos.halfmove_clock = static_cast<std::uint16_t>(half);
    pos.fullmove_number = static_cast<std::uint32_t>(full);
    c.skip_blanks();
  }
  result.rest = static_cast<std::uint32_t>(c.p - text.data());
  if (c.p != c.end && !options.allow_operations) return failed(ErrorCode::kTrailingText, c);
  return result;
}

}  // namespace fenmill::xiangqi
