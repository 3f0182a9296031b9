// The placement reader for CPUs with AVX2 and fast PDEP/PEXT but no AVX-512 (Zen 3, Haswell to Alder Lake).
// Same contract as the scalar loop (src/fen/placement_fast.h), but it refuses placements of 64 characters or
// more. Two nibble lookups classify 64 bytes; the rest is arithmetic on 64-bit masks, one bit per text byte:
//  - each square run gets its width in unary: a byte's mask is (1 << width) - 1 (a digit n: n, a piece: 1,
//    '/': 0), and PEXT of 0x01 bytes under the 64 masks writes "1 then width-1 zeros" per square run, one
//    after the other: the `starts` board has a bit on the first square of every run (FEN order, a8 = 0);
//  - the k-th run in text order starts on the k-th bit of `starts`, so PDEP(PEXT(text mask, runs), starts)
//    moves any set of runs (the pieces of a kind, those right after a '/') onto the board.
#include "fen/placement_fast.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/unary_runs.h"
#include "fen/text_cursor.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

// Not instrumented by ASan either: the reader may read past `end` inside a page (see its first lines), and
// helpers that read for it must match (ASan would otherwise check the inlined load).
#define FENMILL_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt"), no_sanitize("address")))

namespace fenmill {
namespace {

// A class is a set of high nibbles times a set of low nibbles, so one 16-entry lookup per nibble (vpshufb),
// ANDed, gives every class bit of a byte. A piece's kind is a 3-bit code (3 bit planes instead of 6): bit 2 is
// the class "PQRpqr", bits 0-1 depend on the low nibble alone (any other byte with those is no piece anyway).
constexpr std::uint8_t kTypeCode[kPieceTypeCount] = {5, 2, 3, 7, 6, 1};  // P N B R Q K: 101 010 011 111 110 001
constexpr std::uint8_t kCode0 = 0x01, kCode1 = 0x02, kCode2 = 0x04;
constexpr std::uint8_t kBKN = 0x08;    // the pieces that kCode2 leaves out: "BKNbkn"
constexpr std::uint8_t kLowerCase = 0x10;  // on pieces: black
constexpr std::uint8_t kSlash = 0x40, kDigit = 0x80;
constexpr std::uint8_t kPlacementByte = kCode2 | kBKN | kSlash | kDigit;  // exact classes: one of them or a stop byte

struct Tables {
  // The 16-entry tables twice over, one copy per 128-bit lane. width_lo & width_hi is the byte's square
  // run mask: (1 << n) - 1 for a digit n (high nibble 3: all ones), 1 for a piece, 0 for '/'.
  alignas(32) std::uint8_t class_lo[32], class_hi[32], width_lo[32], width_hi[32];
  alignas(32) std::uint8_t iota[64];
  constexpr Tables() : class_lo(), class_hi(), width_lo(), width_hi(), iota() {
    const char* letters = "PNBRQK";
    for (int t = 0; t < kPieceTypeCount; ++t) {
      const std::uint8_t code = kTypeCode[t], group = code & kCode2 ? 0 : kBKN;
      add(letters[t], code | group, 1);
      add(static_cast<char>(letters[t] | 0x20), code | group | kLowerCase, 1);
    }
    for (int n = 1; n <= 8; ++n) add(static_cast<char>('0' + n), kDigit, static_cast<std::uint8_t>((1 << n) - 1));
    add('/', kSlash, 0);
    for (int i = 0; i < 64; ++i) iota[i] = static_cast<std::uint8_t>(i);
  }
  constexpr void add(char c, int bits, std::uint8_t width) {
    for (int lane = 0; lane < 32; lane += 16) {
      class_lo[lane + (c & 15)] |= static_cast<std::uint8_t>(bits);
      class_hi[lane + (c >> 4)] |= static_cast<std::uint8_t>(bits);
      width_lo[lane + (c & 15)] |= width;
      width_hi[lane + (c >> 4)] |= width;
    }
  }
  // What the lookups give for byte b (vpshufb gives 0 for an index with the sign bit set).
  constexpr std::uint8_t class_of(int b) const { return b >= 128 ? 0 : class_lo[b & 15] & class_hi[b >> 4]; }
  constexpr std::uint8_t width_of(int b) const { return b >= 128 ? 0 : width_lo[b & 15] & width_hi[b >> 4]; }
};
constexpr Tables kTables;

// The nibble products must be exact: every placement byte gets its class bits and width, no other byte any
// of the kPlacementByte classes.
constexpr bool tables_exact() {
  for (int b = 0; b < 256; ++b) {
    int type = -1;
    for (int t = 0; t < kPieceTypeCount; ++t)
      if ((b | 0x20) == "pnbrqk"[t]) type = t;
    const bool digit = b >= '1' && b <= '8';
    const std::uint8_t cls = kTables.class_of(b), width = kTables.width_of(b);
    if (type >= 0) {
      const int code = kTypeCode[type];
      if (cls != (code | (code & kCode2 ? 0 : kBKN) | (b >= 'a' ? kLowerCase : 0)) || width != 1) return false;
    } else if (digit) {
      if (cls != kDigit || width != (1 << (b - '0')) - 1) return false;
    } else if (b == '/') {
      if (cls != kSlash || width != 0) return false;
    } else if (cls & kPlacementByte) {
      return false;
    }
  }
  return true;
}
static_assert(tables_exact());

struct Bytes64 {  // 64 bytes in two AVX2 registers
  __m256i lo, hi;
};

FENMILL_AVX2 inline __m256i load32(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

FENMILL_AVX2 inline __m256i lookup(const std::uint8_t* table, __m256i index) {
  return _mm256_shuffle_epi8(load32(table), index);
}

// The bit `bit` (one set bit) of each byte, as a mask with bit i for byte i.
template <std::uint8_t bit>
FENMILL_AVX2 inline std::uint64_t bit_plane(Bytes64 v) {
  constexpr int shift = std::countl_zero(bit);  // to the sign bit, which movemask reads
  const auto lo = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_slli_epi16(v.lo, shift)));
  const auto hi = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_slli_epi16(v.hi, shift)));
  return lo | static_cast<std::uint64_t>(hi) << 32;
}

