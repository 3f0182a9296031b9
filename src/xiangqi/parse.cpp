#include "xiangqi/parse.h"

#include "fen/text_cursor.h"

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

// The fast path for a well-formed placement: one table step per byte and no data-dependent branch (a branch
// per character class mispredicts several times per FEN). Any doubt (bad character, rank sums, "54") returns
// false, and the careful loop below finds and names the error.
struct PlacementStepTable {
  // bits 0-4: slot (0..13 piece as colour * 7 + type with the UCCI letters, 14..17 the WXF letters E H e h,
  // 18 '/', 19 digit); bits 5-30: what the counter adds (squares, slashes at bit 10, digits at bit 17);
  // bit 31: not a placement character.
  std::uint32_t step[256];
  static constexpr std::uint32_t kStop = 1u << 31;
  static constexpr int kSlashSlot = 18, kDigitSlot = 19, kSlots = 20;
  constexpr PlacementStepTable() : step() {
    for (auto& s : step) s = kStop;
    constexpr char kUcci[] = "KABNRCPkabnrcp";
    for (std::uint32_t i = 0; i < 14; ++i) step[static_cast<unsigned char>(kUcci[i])] = i | (1u << 5);
    constexpr char kWxf[] = "EHeh";
    for (std::uint32_t i = 0; i < 4; ++i) step[static_cast<unsigned char>(kWxf[i])] = (14 + i) | (1u << 5);
    for (std::uint32_t n = 1; n <= 9; ++n) step['0' + n] = kDigitSlot | ((n | (1u << 17)) << 5);
    step[static_cast<unsigned char>('/')] = kSlashSlot | ((1u << 10) << 5);
  }
};
constexpr PlacementStepTable kPlacementStep;

// FEN order (a9 = 0 ... i0 = 89) -> the point's bit (a0 = 0 ... i9 = 89) as two 64-bit halves, so that the
// loop needs no 128-bit shift. Counts past the board map to no bit; the square count then rejects them.
struct FenOrderTable {
  std::uint64_t low[128];
  std::uint64_t high[128];
  constexpr FenOrderTable() : low(), high() {
    for (int i = 0; i < kSquareCount; ++i) {
      int point = make_square(i % kFileCount, kRankCount - 1 - i / kFileCount);
      (point < 64 ? low[i] : high[i]) = std::uint64_t(1) << (point & 63);
    }
  }
};
constexpr FenOrderTable kFenOrder;

// Counter fields: squares in bits 0-9 (at most 100 bytes of 9s: 900 < 1024), slashes from bit 10, digits from 17.
constexpr std::uint32_t kSlashUnit = 1u << 10, kDigitUnit = 1u << 17;
constexpr std::ptrdiff_t kMaxPlacement = kSquareCount + kRankCount - 1;  // 90 pieces and 9 slashes

bool parse_placement_fast(Cursor& c, Position& pos, std::uint8_t& seen) {
  std::uint64_t low[PlacementStepTable::kSlots], high[PlacementStepTable::kSlots];
  for (int i = 0; i < PlacementStepTable::kSlots; i += 2)  // vector stores: `= {}` became rep stosq, slow to start
    low[i] = low[i + 1] = high[i] = high[i + 1] = 0;
  std::uint32_t count = 0;
  const char* p = c.p;
  const char* end = c.end - c.p > kMaxPlacement ? c.p + kMaxPlacement + 1 : c.end;
  for (; p < end; ++p) {
    std::uint32_t step = kPlacementStep.step[static_cast<unsigned char>(*p)];
    if (step & PlacementStepTable::kStop) break;
    low[step & 31] |= kFenOrder.low[count & 127];
    high[step & 31] |= kFenOrder.high[count & 127];
    count += step >> 5;
  }
  Bitboard slot[PlacementStepTable::kSlots];
  for (int s = 0; s < PlacementStepTable::kSlots; ++s) slot[s] = Bitboard(high[s]) << 64 | low[s];
  // 90 squares with a slash after every 9 make 10 ranks of 9. Adjacent digits ("54") are the only other
  // syntax error left: each run of empty points then takes more than one digit.
  Bitboard occupied = 0;
  for (int s = 0; s < 18; ++s) occupied |= slot[s];
  Bitboard empty = kAllSquares & ~occupied;
  constexpr Bitboard kFileA = kFileBB[0];
  int empty_runs = popcount(empty & ~((empty << 1) & ~kFileA));
  // A slash is recorded at the first point of the rank it opens: a8, a7, ..., a0.
  constexpr Bitboard kSlashPoints = kFileA & ~square_bb(make_square(0, kRankCount - 1));
  std::uint32_t expected = kSquareCount | (kRankCount - 1) * kSlashUnit | static_cast<std::uint32_t>(empty_runs) * kDigitUnit;
  if (count != expected || slot[PlacementStepTable::kSlashSlot] != kSlashPoints || (p != c.end && !is_blank(*p)))
    return false;
  // Fold the WXF letters into their UCCI slots: E -> B (elephant), H -> N (horse).
  Bitboard wxf = slot[14] | slot[15] | slot[16] | slot[17];
  Bitboard ucci = slot[kElephant] | slot[kHorse] | slot[kPieceTypeCount + kElephant] | slot[kPieceTypeCount + kHorse];
  slot[kElephant] |= slot[14];
  slot[kHorse] |= slot[15];
  slot[kPieceTypeCount + kElephant] |= slot[16];
  slot[kPieceTypeCount + kHorse] |= slot[17];
  for (int t = 0; t < kPieceTypeCount; ++t) pos.by_type[t] = slot[t] | slot[kPieceTypeCount + t];
  pos.by_color[kRed] = slot[0] | slot[1] | slot[2] | slot[3] | slot[4] | slot[5] | slot[6];
  pos.by_color[kBlack] = occupied & ~pos.by_color[kRed];
  seen = static_cast<std::uint8_t>((ucci ? kSeenUcci : 0) | (wxf ? kSeenWxf : 0));
  c.p = p;
  return true;
}

// On an error the cursor stays on the byte that broke the rule (or the field end), as for chess.
ErrorCode parse_placement(Cursor& c, Position& pos, std::uint8_t& seen) {
  if (parse_placement_fast(c, pos, seen)) return ErrorCode::kOk;
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
    if (half > 65535) return failed(ErrorCode::kClockRange, half_start);
    if (full > 1000000) return failed(ErrorCode::kClockRange, full_start);
    pos.halfmove_clock = static_cast<std::uint16_t>(half);
    pos.fullmove_number = static_cast<std::uint32_t>(full);
    c.skip_blanks();
  }
  result.rest = static_cast<std::uint32_t>(c.p - text.data());
  if (c.p != c.end && !options.allow_operations) return failed(ErrorCode::kTrailingText, c);
  return result;
}

}  // namespace fenmill::xiangqi
