// The placement writer for CPUs with AVX2 and fast PDEP/PEXT (fen/write_placement.h). A piece's letter comes from a
// 4-bit index, its kind's 3-bit code (the one fen/placement_avx2.cpp reads) and its colour: four bitboards, each
// spread to one bit per byte of 64 (a byte shuffle, AND and compare), give every square's index, and one byte
// lookup (vpshufb) every square's letter, 0 on an empty one. Each rank's letters are then packed (PEXT under the
// rank's occupied bytes) and spread into the slots of the rank's text, whose digits come from a table (PDEP).
#include "fen/write_placement.h"

#include <cstdint>
#include <cstring>

#include "fen/rank_text.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define FENMILL_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))

namespace fenmill {
namespace {

// Kind codes: P 101, N 010, B 011, R 111, Q 110, K 001 (no kind has 000 or 100); the index adds 8 for black.
constexpr std::uint8_t kKindCode[kPieceTypeCount] = {5, 2, 3, 7, 6, 1};

// Letters by index: the kind's code, plus 8 for black; 0: no piece.
struct Letters {
  char letter[16];
  constexpr Letters() : letter() {
    const char* letters = "PNBRQK";
    for (int t = 0; t < kPieceTypeCount; ++t) {
      letter[kKindCode[t]] = letters[t];
      letter[kKindCode[t] + 8] = static_cast<char>(letters[t] | 0x20);
    }
  }
};
constexpr Letters kLetters;

// Bit s of b as byte s (0xFF or 0) of two registers: squares 0-31, then 32-63.
struct Bytes64 {
  __m256i lo, hi;
};
FENMILL_AVX2 inline Bytes64 spread(Bitboard b) {
  const __m256i v = _mm256_set1_epi64x(static_cast<long long>(b));
  const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ull));
  const __m256i lo_bytes = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,  //
                                            2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m256i hi_bytes = _mm256_add_epi8(lo_bytes, _mm256_set1_epi8(4));
  return {_mm256_cmpeq_epi8(_mm256_and_si256(_mm256_shuffle_epi8(v, lo_bytes), bit), bit),
          _mm256_cmpeq_epi8(_mm256_and_si256(_mm256_shuffle_epi8(v, hi_bytes), bit), bit)};
}

// The letters of 32 squares from their index bit planes (each byte 0xFF or 0).
FENMILL_AVX2 inline __m256i letters(__m256i b0, __m256i b1, __m256i b2, __m256i b3) {
  const __m256i table = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kLetters.letter)));
  const __m256i index =
      _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(b0, _mm256_set1_epi8(1)), _mm256_and_si256(b1, _mm256_set1_epi8(2))),
                      _mm256_or_si256(_mm256_and_si256(b2, _mm256_set1_epi8(4)), _mm256_and_si256(b3, _mm256_set1_epi8(8))));
  return _mm256_shuffle_epi8(table, index);
}

}  // namespace

FENMILL_AVX2 char* write_placement_avx2(const Position& pos, char* out) {
  const Bitboard pawn = pos.by_type[kPawn], knight = pos.by_type[kKnight], bishop = pos.by_type[kBishop],
                 rook = pos.by_type[kRook], queen = pos.by_type[kQueen], king = pos.by_type[kKing];
  const Bitboard coloured = pos.by_color[kWhite] | pos.by_color[kBlack];
  const Bitboard occupied = (pawn | knight | bishop | rook | queen | king) & coloured;  // squares that get a letter
  const Bytes64 b0 = spread((pawn | bishop | rook | king) & coloured), b1 = spread((knight | bishop | rook | queen) & coloured),
                b2 = spread((pawn | rook | queen) & coloured), b3 = spread(pos.by_color[kBlack] & occupied);
  alignas(32) std::uint64_t rank_letters[8];  // rank r's 8 letters (file a first), 0 where empty
  _mm256_store_si256(reinterpret_cast<__m256i*>(rank_letters), letters(b0.lo, b1.lo, b2.lo, b3.lo));
  _mm256_store_si256(reinterpret_cast<__m256i*>(rank_letters + 4), letters(b0.hi, b1.hi, b2.hi, b3.hi));
  constexpr std::uint64_t kLowBytes = 0x0101010101010101ull;
  char* p = out;
  for (int rank = 7; rank >= 0; --rank) {
    const unsigned o = static_cast<unsigned>(occupied >> (8 * rank)) & 0xFF;
    const std::uint64_t packed = _pext_u64(rank_letters[rank], _pdep_u64(o, kLowBytes) * 0xFF);
    std::uint64_t text;
    std::memcpy(&text, kRankText.text[o], 8);
    text |= _pdep_u64(packed, kRankText.slots[o]);
    std::memcpy(p, &text, 8);
    p += kRankText.length[o];
    *p++ = '/';
  }
  return p - 1;  // no slash after rank 1
}

}  // namespace fenmill

#else  // not x86-64: the portable writer serves

namespace fenmill {
char* write_placement_avx2(const Position& pos, char* out) { return write_placement_scalar(pos, out); }
}  // namespace fenmill

#endif