using Unary = UnaryRuns<std::uint64_t>;

// The runs picked by text_mask, on the squares where they start: the k-th run starts on the k-th bit of `starts`.
FENMILL_AVX2 inline Bitboard on_board(std::uint64_t text_mask, std::uint64_t runs, Bitboard starts) {
  return static_cast<Bitboard>(_pdep_u64(_pext_u64(text_mask, runs), starts));
}

}  // namespace

bool placement_avx2_supported() {
  static const bool supported = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                                __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  return supported;
}

// PDEP/PEXT are microcoded on AMD before Zen 3 (family 0x19), tens of cycles each: the loop is faster there.
// Intel's are fast on every CPU with BMI2 (Haswell on); other vendors are not assumed to be.
bool placement_avx2_pays_off() {
  if (!placement_avx2_supported()) return false;
  if (__builtin_cpu_is("intel")) return true;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__builtin_cpu_is("amd") || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  return amd_pdep_is_fast(eax);
}

namespace {

// A text that ends within 64 bytes of p, and p within 64 bytes of its page's end (1.5 % of lines): read a copy.
// Out of line, so that the common case keeps a light stack frame.
__attribute__((noinline)) bool parse_copy(const char* p, const char* end, Position& pos, const char*& after) {
  alignas(64) char copy[64] = {};  // within one page
  std::memcpy(copy, p, static_cast<std::size_t>(end - p));
  const char* copy_after = nullptr;
  if (!parse_placement_avx2(copy, copy + (end - p), pos, copy_after)) return false;
  after = p + (copy_after - copy);
  return true;
}

}  // namespace

