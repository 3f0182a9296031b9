// Runs of squares in unary, for the AVX2 placement readers (fen/placement_avx2.cpp, xiangqi/placement_avx2.cpp).
// Each placement byte has a square mask, (1 << width) - 1 (a piece 1, a digit n n bits, '/' none), and PEXT of 0x01
// bytes under 8 such masks writes "1 then width-1 zeros" per run: the k-th set bit is where the k-th run starts.
// `Bits` is the board: 64 bits for chess, 128 for Xiangqi's 90 points.
#pragma once
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include <cstdint>

// The readers' own target attributes, so that these inline into them.
#define FENMILL_UNARY_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt"), no_sanitize("address")))

namespace fenmill {

template <typename Bits>
struct UnaryRuns {
  Bits bits;
  unsigned squares;  // how many squares the runs cover
};

// a's runs, then b's. Past the board's width of squares the bits are meaningless (but defined): the readers then
// refuse the placement anyway.
template <typename Bits>
inline UnaryRuns<Bits> join(UnaryRuns<Bits> a, UnaryRuns<Bits> b) {
  constexpr unsigned kWidth = sizeof(Bits) * 8;
  return {a.bits | b.bits << (a.squares & (kWidth - 1)), a.squares + b.squares};
}

// The runs of 8 bytes from their square masks: PEXT keeps bit 0 and width - 1 zeros of each byte.
template <typename Bits>
FENMILL_UNARY_AVX2 inline UnaryRuns<Bits> unary_runs(std::uint64_t masks) {
  return {_pext_u64(0x0101010101010101ull, masks), static_cast<unsigned>(_mm_popcnt_u64(masks))};
}

// The runs of 32 bytes, joined pairwise (short dependency chains).
template <typename Bits>
FENMILL_UNARY_AVX2 inline UnaryRuns<Bits> unary_runs(__m256i masks) {
  return join(join(unary_runs<Bits>(_mm256_extract_epi64(masks, 0)), unary_runs<Bits>(_mm256_extract_epi64(masks, 1))),
              join(unary_runs<Bits>(_mm256_extract_epi64(masks, 2)), unary_runs<Bits>(_mm256_extract_epi64(masks, 3))));
}

}  // namespace fenmill

#endif
