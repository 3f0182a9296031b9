#include "formats/binary_record.h"

#include <cstdlib>
#include <cstring>

#include "fen/placement_fast.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace fenmill {
namespace {

constexpr std::uint32_t kMaxFullmove = 1000000;  // as the FEN parser's CLOCK_RANGE
constexpr std::size_t kCodesOffset = 8;
constexpr std::size_t kFlagsOffset = 24;
constexpr std::size_t kHalfmoveOffset = 25;
constexpr std::size_t kFullmoveOffset = 27;
constexpr std::size_t kReservedOffset = 31;
constexpr int kMaxPieces = 32;

// The ep square relates to the pushed pawn and its origin square by fixed rank offsets (rank 3 <-> 4 <-> 2,
// rank 6 <-> 5 <-> 7), which XOR on the rank bits expresses for both colours.
constexpr Square pawn_of_ep(Square ep) { return ep ^ 8; }
constexpr Square ep_of_pawn(Square pawn) { return pawn ^ 8; }
constexpr Square origin_of_ep(Square ep) { return ep ^ 24; }

void store_u64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint64_t load_u64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}

// Bytes 24-31: the side to move, the clocks, the reserved byte (0).
void store_side_and_clocks(const Position& pos, std::uint8_t out[kRecordSize]) {
  out[kFlagsOffset] = pos.side_to_move == kBlack ? 1 : 0;
  out[kHalfmoveOffset] = static_cast<std::uint8_t>(pos.halfmove_clock);
  out[kHalfmoveOffset + 1] = static_cast<std::uint8_t>(pos.halfmove_clock >> 8);
  for (int i = 0; i < 4; ++i) out[kFullmoveOffset + i] = static_cast<std::uint8_t>(pos.fullmove_number >> (8 * i));
  out[kReservedOffset] = 0;
}

// What decoding checks before the pieces: the flags, the reserved byte, the fullmove number, at most 32 pieces and
// zero nibbles after the last piece. Sets the piece count.
bool header_ok(const std::uint8_t in[kRecordSize], int& count) {
  if ((in[kFlagsOffset] & ~1u) != 0 || in[kReservedOffset] != 0) return false;
  std::uint32_t fullmove = 0;
  for (int i = 0; i < 4; ++i) fullmove |= std::uint32_t(in[kFullmoveOffset + i]) << (8 * i);
  if (fullmove == 0 || fullmove > kMaxFullmove) return false;
  count = popcount(load_u64(in));
  if (count > kMaxPieces) return false;
  // Nibbles past the last piece must be zero, so every position has exactly one record.
  auto tail_is_zero = [](std::uint64_t word, int used) { return used >= 16 || (word >> (4 * used)) == 0; };
  return tail_is_zero(load_u64(in + kCodesOffset), count) &&
         tail_is_zero(load_u64(in + kCodesOffset + 8), count > 16 ? count - 16 : 0);
}

// The position from the squares of each code (by_code), checking what decode_record's contract says.
bool assemble(const std::uint8_t in[kRecordSize], Bitboard occupied, const Bitboard by_code[16], Position& out) {
  if (by_code[kCodeInvalid] || more_than_one(by_code[kCodeEpPawn])) return false;
  out.clear();
  out.side_to_move = (in[kFlagsOffset] & 1) ? kBlack : kWhite;
  out.halfmove_clock = static_cast<std::uint16_t>(in[kHalfmoveOffset] | (in[kHalfmoveOffset + 1] << 8));
  std::uint32_t fullmove = 0;
  for (int i = 0; i < 4; ++i) fullmove |= std::uint32_t(in[kFullmoveOffset + i]) << (8 * i);
  out.fullmove_number = fullmove;
  Bitboard ep_pawn_bb = by_code[kCodeEpPawn];
  Bitboard white = ep_pawn_bb & (out.side_to_move == kBlack ? ~Bitboard(0) : 0);
  for (int t = 0; t < kPieceTypeCount; ++t) {
    out.by_type[t] = by_code[kCodeWhitePawn + t] | by_code[kCodeBlackPawn + t];
    white |= by_code[kCodeWhitePawn + t];
  }
  const Bitboard castling_rooks[2] = {by_code[kCodeWhiteCastlingRook], by_code[kCodeBlackCastlingRook]};
  out.by_type[kRook] |= castling_rooks[kWhite] | castling_rooks[kBlack];
  out.by_type[kPawn] |= ep_pawn_bb;
  white |= castling_rooks[kWhite];
  out.by_color[kWhite] = white;
  out.by_color[kBlack] = occupied ^ white;

  Square ep_pawn = ep_pawn_bb ? lsb(ep_pawn_bb) : kNoSquare;
  if (ep_pawn != kNoSquare) {
    // A pawn of the side not to move, on its fourth rank, with the two squares it crossed empty.
    if (relative_rank(~out.side_to_move, rank_of(ep_pawn)) != 3) return false;
    Square ep = ep_of_pawn(ep_pawn);
    if (occupied & (square_bb(ep) | square_bb(origin_of_ep(ep)))) return false;
    out.ep_square = ep;
  }

  for (int c = 0; c < 2; ++c) {
    if (!castling_rooks[c]) continue;
    Bitboard back = rank_bb(c == kWhite ? 0 : 7);
    // Exactly one king on the back rank says each rook's side; kings elsewhere are validate()'s to count.
    Bitboard kings = out.pieces(Color(c), kKing) & back;
    if ((castling_rooks[c] & ~back) || more_than_one(kings) || !kings) return false;
    int king_file = file_of(lsb(kings));
    for (Bitboard b = castling_rooks[c]; b; b &= b - 1) {
      Square rook = lsb(b);
      CastlingSide side = file_of(rook) > king_file ? kKingSide : kQueenSide;
      if (out.castling_rook[c][side] != kNoSquare) return false;
      out.castling_rook[c][side] = rook;
    }
  }
  return true;
}

}  // namespace

