// The placement field's fast paths, for the common well-formed case: a scalar one-pass loop, and the same
// work 64 bytes at a time with AVX-512 VBMI/VBMI2 (placement_avx512.cpp) or else with AVX2 and fast PDEP/PEXT
// (placement_avx2.cpp) on CPUs that have them, chosen at run time. They accept exactly the same placements and
// give the same bitboards (tests/fen_fastpath_test.cpp checks that on real and mutated lines); anything they
// refuse goes to the careful parser, which names the error.
#pragma once
#include "core/position.h"

namespace fenmill {

// For a well-formed placement at the start of [p, end) (ended by a blank or by `end`): fills pos.by_type and
// pos.by_color, sets `after` to the byte after it and returns true. Returns false for anything else (pos then
// half filled). Uses nothing outside [p, end) (the AVX2 reader may load bytes past `end` within the 4 KiB page
// of a readable p, and ignores them).
bool parse_placement_fast(const char* p, const char* end, Position& pos, const char*& after);

// The implementations, for tests and benchmarks. parse_placement_fast picks one once; the environment variable
// FENMILL_NO_SIMD makes it take the scalar loop, so that path can be run end to end. The vector readers also
// refuse placements of 64 characters or more, and may be called only when the CPU supports them. The AVX2
// reader is chosen only where it pays off (PDEP/PEXT are slow on AMD before Zen 3).
bool parse_placement_scalar(const char* p, const char* end, Position& pos, const char*& after);
bool placement_avx512_supported();
bool parse_placement_avx512(const char* p, const char* end, Position& pos, const char*& after);
bool placement_avx2_supported();
bool placement_avx2_pays_off();
bool parse_placement_avx2(const char* p, const char* end, Position& pos, const char*& after);
// From CPUID leaf 1's EAX on an AMD CPU: whether PDEP/PEXT are fast (family 0x19, Zen 3, and later).
bool amd_pdep_is_fast(unsigned cpuid1_eax);

}  // namespace fenmill
