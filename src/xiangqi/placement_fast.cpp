#include "xiangqi/placement_fast.h"

#include <cstddef>
#include <cstdlib>

#include "fen/placement_fast.h"
#include "fen/text_cursor.h"
#include "xiangqi/parse.h"

namespace fenmill::xiangqi {
namespace {

// The scalar fast path: one table step per byte and no data-dependent branch (a branch per character class
// mispredicts several times per FEN). Any doubt (bad character, rank sums, "54") returns false.
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

}  // namespace

bool parse_placement_scalar(const char* p, const char* text_end, Position& pos, std::uint8_t& seen, const char*& after) {
  std::uint64_t low[PlacementStepTable::kSlots], high[PlacementStepTable::kSlots];
  for (int i = 0; i < PlacementStepTable::kSlots; i += 2)  // vector stores: `= {}` became rep stosq, slow to start
    low[i] = low[i + 1] = high[i] = high[i + 1] = 0;
  std::uint32_t count = 0;
  const char* end = text_end - p > kMaxPlacement ? p + kMaxPlacement + 1 : text_end;
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
  if (count != expected || slot[PlacementStepTable::kSlashSlot] != kSlashPoints || (p != text_end && !is_blank(*p)))
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
  after = p;
  return true;
}

namespace {

using PlacementReader = bool (*)(const char* p, const char* end, Position& pos, std::uint8_t& seen, const char*& after);

// The AVX2 reader where the chess one runs (AVX2 with fast PDEP/PEXT), unless FENMILL_NO_SIMD is set.
PlacementReader choose_vector_reader() {
  if (std::getenv("FENMILL_NO_SIMD") != nullptr) return nullptr;
  if (placement_avx2_pays_off()) return parse_placement_avx2;
  return nullptr;
}

}  // namespace

bool parse_placement_fast(const char* p, const char* end, Position& pos, std::uint8_t& seen, const char*& after) {
  static const PlacementReader vector_reader = choose_vector_reader();
  // The vector reader refuses what it cannot take (placements of 64+ characters, up to 99, and anything
  // doubtful); the loop then decides.
  if (vector_reader != nullptr && vector_reader(p, end, pos, seen, after)) return true;
  return parse_placement_scalar(p, end, pos, seen, after);
}

}  // namespace fenmill::xiangqi
