#include "fen/placement_fast.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "fen/text_cursor.h"

namespace fenmill {
namespace {

// The fast path for a well-formed placement: one table step per byte and no data-dependent branch,
// because a branch per character class mispredicts several times per FEN. Squares are counted in
// FEN order (a8 = 0 ... h1 = 63), which is the board order byte-swapped. Any doubt (bad character,
// rank sums, "44") returns false and the careful loop below finds and names the error.
struct PlacementStepTable {
  // bits 0-3: squares to advance, 10: '/', 17: digit (so the counter adds the step as it is);
  // bits 28-31: slot, 0..11 piece (colour * 6 + type), 12 '/', 13 digit, 15 not a placement character.
  std::uint32_t step[256];
  static constexpr std::uint32_t kStop = 15u << 28;
  constexpr PlacementStepTable() : step() {
    for (auto& s : step) s = kStop;
    const char* letters = "PNBRQKpnbrqk";
    for (std::uint32_t i = 0; i < 12; ++i) step[static_cast<unsigned char>(letters[i])] = i << 28 | 1;
    for (std::uint32_t n = 1; n <= 8; ++n) step['0' + n] = 13u << 28 | n | 1u << 17;
    step[static_cast<unsigned char>('/')] = 12u << 28 | 1u << 10;
  }
};
constexpr PlacementStepTable kPlacementStep;

// Counter fields, each wide enough for kMaxPlacement characters; bits 28+ collect slot numbers.
constexpr std::uint32_t kSlashUnit = 1u << 10, kDigitUnit = 1u << 17, kCounterMask = (1u << 28) - 1;
constexpr std::size_t kMaxPlacement = 64 + 7;  // 64 pieces and 7 slashes

}  // namespace

bool parse_placement_scalar(const char* p, const char* text_end, Position& pos, const char*& after) {
  Bitboard slot[16];
  for (int i = 0; i < 16; i += 2) slot[i] = slot[i + 1] = 0;  // vector stores; `= {}` becomes rep stosq
  std::uint32_t count = 0;  // sum of the steps: squares advanced, slashes, digits
  const char* end = text_end - p > static_cast<std::ptrdiff_t>(kMaxPlacement) ? p + kMaxPlacement + 1 : text_end;
  for (; p < end; ++p) {
    std::uint32_t step = kPlacementStep.step[static_cast<unsigned char>(*p)];
    if (step >= PlacementStepTable::kStop) break;
    slot[step >> 28] |= Bitboard(1) << (count & 63);
    count += step;
  }
  count &= kCounterMask;
  // 64 squares with a slash after every 8 make 8 ranks of 8. Adjacent digits ("44") are the only
  // other syntax error left: each run of empty squares then takes more than one digit.
  // Written out as scalar chains: a vectorized OR would load two slots at once, straight after the loop
  // stored them one by one, and wait for the stores (store forwarding cannot merge them).
  Bitboard white = slot[0] | slot[1] | slot[2] | slot[3] | slot[4] | slot[5];
  Bitboard black = slot[6] | slot[7] | slot[8] | slot[9] | slot[10] | slot[11];
  constexpr Bitboard kFileA = 0x0101010101010101ull;  // in FEN order too
  Bitboard empty = ~(white | black);
  int empty_runs = count_bits(empty & ~((empty << 1) & ~kFileA));
  constexpr Bitboard kSlashSquares = 0x0101010101010100ull;  // right after squares 8, 16, ..., 56
  std::uint32_t expected = 64 | 7 * kSlashUnit | static_cast<std::uint32_t>(empty_runs) * kDigitUnit;
  if (count != expected || slot[12] != kSlashSquares || (p != text_end && !is_blank(*p))) return false;
  for (int t = 0; t < kPieceTypeCount; ++t) pos.by_type[t] = __builtin_bswap64(slot[t] | slot[t + 6]);
  pos.by_color[kWhite] = __builtin_bswap64(white);
  pos.by_color[kBlack] = __builtin_bswap64(black);
  after = p;
  return true;
}

bool amd_pdep_is_fast(unsigned cpuid1_eax) {
  unsigned family = (cpuid1_eax >> 8) & 0xf;
  if (family == 0xf) family += (cpuid1_eax >> 20) & 0xff;  // the extended family counts from 0xf
  return family >= 0x19;
}

PlacementReader choose_placement_reader(bool no_simd) {
  if (no_simd) return nullptr;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();  // called before main (below): the CPU model may not be read yet
#endif
  if (placement_avx512_supported()) return parse_placement_avx512;
  if (placement_avx2_pays_off()) return parse_placement_avx2;
  return nullptr;
}

// FENMILL_NO_SIMD=1 in the environment forces the scalar loop (to compare the paths end to end).
PlacementReader placement_dispatch::vector_reader = choose_placement_reader(std::getenv("FENMILL_NO_SIMD") != nullptr);

}  // namespace fenmill
