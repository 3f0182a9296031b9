#include "fen/parse.h"

#include <bit>
#include <cstring>

#include "fen/clock_text.h"
#include "fen/placement_fast.h"
#include "fen/text_cursor.h"

namespace fenmill {
namespace {

// Placement characters: 0..11 = piece (colour * 6 + type), 20 + n = digit n, 30 = '/', -1 = invalid.
struct PlacementTable {
  std::int8_t code[256];
  constexpr PlacementTable() : code() {
    for (auto& c : code) c = -1;
    const char* letters = "PNBRQKpnbrqk";
    for (int i = 0; i < 12; ++i) code[static_cast<unsigned char>(letters[i])] = static_cast<std::int8_t>(i);
    for (int n = 1; n <= 8; ++n) code['0' + n] = static_cast<std::int8_t>(20 + n);
    code[static_cast<unsigned char>('/')] = 30;
  }
};
constexpr PlacementTable kPlacement;

ParseResult fail(ErrorCode code, const Cursor& c, std::uint8_t fields) {
  ParseResult r;
  r.code = code;
  r.column = c.column();
  r.fields = fields;
  return r;
}

bool parse_placement_fast(Cursor& c, Position& pos) { return parse_placement_fast(c.p, c.end, pos, c.p); }

// `try_fast`: false when the fast readers already failed on this text (they would again): the careful loop at once.
ErrorCode parse_placement(Cursor& c, Position& pos, bool try_fast = true) {
  if (try_fast && parse_placement_fast(c, pos)) return ErrorCode::kOk;
  int rank = 7, file = 0;
  bool last_was_digit = false;
  for (; !c.at_field_end(); ++c.p) {
    int code = kPlacement.code[static_cast<unsigned char>(*c.p)];
    if (code >= 0 && code < 12) {
      if (file >= 8) return ErrorCode::kRankSum;
      Square s = make_square(file, rank);
      pos.by_color[code >= 6] |= square_bb(s);
      pos.by_type[code % 6] |= square_bb(s);
      ++file;
      last_was_digit = false;
    } else if (code > 20 && code <= 28) {
      if (last_was_digit) return ErrorCode::kBadPiece;  // "44" is not FEN
      file += code - 20;
      if (file > 8) return ErrorCode::kRankSum;
      last_was_digit = true;
    } else if (code == 30) {
      if (file != 8) return ErrorCode::kRankSum;
      if (rank == 0) return ErrorCode::kRankCount;
      --rank;
      file = 0;
      last_was_digit = false;
    } else {
      return ErrorCode::kBadPiece;
    }
  }
  if (rank != 0) return ErrorCode::kRankCount;
  if (file != 8) return ErrorCode::kRankSum;
  return ErrorCode::kOk;
}

// Resolves a castling letter to the castling rook's square; returns kNoSquare if the letter is
// not a castling letter. A right that names no rook still gets a square, so validation can report it.
Square castling_square(char ch, const Position& pos, bool chess960, Color& color, CastlingSide& side) {
  color = (ch >= 'a' && ch <= 'z') ? kBlack : kWhite;
  char up = static_cast<char>(ch & ~0x20);
  int back = color == kWhite ? 0 : 7;
  Bitboard rooks = pos.pieces(color, kRook) & rank_bb(back);
  Bitboard king = pos.pieces(color, kKing) & rank_bb(back);
  int king_file = king ? file_of(lsb(king)) : 4;
  if (up >= 'A' && up <= 'H') {  // Shredder-FEN / X-FEN file letter
    int f = up - 'A';
    side = f > king_file ? kKingSide : kQueenSide;
    return make_square(f, back);
  }
  if (up != 'K' && up != 'Q') return kNoSquare;
  side = up == 'K' ? kKingSide : kQueenSide;
  Square corner = make_square(side == kKingSide ? 7 : 0, back);
  if (!chess960 && king_file == 4) return corner;  // standard chess
  Bitboard beyond = side == kKingSide ? rooks & ~((square_bb(make_square(king_file, back)) << 1) - 1)
                                      : rooks & (square_bb(make_square(king_file, back)) - 1);
  if (!beyond) return corner;
  return side == kKingSide ? msb(beyond) : lsb(beyond);
}

// The castling fields the writer writes for standard chess, "K" to "KQkq" (the letters present, in K Q k q order), as
// a table: one multiply-and-shift of the field's bytes finds the only entry the field can be, one compare tells
// whether it is. The per-letter loop it replaces cost ~20 instructions a letter; a third of real records have
// such a field (KQkq alone a fifth).
struct StandardCastlingTable {
  static constexpr std::uint32_t kMultiplier = 0x79bb7403;  // gives the 15 fields 15 distinct slots (checked below)
  struct Entry {
    std::uint32_t text = 0;   // the field's bytes, text[0] lowest, zero past its length
    std::uint8_t length = 0;  // 0: no field has this slot
    std::uint8_t colors = 0;  // bit 0: a white right, bit 1: a black one
    Square rooks[2][2] = {{kNoSquare, kNoSquare}, {kNoSquare, kNoSquare}};  // Position::castling_rook
  };
  Entry slot[16];
  bool distinct = true;
  static constexpr std::uint32_t bytes(const char* s, int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(s[i])) << (8 * i);
    return v;
  }
  static constexpr unsigned index(std::uint32_t text) { return (text * kMultiplier) >> 28; }
  constexpr StandardCastlingTable() {
    constexpr char kLetters[] = "KQkq";
    constexpr Square kCorner[4] = {make_square(7, 0), make_square(0, 0), make_square(7, 7), make_square(0, 7)};
    for (int rights = 1; rights < 16; ++rights) {
      Entry e;
      char text[4] = {};
      for (int k = 0; k < 4; ++k) {
        if (!(rights >> k & 1)) continue;
        text[e.length++] = kLetters[k];
        e.rooks[k / 2][k % 2] = kCorner[k];
        e.colors |= static_cast<std::uint8_t>(1 << (k / 2));
      }
      e.text = bytes(text, e.length);
      Entry& s = slot[index(e.text)];
      if (s.length != 0) distinct = false;
      s = e;
    }
  }
};
constexpr StandardCastlingTable kStandardCastling;
static_assert(kStandardCastling.distinct, "every standard castling field needs a slot of its own");

// Bit c set when colour c's castling letters K/Q mean the corner rooks (castling_square's standard case): no X-FEN,
// and the king on the e-file if it is on its back rank (the lowest such king, as castling_square takes it).
unsigned standard_king_colors(const Position& pos, bool chess960) {
  if (chess960) return 0;
  const Bitboard kings = pos.by_type[kKing];
  const unsigned white = static_cast<unsigned>(kings & pos.by_color[kWhite] & 0xFF);
  const unsigned black = static_cast<unsigned>((kings & pos.by_color[kBlack]) >> 56);
  // The lowest back-rank king (x & -x) is none or e1/e8.
  auto home = [](unsigned back_rank_kings) { return (back_rank_kings & (0u - back_rank_kings) & ~0x10u) == 0; };
  return (home(white) ? 1u : 0u) | (home(black) ? 2u : 0u);
}

// The castling field at p (not '-', not blank; p[0..3] readable) when it is one the writer writes for standard
// chess with the kings where that reading holds: sets pos.castling_rook and returns the field's length; 0 for
// anything else (the per-letter loop then decides).
int read_standard_castling(const char* p, Position& pos, bool chess960) {
  const std::uint32_t word = StandardCastlingTable::bytes(p, 4);
  const std::uint32_t x = word ^ 0x20202020u;  // a zero byte where p has a space
  const std::uint32_t spaces = (x - 0x01010101u) & ~x & 0x80808080u;  // exact for the first space
  const int length = spaces ? __builtin_ctz(spaces) >> 3 : 4;  // the caller checks that a space follows
  const std::uint32_t text = word & static_cast<std::uint32_t>((std::uint64_t{1} << (8 * length)) - 1);
  const StandardCastlingTable::Entry& e = kStandardCastling.slot[StandardCastlingTable::index(text)];
  if (e.text != text || e.length != length || (e.colors & ~standard_king_colors(pos, chess960)) != 0) return 0;
  std::memcpy(pos.castling_rook, e.rooks, sizeof pos.castling_rook);
  return length;
}

ErrorCode parse_castling(Cursor& c, Position& pos, bool chess960) {
  if (*c.p == '-') {
    ++c.p;
    return c.at_field_end() ? ErrorCode::kOk : ErrorCode::kBadCastling;
  }
  for (int n = 0; !c.at_field_end(); ++c.p, ++n) {
    Color color;
    CastlingSide side;
    Square s = n < 4 ? castling_square(*c.p, pos, chess960, color, side) : kNoSquare;
    if (s == kNoSquare || pos.castling_rook[color][side] != kNoSquare) return ErrorCode::kBadCastling;
    pos.castling_rook[color][side] = s;
  }
  return ErrorCode::kOk;
}

ErrorCode parse_ep(Cursor& c, Position& pos) {
  if (*c.p == '-') {
    ++c.p;
  } else {
    if (c.end - c.p < 2 || c.p[0] < 'a' || c.p[0] > 'h' || c.p[1] < '1' || c.p[1] > '8')
      return ErrorCode::kBadEpSyntax;
    pos.ep_square = make_square(c.p[0] - 'a', c.p[1] - '1');
    c.p += 2;
  }
  return c.at_field_end() ? ErrorCode::kOk : ErrorCode::kBadEpSyntax;
}

// A castling field read_standard_castling does not take (an order the writer does not use, file letters, a king off
// the e-file), letter by letter up to the next space or `end`: sets pos.castling_rook and returns the byte after the
// field (null when the careful parser must decide) and whether the writer writes the field so. Out of line: rare,
// and its registers would cost the fast path's frame on every record.
struct CastlingLetters {
  const char* after;
  bool canonical;
};
__attribute__((noinline)) CastlingLetters read_castling_letters(const char* p, const char* end, Position& pos,
                                                                bool chess960) {
  // With the king on e1/e8 (or off its back rank) and no X-FEN, castling_square gives KQkq the
  // corner rooks: decided once per colour instead of once per letter.
  const unsigned standard = standard_king_colors(pos, chess960);
  bool canonical = true;
  int last_right = -1;  // the writer's order: K Q k q
  for (int n = 0; p < end && *p != ' '; ++p, ++n) {
    Color color = kWhite;
    CastlingSide side = kKingSide;
    Square s = kNoSquare;
    switch (*p) {
      case 'K': s = make_square(7, 0); break;
      case 'Q': s = make_square(0, 0), side = kQueenSide; break;
      case 'k': s = make_square(7, 7), color = kBlack; break;
      case 'q': s = make_square(0, 7), color = kBlack, side = kQueenSide; break;
    }
    if (s == kNoSquare || !(standard >> color & 1)) {
      s = n < 4 ? castling_square(*p, pos, chess960, color, side) : kNoSquare;
      canonical = false;  // a file letter, or K/Q for a rook the writer may name otherwise
    }
    if (n >= 4 || s == kNoSquare || pos.castling_rook[color][side] != kNoSquare) return {nullptr, false};
    pos.castling_rook[color][side] = s;
    const int right = 2 * color + side;
    canonical &= right > last_right;
    last_right = right;
  }
  return {p, canonical};
}

// The common layout, "<placement> w KQkq - 0 1" or its first four fields, single spaces (with operations allowed:
// EPD's four fields and its operations, `rest` then their start): read in one straight pass. Returns the number
// of fields (4 or 6), or 0 for anything else
// (pos may then be half filled): parse_fen then starts again with the careful code, which owns every
// error message. `canonical` says whether the six fields are written as write_fen writes them (castling
// letters KQkq in that order, clocks without leading zeros), given that validation changes nothing.
int parse_fen_fast(std::string_view text, const char* end, Position& pos, const ParseOptions& options,
                   std::uint8_t& placement_length, bool& canonical, bool& placement_failed, const char*& rest) {
  const char* p;  // set by the reader when it accepts
  if (!parse_placement_fast(text.data(), end, pos, p)) return placement_failed = true, 0;
  placement_length = static_cast<std::uint8_t>(p - text.data());
  if (end - p < 6) return 0;
  // " w " or " b ": one load and one compare of three bytes instead of four tests (p[3] is readable, see above).
  static_assert(std::endian::native == std::endian::little, "bytes() puts text[0] lowest");
  std::uint32_t side;
  std::memcpy(&side, p, 4);
  side &= 0xFFFFFF;
  if (side != StandardCastlingTable::bytes(" w ", 3) && side != StandardCastlingTable::bytes(" b ", 3)) return 0;
  pos.side_to_move = p[1] == 'w' ? kWhite : kBlack;
  pos.castling_rook[kWhite][kKingSide] = pos.castling_rook[kWhite][kQueenSide] = kNoSquare;  // what clear() sets
  pos.castling_rook[kBlack][kKingSide] = pos.castling_rook[kBlack][kQueenSide] = kNoSquare;
  pos.ep_square = kNoSquare;
  p += 3;
  if (*p == '-') {
    ++p;
  } else if (*p == ' ') {
    return 0;  // an empty field: the careful parser reads the next one as castling
  } else if (const int length = end - p >= 4 ? read_standard_castling(p, pos, options.chess960) : 0) {
    p += length;
  } else {
    const CastlingLetters letters = read_castling_letters(p, end, pos, options.chess960);
    if (letters.after == nullptr) return 0;
    p = letters.after;
    canonical &= letters.canonical;
  }
  if (end - p < 2 || *p++ != ' ') return 0;
  if (*p == '-') {
    ++p;
  } else {
    if (end - p < 2 || p[0] < 'a' || p[0] > 'h' || p[1] < '1' || p[1] > '8') return 0;
    pos.ep_square = make_square(p[0] - 'a', p[1] - '1');
    p += 2;
  }
  // The clocks are stored once, here: what clear() sets for four fields, else as read.
  auto four_fields = [&] {
    pos.halfmove_clock = 0;
    pos.fullmove_number = 1;
    return 4;
  };
  if (p == end) return four_fields();
  if (options.allow_operations) {
    // EPD: four fields, one space, then an operation (its opcode starts with a letter), as the careful parser
    // reads it; clocks or any other layout are the careful parser's.
    if (end - p < 2 || p[0] != ' ' || !((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z'))) return 0;
    rest = p + 1;
    return four_fields();
  }
  ClockText clocks;  // short digit runs only, so the range checks below are the careful parser's
  if (!read_clock_text(p, end, clocks)) return 0;
  if (clocks.leading_zero) canonical = false;  // "05" is written "5"
  const std::uint32_t half = clocks.halfmove, full = clocks.fullmove;
  if (half > kMaxHalfmoveClock || full == 0 || full > kMaxFullmoveNumber) return 0;
  pos.halfmove_clock = static_cast<std::uint16_t>(half);
  pos.fullmove_number = full;
  return 6;
}

// Everything the fast path does not take, with every error's code and column. Not inlined into parse_fen: its larger
// frame would cost every record.
__attribute__((noinline)) ParseResult parse_fen_careful(std::string_view text, const char* end, Position& pos,
                                                        const ParseOptions& options, bool placement_failed) {
  pos.clear();
  Cursor c{text.data(), text.data(), end, false};
  c.skip_blanks();
  if (c.p == c.end) return fail(ErrorCode::kEmptyRecord, c, 0);

  const bool placement_at_start = c.p == text.data();
  // A placement at the text's start that the fast readers refused is read by the careful loop alone.
  if (ErrorCode e = parse_placement(c, pos, !(placement_failed && placement_at_start)); e != ErrorCode::kOk)
    return fail(e, c, 1);
  // Any placement either loop accepts is canonical (ranks of 8, digits 1-8, no "44"): writers may copy it.
  const std::uint8_t placement_length = placement_at_start ? static_cast<std::uint8_t>(c.p - text.data()) : 0;
  std::uint8_t fields = 1;
  auto next_field = [&] {
    c.skip_blanks();
    return c.p != c.end && !c.at_operations();
  };

  if (next_field()) {  // side to move
    fields = 2;
    if ((*c.p != 'w' && *c.p != 'b') || !(++c.p, c.at_field_end())) return fail(ErrorCode::kBadSide, c, fields);
    pos.side_to_move = c.p[-1] == 'w' ? kWhite : kBlack;
  }
  if (fields == 2 && next_field()) {  // castling
    fields = 3;
    if (ErrorCode e = parse_castling(c, pos, options.chess960); e != ErrorCode::kOk) return fail(e, c, fields);
  }
  c.semicolon_ends_field = options.allow_operations;
  if (fields == 3 && next_field()) {  // en passant
    fields = 4;
    if (ErrorCode e = parse_ep(c, pos); e != ErrorCode::kOk) return fail(e, c, fields);
  }
  ParseResult result;
  result.fields = fields;
  result.placement_length = placement_length;
  if (fields == 4 && next_field()) {
    Cursor saved = c;
    std::uint64_t half = 0, full = 0;
    bool half_ok = parse_uint(c, half);
    if (!half_ok && options.allow_operations) {
      result.rest = static_cast<std::uint32_t>(saved.p - text.data());
      return result;
    }
    if (!half_ok) return fail(ErrorCode::kBadHalfmove, c, 5);  // c: on the first byte that is no digit
    if (!next_field()) return fail(ErrorCode::kFieldCount, c, 5);
    Cursor full_start = c;
    if (!parse_uint(c, full)) return fail(ErrorCode::kBadFullmove, c, 6);
    if (full == 0) {
      if (!options.repair) return fail(ErrorCode::kBadFullmove, full_start, 6);
      full = 1;
      result.clock_repaired = true;
    }
    if (half > kMaxHalfmoveClock) return fail(ErrorCode::kClockRange, saved, 6);
    if (full > kMaxFullmoveNumber) return fail(ErrorCode::kClockRange, full_start, 6);
    pos.halfmove_clock = static_cast<std::uint16_t>(half);
    pos.fullmove_number = static_cast<std::uint32_t>(full);
    result.fields = 6;
    c.skip_blanks();
  }
  result.rest = static_cast<std::uint32_t>(c.p - text.data());
  if (c.p != c.end && !options.allow_operations) return fail(ErrorCode::kTrailingText, c, result.fields);
  return result;
}

}  // namespace

ParseResult parse_fen(std::string_view text, Position& pos, const ParseOptions& options) {
  const char* end = text.data() + text.size();
  while (end > text.data() && is_trailing_junk(end[-1])) --end;
  std::uint8_t placement_length = 0;
  bool canonical = true, placement_failed = false;
  const char* rest = end;
  if (int fields = parse_fen_fast(text, end, pos, options, placement_length, canonical, placement_failed, rest)) {
    // Built here, field by field: copying a result assembled elsewhere stalls on store forwarding.
    ParseResult result;
    result.fields = static_cast<std::uint8_t>(fields);
    result.placement_length = placement_length;
    result.rest = static_cast<std::uint32_t>(rest - text.data());
    result.canonical = canonical && fields == 6;
    return result;
  }
  return parse_fen_careful(text, end, pos, options, placement_failed);
}

}  // namespace fenmill