void encode_record_portable(const Position& pos, std::uint8_t out[kRecordSize]) {
  std::memset(out, 0, kRecordSize);
  std::uint8_t board[64];
  std::memset(board, kCodeInvalid, sizeof board);
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < kPieceTypeCount; ++t)
      for (Bitboard b = pos.by_color[c] & pos.by_type[t]; b; b &= b - 1)
        board[lsb(b)] = static_cast<std::uint8_t>(c * kCodeBlackPawn + t);
  for (int c = 0; c < 2; ++c)
    for (int side = 0; side < 2; ++side) {
      Square rook = pos.castling_rook[c][side];
      if (rook < 64 && board[rook] == c * kCodeBlackPawn + kRook)
        board[rook] = static_cast<std::uint8_t>(kCodeWhiteCastlingRook + c);
    }
  if (pos.ep_square < 64) {
    Square pawn = pawn_of_ep(pos.ep_square);
    int them = ~pos.side_to_move;
    if (board[pawn] == them * kCodeBlackPawn + kPawn) board[pawn] = kCodeEpPawn;
  }

  // Only the first 32 pieces fit; a validated position never has more.
  Bitboard occupied = 0;
  int n = 0;
  for (Bitboard b = pos.occupied(); b && n < kMaxPieces; b &= b - 1, ++n) {
    Square s = lsb(b);
    occupied |= square_bb(s);
    out[kCodesOffset + n / 2] |= static_cast<std::uint8_t>(board[s] << (4 * (n & 1)));
  }
  store_u64(out, occupied);
  store_side_and_clocks(pos, out);
}

bool decode_record_portable(const std::uint8_t in[kRecordSize], Position& out) {
  int count = 0;
  if (!header_ok(in, count)) return false;
  const Bitboard occupied = load_u64(in);
  const std::uint64_t codes[2] = {load_u64(in + kCodesOffset), load_u64(in + kCodesOffset + 8)};
  // Sort the squares by code first (no branches per piece), then check and assemble.
  Bitboard by_code[16] = {};
  Bitboard rest = occupied;
  for (int n = 0; n < count; ++n, rest &= rest - 1)
    by_code[(codes[n >> 4] >> (4 * (n & 15))) & 0xF] |= rest & (0 - rest);
  return assemble(in, occupied, by_code, out);
}

#if defined(__x86_64__) && defined(__GNUC__)

// The codes as four bit planes, one bitboard per bit of a square's code: PEXT under the occupied squares gives
// bit j of each piece's code in piece order, and PDEP into every fourth bit lays those out as the record's nibbles
// (and back). No loop over the pieces.
#define FENMILL_BMI2 __attribute__((target("bmi,bmi2,popcnt")))
constexpr std::uint64_t kNibbleBit0 = 0x1111111111111111ull;

