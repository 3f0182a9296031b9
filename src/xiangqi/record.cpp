#include "xiangqi/record.h"

#include "core/clock_limits.h"

namespace fenmill::xiangqi {
namespace {

constexpr std::size_t kOccupancyBytes = 12;      // 96 bits, the top 6 always zero
constexpr std::size_t kCodesOffset = 12;
constexpr std::size_t kFlagsOffset = 28;
constexpr std::size_t kHalfmoveOffset = 29;
constexpr std::size_t kFullmoveOffset = 31;
constexpr std::size_t kReservedOffset = 35;
constexpr int kMaxPieces = 32;

void store_le(std::uint8_t* p, std::uint64_t v, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
int clz128(Bitboard b) {  // b != 0
  std::uint64_t hi = high64(b);
  return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll(low64(b));
}
Bitboard load_le(const std::uint8_t* p, std::size_t bytes) {
  Bitboard v = 0;
  for (std::size_t i = 0; i < bytes; ++i) v |= Bitboard(p[i]) << (8 * i);
  return v;
}

}  // namespace

void encode_record(const Position& pos, std::uint8_t out[kRecordSize]) {
  std::uint8_t code[kSquareCount];  // only occupied points are read
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < kPieceTypeCount; ++t) {
      auto value = static_cast<std::uint8_t>(c * kCodeBlackGeneral + t);
      for_each_point(pos.pieces(Color(c), PieceType(t)), [&](Square s) { code[s] = value; });
    }
  // Only the first 32 pieces fit; a validated position never has more (16 a side).
  Bitboard occupied = pos.occupied() & kAllSquares;
  while (popcount(occupied) > kMaxPieces) occupied &= ~(Bitboard(1) << (127 - clz128(occupied)));
  std::uint64_t nibbles[2] = {0, 0};  // pieces 0-15, 16-31
  int n = 0;
  for_each_point(occupied, [&](Square s) {
    nibbles[n >> 4] |= std::uint64_t(code[s]) << (4 * (n & 15));
    ++n;
  });
  store_le(out, low64(occupied), 8);
  store_le(out + 8, high64(occupied), kOccupancyBytes - 8);
  store_le(out + kCodesOffset, nibbles[0], 8);
  store_le(out + kCodesOffset + 8, nibbles[1], 8);
  out[kFlagsOffset] = pos.side_to_move == kBlack ? 1 : 0;
  store_le(out + kHalfmoveOffset, pos.halfmove_clock, 2);
  store_le(out + kFullmoveOffset, pos.fullmove_number, 4);
  out[kReservedOffset] = 0;
}

bool decode_record(const std::uint8_t in[kRecordSize], Position& out) {
  if ((in[kFlagsOffset] & ~1u) != 0 || in[kReservedOffset] != 0) return false;
  Bitboard occupied = load_le(in, kOccupancyBytes);
  if (occupied & ~kAllSquares) return false;
  int count = popcount(occupied);
  if (count > kMaxPieces) return false;
  // Nibbles past the last piece must be zero, so every position has exactly one record.
  for (int n = count; n < kMaxPieces; ++n)
    if ((in[kCodesOffset + n / 2] >> (4 * (n & 1))) & 0xF) return false;
  auto fullmove = static_cast<std::uint32_t>(load_le(in + kFullmoveOffset, 4));
  if (fullmove == 0 || fullmove > kMaxFullmoveNumber) return false;

  out.clear();
  out.side_to_move = (in[kFlagsOffset] & 1) ? kBlack : kRed;
  out.halfmove_clock = static_cast<std::uint16_t>(load_le(in + kHalfmoveOffset, 2));
  out.fullmove_number = fullmove;
  int n = 0;
  for (Bitboard b = occupied; b; b &= b - 1, ++n) {
    unsigned code = (in[kCodesOffset + n / 2] >> (4 * (n & 1))) & 0xF;
    if (code >= kCodeFirstInvalid) return false;
    out.put(Color(code / kCodeBlackGeneral), PieceType(code % kCodeBlackGeneral), lsb(b));
  }
  return true;
}

}  // namespace fenmill::xiangqi
