#include "fen/placement_fast.h"

#include <cstddef>
#include <cstdint>

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
  if (count != expected || slot[12] != kSlashSquares || (p != text_end && *p != ' ' && *p != '\t')) return false;
  for (int t = 0; t < kPieceTypeCount; ++t) pos.by_type[t] = __builtin_bswap64(slot[t] | slot[t + 6]);
  pos.by_color[kWhite] = __builtin_bswap64(white);
  pos.by_color[kBlack] = __builtin_bswap64(black);
  after = p;
  return true;
}


}  // namespace fenmill

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 headers start some masked intrinsics from an "undefined" vector and warn about it.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#define FENMILL_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vbmi,avx512vbmi2,bmi,popcnt")))

namespace fenmill {
namespace {

// Per ASCII byte (index = byte & 127; bytes >= 128 are caught separately):
//  kind: 1 for a piece letter, n for a digit '1'..'8', 0x40 for '/', 0x80 for anything else;
//  piece: the piece's type bit (1 << type) plus 0x40 when it is black, 0 for anything else.
struct Tables {
  alignas(64) std::uint8_t kind[128];
  alignas(64) std::uint8_t piece[128];
  alignas(64) std::uint8_t slash_sums[64];  // where a well-formed placement's 7 slashes stand: after 8, 16, ... squares
  alignas(64) std::uint8_t iota[64];
  constexpr Tables() : kind(), piece(), slash_sums(), iota() {
    for (auto& k : kind) k = 0x80;
    const char* letters = "PNBRQKpnbrqk";
    for (int i = 0; i < 12; ++i) {
      kind[static_cast<unsigned char>(letters[i])] = 1;
      piece[static_cast<unsigned char>(letters[i])] = static_cast<std::uint8_t>((1 << (i % 6)) | (i >= 6 ? 0x40 : 0));
    }
    for (int n = 1; n <= 8; ++n) kind['0' + n] = static_cast<std::uint8_t>(n);
    kind[static_cast<unsigned char>('/')] = 0x40;
    for (int i = 0; i < 7; ++i) slash_sums[i] = static_cast<std::uint8_t>(8 * (i + 1));
    for (int i = 0; i < 64; ++i) iota[i] = static_cast<std::uint8_t>(i);
  }
};
constexpr Tables kTables;

FENMILL_AVX512 inline __m512i load64(const std::uint8_t* p) { return _mm512_load_si512(p); }

// Byte i of the result = byte i - k of v (0 for i < k).
FENMILL_AVX512 inline __m512i shift_up(__m512i v, __m512i iota, int k) {
  return _mm512_maskz_permutexvar_epi8(~0ull << k, _mm512_sub_epi8(iota, _mm512_set1_epi8(static_cast<char>(k))), v);
}

}  // namespace

bool placement_simd_available() {
  static const bool available = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                                __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vbmi") &&
                                __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("bmi") &&
                                __builtin_cpu_supports("popcnt");
  return available;
}

FENMILL_AVX512 bool parse_placement_simd(const char* p, const char* end, Position& pos, const char*& after) {
  const std::size_t avail = static_cast<std::size_t>(end - p);
  const __mmask64 loaded = avail >= 64 ? ~0ull : (1ull << avail) - 1;
  const __m512i text = _mm512_maskz_loadu_epi8(loaded, p);  // masked-off bytes are neither read nor faulted
  const __m512i kind = _mm512_permutex2var_epi8(load64(kTables.kind), text, load64(kTables.kind + 64));
  const __m512i piece = _mm512_permutex2var_epi8(load64(kTables.piece), text, load64(kTables.piece + 64));

  // The placement runs up to the first byte that is not a placement character (or the end of the text).
  const __mmask64 stop = _mm512_test_epi8_mask(kind, _mm512_set1_epi8(static_cast<char>(0x80))) |
                         _mm512_movepi8_mask(text) | ~loaded;
  if (stop == 0) return false;  // 64 placement characters and maybe more: the scalar loop takes those
  const unsigned length = static_cast<unsigned>(_tzcnt_u64(stop));
  if (length < avail && p[length] != ' ' && p[length] != '\t') return false;
  const __mmask64 in = (1ull << length) - 1;

  const __mmask64 slashes = _mm512_mask_cmpeq_epi8_mask(in, kind, _mm512_set1_epi8(0x40));
  const __mmask64 pieces = _mm512_mask_test_epi8_mask(in, piece, piece);
  const __mmask64 digits = in & ~slashes & ~pieces;
  if (digits & (digits >> 1)) return false;  // "44": a run of empty squares takes one digit
  if (_mm_popcnt_u64(slashes) != 7) return false;

  // Squares each byte advances (1 per piece, n per digit); 64 in all, so byte-wide sums cannot overflow.
  const __m512i advance = _mm512_maskz_mov_epi8(pieces | digits, kind);
  const __m512i zero = _mm512_setzero_si512();
  if (_mm512_reduce_add_epi64(_mm512_sad_epu8(advance, zero)) != 64) return false;
  const __m512i iota = load64(kTables.iota);
  __m512i ends = advance;  // inclusive prefix sums: squares covered up to and including byte i
  for (int k = 1; k < 64; k *= 2) ends = _mm512_add_epi8(ends, shift_up(ends, iota, k));
  // Each slash must come after 8, 16, ..., 56 squares: every rank then holds exactly 8.
  const __m512i at_slashes = _mm512_maskz_compress_epi8(slashes, ends);
  if (_mm512_mask_cmpneq_epi8_mask(0x7F, at_slashes, load64(kTables.slash_sums))) return false;

  // Square s (FEN order) is covered by byte j = the number of bytes whose inclusive sum is <= s; the sums
  // never decrease, so a 6-step binary search per square finds it, all 64 squares at once.
  __m512i covering = zero;
  for (int step = 32; step >= 1; step /= 2) {
    __m512i candidate = _mm512_add_epi8(covering, _mm512_set1_epi8(static_cast<char>(step)));
    __m512i probe = _mm512_permutexvar_epi8(_mm512_sub_epi8(candidate, _mm512_set1_epi8(1)), ends);
    covering = _mm512_mask_mov_epi8(covering, _mm512_cmple_epu8_mask(probe, iota), candidate);
  }
  const __m512i board = _mm512_permutexvar_epi8(covering, piece);  // a piece's bits, or 0 for an empty square

  for (int t = 0; t < kPieceTypeCount; ++t)
    pos.by_type[t] = __builtin_bswap64(_mm512_test_epi8_mask(board, _mm512_set1_epi8(static_cast<char>(1 << t))));
  Bitboard black = _mm512_test_epi8_mask(board, _mm512_set1_epi8(0x40));
  Bitboard occupied = _mm512_test_epi8_mask(board, _mm512_set1_epi8(0x3F));
  pos.by_color[kWhite] = __builtin_bswap64(occupied & ~black);
  pos.by_color[kBlack] = __builtin_bswap64(black);
  after = p + length;
  return true;
}

}  // namespace fenmill

#else  // not x86-64: the scalar loop serves

namespace fenmill {
bool placement_simd_available() { return false; }
bool parse_placement_simd(const char*, const char*, Position&, const char*&) { return false; }
}  // namespace fenmill

#endif

namespace fenmill {

bool parse_placement_fast(const char* p, const char* end, Position& pos, const char*& after) {
  static const bool simd = placement_simd_available();
  // The vector path stops at 64 characters; the rare longer placement (up to 71) goes through the loop.
  if (simd && parse_placement_simd(p, end, pos, after)) return true;
  return parse_placement_scalar(p, end, pos, after);
}

}  // namespace fenmill
