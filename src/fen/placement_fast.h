// The placement field's fast paths, for the common well-formed case: a scalar one-pass loop, and the same
// work 64 bytes at a time with AVX-512 (VBMI/VBMI2) on CPUs that have it, chosen at run time. Both accept
// exactly the same placements and give the same bitboards (tests/fen_fastpath_test.cpp checks that on
// real and mutated lines); anything they refuse goes to the careful parser, which names the error.
#pragma once
#include "core/position.h"

namespace fenmill {

// For a well-formed placement at the start of [p, end) (ended by a blank or by `end`): fills pos.by_type and
// pos.by_color, sets `after` to the byte after it and returns true. Returns false for anything else (pos then
// half filled). Reads nothing outside [p, end).
bool parse_placement_fast(const char* p, const char* end, Position& pos, const char*& after);

// The two implementations, for tests and benchmarks. parse_placement_simd also refuses placements of 64
// characters or more, and may be called only when placement_simd_available() (checked once; the environment
// variable FENMILL_NO_SIMD turns it off, so the scalar path can be run end to end).
bool parse_placement_scalar(const char* p, const char* end, Position& pos, const char*& after);
bool placement_simd_available();
bool parse_placement_simd(const char* p, const char* end, Position& pos, const char*& after);

}  // namespace fenmill
