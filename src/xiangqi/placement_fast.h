// The Xiangqi placement field's fast paths, for the common well-formed case: a scalar one-pass loop, and an AVX2
// reader (placement_avx2.cpp) on CPUs with AVX2 and fast PDEP/PEXT, chosen at run time as for chess
// (fen/placement_fast.h). They accept exactly the same placements and give the same bitboards and letter sets
// (tests/xiangqi_fastpath_test.cpp checks that on real and mutated lines); anything they refuse goes to the
// careful parser in parse.cpp, which names the error.
#pragma once
#include <cstdint>

#include "xiangqi/position.h"

namespace fenmill::xiangqi {

// For a well-formed placement at the start of [p, end) (ended by a blank or by `end`): sets pos.by_type and
// pos.by_color, `seen` (LetterSeen bits, xiangqi/parse.h) and `after` (the byte after the placement), and returns
// true. Returns false for anything else and then writes none of them. Uses nothing outside [p, end) (the AVX2
// reader may load bytes past `end` within the 4 KiB page of a readable p, and ignores them).
bool parse_placement_fast(const char* p, const char* end, Position& pos, std::uint8_t& seen, const char*& after);

// The implementations, for tests. parse_placement_fast picks one once; FENMILL_NO_SIMD=1 in the environment makes
// it take the scalar loop. The AVX2 reader refuses placements of 64 characters or more (the loop takes those) and
// may be called only where placement_avx2_supported() (fen/placement_fast.h) is true.
bool parse_placement_scalar(const char* p, const char* end, Position& pos, std::uint8_t& seen, const char*& after);
bool parse_placement_avx2(const char* p, const char* end, Position& pos, std::uint8_t& seen, const char*& after);

}  // namespace fenmill::xiangqi
