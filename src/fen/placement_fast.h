// The placement field's fast paths, for the common well-formed case: a scalar one-pass loop, and the same
// work 64 bytes at a time with AVX-512 VBMI/VBMI2 (placement_avx512.cpp) or else with AVX2 and fast PDEP/PEXT
// (placement_avx2.cpp) on CPUs that have them, chosen at run time. They accept exactly the same placements and
// give the same bitboards (tests/fen_fastpath_test.cpp checks that on real and mutated lines); anything they
// refuse goes to the careful parser, which names the error.
#pragma once
#include "core/position.h"

namespace fenmill {

// The implementations, for tests and benchmarks: parse_placement_fast below picks one. The vector readers also
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

using PlacementReader = bool (*)(const char* p, const char* end, Position& pos, const char*& after);

// The vector reader for this CPU, or null for the scalar loop alone: always null when `no_simd` (the environment
// variable FENMILL_NO_SIMD, so that the loop can be run end to end).
PlacementReader choose_placement_reader(bool no_simd);

namespace placement_dispatch {
// choose_placement_reader(FENMILL_NO_SIMD is set), decided before main (placement_fast.cpp): one load per record
// instead of a function-local static's guard and a call. Null until then, so a use during static
// initialisation gets the scalar loop, which accepts the same placements.
extern PlacementReader vector_reader;
}  // namespace placement_dispatch

// For a well-formed placement at the start of [p, end) (ended by a blank or by `end`): fills pos.by_type and
// pos.by_color, sets `after` to the byte after it and returns true. Returns false for anything else (pos then
// half filled). Uses nothing outside [p, end) (the AVX2 reader may load bytes past `end` within the 4 KiB page
// of a readable p, and ignores them). A vector reader refuses what it cannot take (placements of 64+ characters,
// up to 71, and anything doubtful); the loop then decides.
inline bool parse_placement_fast(const char* p, const char* end, Position& pos, const char*& after) {
  const PlacementReader vector_reader = placement_dispatch::vector_reader;
  if (vector_reader != nullptr && vector_reader(p, end, pos, after)) return true;
  return parse_placement_scalar(p, end, pos, after);
}

}  // namespace fenmill