FENMILL_AVX2 bool parse_placement_avx2(const char* p, const char* end, Position& pos, const char*& after) {
  const std::size_t avail = static_cast<std::size_t>(end - p);
  // No placement is shorter than "8/8/8/8/8/8/8/8"; the loop decides on shorter texts. This also keeps an
  // empty text, whose p may be the first byte of an unreadable page, from being read at all.
  if (avail < 15) return false;
  // 64 bytes from p: they lie in [p, end) or at least in p's 4 KiB page (p < end is readable), so the read
  // cannot fault (bytes from `end` on count as stop bytes below).
  if (avail < 64 && (reinterpret_cast<std::uintptr_t>(p) & 4095) > 4096 - 64) return parse_copy(p, end, pos, after);
  const Bytes64 text = {load32(p), load32(p + 32)};
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const Bytes64 high = {_mm256_and_si256(_mm256_srli_epi16(text.lo, 4), nibble),
                        _mm256_and_si256(_mm256_srli_epi16(text.hi, 4), nibble)};
  const Bytes64 cls = {_mm256_and_si256(lookup(kTables.class_lo, text.lo), lookup(kTables.class_hi, high.lo)),
                       _mm256_and_si256(lookup(kTables.class_lo, text.hi), lookup(kTables.class_hi, high.hi))};

  // The placement runs up to the first byte that is not a placement character, or to `end`.
  const __m256i zero = _mm256_setzero_si256();
  const std::uint64_t outside = avail >= 64 ? 0 : ~_bzhi_u64(~0ull, static_cast<unsigned>(avail));
  const __m256i placement_byte = _mm256_set1_epi8(static_cast<char>(kPlacementByte));
  const std::uint64_t stop = bit_plane<0x80>({_mm256_cmpeq_epi8(_mm256_and_si256(cls.lo, placement_byte), zero),
                                           _mm256_cmpeq_epi8(_mm256_and_si256(cls.hi, placement_byte), zero)}) |
                             outside;
  if (stop == 0) return false;  // 64 placement characters and maybe more: the scalar loop takes those
  const unsigned length = static_cast<unsigned>(_tzcnt_u64(stop));
  if (length < avail && !is_blank(p[length])) return false;
  const std::uint64_t in = _bzhi_u64(~0ull, length);

  const std::uint64_t slashes = bit_plane<kSlash>(cls) & in;
  const std::uint64_t digits = bit_plane<kDigit>(cls) & in;
  if (_mm_popcnt_u64(slashes) != 7) return false;
  if (digits & (digits >> 1)) return false;  // "44": a run of empty squares takes one digit
  const std::uint64_t runs = in & ~slashes;   // the bytes that cover squares: pieces and digits

  // Each run's square mask, zero from the stop byte on, then in unary on the board (see the top of the file).
  const __m256i count = _mm256_set1_epi8(static_cast<char>(length));
  const Bytes64 width = {
      _mm256_and_si256(_mm256_and_si256(lookup(kTables.width_lo, text.lo), lookup(kTables.width_hi, high.lo)),
                       _mm256_cmpgt_epi8(count, load32(kTables.iota))),
      _mm256_and_si256(_mm256_and_si256(lookup(kTables.width_lo, text.hi), lookup(kTables.width_hi, high.hi)),
                       _mm256_cmpgt_epi8(count, load32(kTables.iota + 32)))};
  const Unary all = join(unary_runs<std::uint64_t>(width.lo), unary_runs<std::uint64_t>(width.hi));
  const Bitboard starts = all.bits;
  // With 7 slashes, each followed by a run that starts on square 8, 16, ..., 56, and 64 squares in all,
  // every rank holds 8 squares. (One test: GCC moves a separate squares test ahead of the PEXTs and then
  // keeps 8 more values alive across it, spilling to the stack.)
  if ((all.squares != 64) | (on_board(slashes << 1, runs, starts) != 0x0101010101010100ull)) return false;

  // The three code bits and the colour on the board (board order from here), then each kind from its code.
  const Bitboard code0 = __builtin_bswap64(on_board(bit_plane<kCode0>(cls), runs, starts));
  const Bitboard code1 = __builtin_bswap64(on_board(bit_plane<kCode1>(cls), runs, starts));
  const Bitboard code2 = __builtin_bswap64(on_board(bit_plane<kCode2>(cls), runs, starts));
  const Bitboard black = __builtin_bswap64(on_board(bit_plane<kLowerCase>(cls), runs, starts));
  const Bitboard only0 = code0 & ~code1, only1 = code1 & ~code0, both = code0 & code1;
  pos.by_type[kPawn] = only0 & code2;      // 101
  pos.by_type[kKnight] = only1 & ~code2;   // 010
  pos.by_type[kBishop] = both & ~code2;    // 011
  pos.by_type[kRook] = both & code2;       // 111
  pos.by_type[kQueen] = only1 & code2;     // 110
  pos.by_type[kKing] = only0 & ~code2;     // 001
  pos.by_color[kWhite] = (code0 | code1 | code2) & ~black;  // no kind has code 000
  pos.by_color[kBlack] = black;
  after = p + length;
  return true;
}

}  // namespace fenmill

#else  // not x86-64: the scalar loop serves

namespace fenmill {
bool placement_avx2_supported() { return false; }
bool placement_avx2_pays_off() { return false; }
bool parse_placement_avx2(const char*, const char*, Position&, const char*&) { return false; }
}  // namespace fenmill

#endif