FENMILL_BMI2 void encode_record_bmi2(const Position& pos, std::uint8_t out[kRecordSize]) {
  const Bitboard occupied = pos.occupied();
  if (popcount(occupied) > kMaxPieces) return encode_record_portable(pos, out);
  Bitboard by_code[16] = {};
  for (int t = 0; t < kPieceTypeCount; ++t) {
    by_code[kCodeWhitePawn + t] = pos.by_color[kWhite] & pos.by_type[t];
    by_code[kCodeBlackPawn + t] = pos.by_color[kBlack] & pos.by_type[t];
  }
  for (int c = 0; c < 2; ++c)  // the rooks the castling rights name, where they stand
    for (int side = 0; side < 2; ++side)
      if (const Square rook = pos.castling_rook[c][side]; rook < 64) {
        const Bitboard moved = by_code[c * kCodeBlackPawn + kRook] & square_bb(rook);
        by_code[c * kCodeBlackPawn + kRook] ^= moved;
        by_code[kCodeWhiteCastlingRook + c] |= moved;
      }
  if (pos.ep_square < 64) {
    const int them = ~pos.side_to_move;
    const Bitboard moved = by_code[them * kCodeBlackPawn + kPawn] & square_bb(pawn_of_ep(pos.ep_square));
    by_code[them * kCodeBlackPawn + kPawn] ^= moved;
    by_code[kCodeEpPawn] |= moved;
  }
  Bitboard typed = 0;
  for (int t = 0; t < kPieceTypeCount; ++t) typed |= pos.by_type[t];
  by_code[kCodeInvalid] = occupied & ~typed;
  std::uint64_t codes[2] = {0, 0};
  for (int j = 0; j < 4; ++j) {
    Bitboard plane = 0;
    for (int code = 0; code < 16; ++code)
      if (code >> j & 1) plane |= by_code[code];
    const std::uint64_t bits = _pext_u64(plane, occupied);  // bit j of each piece's code, in piece order
    codes[0] |= _pdep_u64(bits & 0xFFFF, kNibbleBit0 << j);
    codes[1] |= _pdep_u64(bits >> 16, kNibbleBit0 << j);
  }
  store_u64(out, occupied);
  store_u64(out + kCodesOffset, codes[0]);
  store_u64(out + kCodesOffset + 8, codes[1]);
  store_side_and_clocks(pos, out);
}

FENMILL_BMI2 bool decode_record_bmi2(const std::uint8_t in[kRecordSize], Position& out) {
  int count = 0;
  if (!header_ok(in, count)) return false;
  const Bitboard occupied = load_u64(in);
  const std::uint64_t codes[2] = {load_u64(in + kCodesOffset), load_u64(in + kCodesOffset + 8)};
  Bitboard plane[4];  // the squares whose code has bit j
  for (int j = 0; j < 4; ++j) {
    const std::uint64_t bits = _pext_u64(codes[0], kNibbleBit0 << j) | _pext_u64(codes[1], kNibbleBit0 << j) << 16;
    plane[j] = _pdep_u64(bits, occupied);
  }
  Bitboard by_code[16];
  for (int code = 0; code < 16; ++code) {
    Bitboard squares = occupied;
    for (int j = 0; j < 4; ++j) squares &= (code >> j & 1) ? plane[j] : ~plane[j];
    by_code[code] = squares;
  }
  return assemble(in, occupied, by_code, out);
}

bool binary_record_bmi2_pays_off() { return placement_avx2_pays_off(); }

#else  // not x86-64: the portable codec serves

void encode_record_bmi2(const Position& pos, std::uint8_t out[kRecordSize]) { encode_record_portable(pos, out); }
bool decode_record_bmi2(const std::uint8_t in[kRecordSize], Position& out) { return decode_record_portable(in, out); }
bool binary_record_bmi2_pays_off() { return false; }

#endif

namespace {
// The BMI2 codec where PDEP/PEXT are fast (as the placement reader decides), unless FENMILL_NO_SIMD is set.
bool use_bmi2() {
  static const bool use = std::getenv("FENMILL_NO_SIMD") == nullptr && binary_record_bmi2_pays_off();
  return use;
}
}  // namespace

void encode_record(const Position& pos, std::uint8_t out[kRecordSize]) {
  use_bmi2() ? encode_record_bmi2(pos, out) : encode_record_portable(pos, out);
}

bool decode_record(const std::uint8_t in[kRecordSize], Position& out) {
  return use_bmi2() ? decode_record_bmi2(in, out) : decode_record_portable(in, out);
}

}  // namespace fenmill
