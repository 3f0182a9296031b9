// The placement reader for CPUs with AVX-512 VBMI/VBMI2 (Zen 4/5, Ice Lake and later): the scalar loop's work
// 64 bytes at a time. Same contract as the loop (src/fen/placement_fast.h), but it refuses placements of 64
// characters or more.
#include "fen/placement_fast.h"

#include <cstddef>
#include <cstdint>

#include "fen/text_cursor.h"

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 headers start some masked intrinsics from an "undefined" vector and warn about it.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#define FENMILL_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")))

namespace fenmill {
namespace {

// Per ASCII byte (index = byte & 127; bytes >= 128 are caught separately):
//  kind: 1 for a piece letter, n for a digit '1'..'8', 0x40 for '/', 0x80 for anything else;
//  piece: the piece's type bit (1 << type) plus 0x40 when it is black, 0 for anything else.
struct Tables {
  alignas(64) std::uint8_t kind[128];
  alignas(64) std::uint8_t piece[128];
  alignas(64) std::uint8_t iota[64];       // i
  alignas(64) std::uint8_t lane[64];       // i / 8: the rank whose text byte i of the aligned layout holds
  alignas(64) std::uint8_t in_lane[64];    // i % 8
  alignas(64) std::uint8_t file_bit[64];   // 1 << i for i < 8
  constexpr Tables() : kind(), piece(), iota(), lane(), in_lane(), file_bit() {
    for (auto& k : kind) k = 0x80;
    const char* letters = "PNBRQKpnbrqk";
    for (int i = 0; i < 12; ++i) {
      kind[static_cast<unsigned char>(letters[i])] = 1;
      piece[static_cast<unsigned char>(letters[i])] = static_cast<std::uint8_t>((1 << (i % 6)) | (i >= 6 ? 0x40 : 0));
    }
    for (int n = 1; n <= 8; ++n) kind['0' + n] = static_cast<std::uint8_t>(n);
    kind[static_cast<unsigned char>('/')] = 0x40;
    for (int i = 0; i < 64; ++i) {
      iota[i] = static_cast<std::uint8_t>(i);
      lane[i] = static_cast<std::uint8_t>(i / 8);
      in_lane[i] = static_cast<std::uint8_t>(i % 8);
      file_bit[i] = static_cast<std::uint8_t>(i < 8 ? 1 << i : 0);
    }
  }
};
constexpr Tables kTables;

FENMILL_AVX512 inline __m512i load64(const std::uint8_t* p) { return _mm512_load_si512(p); }

// The squares of the pieces whose byte has `bit`: the k-th piece in text order stands on the k-th occupied
// square (FEN order).
FENMILL_AVX512 inline Bitboard squares_of(__m512i pieces, int bit, __mmask64 piece_bytes, Bitboard occupied) {
  __mmask64 has = _mm512_test_epi8_mask(pieces, _mm512_set1_epi8(static_cast<char>(bit)));
  return static_cast<Bitboard>(_pdep_u64(_pext_u64(has, piece_bytes), occupied));
}

}  // namespace

bool placement_avx512_supported() {
  static const bool supported = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                                __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
                                __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
                                __builtin_cpu_supports("popcnt");
  return supported;
}

// One gather puts rank r's text (at most 8 bytes in a well-formed placement) into the r-th 8-byte lane; from
// there each rank is a 64-bit lane: its prefix sums take three shift-adds, its square total and its
// occupancy byte one sum of absolute differences each. The piece kinds then land on the occupied squares
// in order (pext/pdep).
FENMILL_AVX512 bool parse_placement_avx512(const char* p, const char* end, Position& pos, const char*& after) {
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
  if (length < avail && !is_blank(p[length])) return false;
  const __mmask64 in = (1ull << length) - 1;

  const __mmask64 slashes = _mm512_mask_cmpeq_epi8_mask(in, kind, _mm512_set1_epi8(0x40));
  const __mmask64 digits = in & ~slashes & ~_mm512_test_epi8_mask(piece, piece);
  if (digits & (digits >> 1)) return false;  // "44": a run of empty squares takes one digit
  if (_mm_popcnt_u64(slashes) != 7) return false;

  // Rank r is text[begin_r, end_r): begin_0 = 0, begin_r = slash_(r-1) + 1, end_r = slash_r, end_7 = length.
  const __m512i iota = load64(kTables.iota);
  const __m512i slash_at = _mm512_maskz_compress_epi8(slashes, iota);
  const __m512i ends = _mm512_mask_mov_epi8(slash_at, 1ull << 7, _mm512_set1_epi8(static_cast<char>(length)));
  const __m512i begins = _mm512_maskz_permutexvar_epi8(~1ull, _mm512_sub_epi8(iota, _mm512_set1_epi8(1)),
                                                       _mm512_add_epi8(slash_at, _mm512_set1_epi8(1)));
  const __m512i lane = load64(kTables.lane);
  const __m512i lane_begin = _mm512_permutexvar_epi8(lane, begins);
  const __m512i lane_end = _mm512_permutexvar_epi8(lane, ends);
  if (_mm512_cmpgt_epu8_mask(_mm512_sub_epi8(lane_end, lane_begin), _mm512_set1_epi8(8))) return false;
  const __m512i source = _mm512_add_epi8(lane_begin, load64(kTables.in_lane));
  const __mmask64 present = _mm512_cmplt_epu8_mask(source, lane_end);
  const __m512i advance = _mm512_maskz_mov_epi8(~slashes, kind);  // 1 per piece, n per digit
  const __m512i rank_advance = _mm512_maskz_permutexvar_epi8(present, source, advance);
  const __m512i rank_piece = _mm512_maskz_permutexvar_epi8(present, source, piece);

  const __m512i zero = _mm512_setzero_si512();
  if (_mm512_cmpneq_epi64_mask(_mm512_sad_epu8(rank_advance, zero), _mm512_set1_epi64(8))) return false;
  __m512i sums = rank_advance;  // inclusive prefix sums within each rank (no carries: a rank totals 8)
  sums = _mm512_add_epi8(sums, _mm512_slli_epi64(sums, 8));
  sums = _mm512_add_epi8(sums, _mm512_slli_epi64(sums, 16));
  sums = _mm512_add_epi8(sums, _mm512_slli_epi64(sums, 32));
  const __mmask64 piece_bytes = _mm512_test_epi8_mask(rank_piece, rank_piece);
  // A piece on file f sets bit f of its rank's byte; the files in a rank differ, so the bits' sum is their OR.
  const __m512i bits =
      _mm512_maskz_permutexvar_epi8(piece_bytes, _mm512_sub_epi8(sums, rank_advance), load64(kTables.file_bit));
  const Bitboard occupied = static_cast<Bitboard>(_mm_cvtsi128_si64(_mm512_cvtepi64_epi8(_mm512_sad_epu8(bits, zero))));

  for (int t = 0; t < kPieceTypeCount; ++t)
    pos.by_type[t] = __builtin_bswap64(squares_of(rank_piece, 1 << t, piece_bytes, occupied));
  const Bitboard black = squares_of(rank_piece, 0x40, piece_bytes, occupied);
  pos.by_color[kWhite] = __builtin_bswap64(occupied & ~black);
  pos.by_color[kBlack] = __builtin_bswap64(black);
  after = p + length;
  return true;
}

}  // namespace fenmill

#else  // not x86-64: the scalar loop serves

namespace fenmill {
bool placement_avx512_supported() { return false; }
bool parse_placement_avx512(const char*, const char*, Position&, const char*&) { return false; }
}  // namespace fenmill

#endif
