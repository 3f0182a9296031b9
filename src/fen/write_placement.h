// The placement field from a position's bitboards: a portable writer, and the same text built 64 squares at a time
// with AVX2 and PDEP/PEXT on CPUs where those are fast, chosen at run time (as the placement reader is:
// fen/placement_fast.h). Both write exactly the same text (tests/fen_fastpath_test.cpp).
#pragma once
#include "core/position.h"

namespace fenmill {

// Writes pos's placement at `out` and returns the end of it, where the caller writes the next byte. May store up to
// 7 scratch bytes past that end (out must hold kMaxFenLength bytes, fen/write.h). Every square of pos is in at
// most one by_type bitboard (a Position's invariant); a square gets a letter when it has a kind and a colour.
char* write_placement(const Position& pos, char* out);

// The implementations, for tests and benchmarks; write_placement picks one once (FENMILL_NO_SIMD=1 in the
// environment: the portable one). write_placement_avx2 may be called only where placement_avx2_supported()
// (fen/placement_fast.h).
char* write_placement_scalar(const Position& pos, char* out);
char* write_placement_avx2(const Position& pos, char* out);

}  // namespace fenmill
