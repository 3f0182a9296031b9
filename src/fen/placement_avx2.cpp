// The placement reader for CPUs with AVX2 and fast PDEP/PEXT but no AVX-512 (Zen 3, Haswell to Alder Lake).
// Same contract as the scalar loop (src/fen/placement_fast.h), but it refuses placements of 64 characters or
// more. Two nibble lookups classify 64 bytes; the rest is arithmetic on 64-bit masks, one bit per text byte:
//  - each square run gets its width in unary: a byte's mask is (1 << width) - 1 (a digit n: n, a piece: 1,
//    '/': 0), and PEXT of 0x01 bytes under the 64 masks writes "1 then width-1 zeros" per square run, one
//    after the other: the `starts` board has a bit on the first square of every run (FEN order, a8 = 0);
//  - the k-th run in text order starts on the k-th bit of `starts`, so PDEP(PEXT(text mask, runs), starts)
//    moves any set of runs (the pieces of a kind, those right after a '/') onto the board.
#include "fen/placement_fast.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

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
// ANDed, gives every class bit of a byte. Class bits 0-5: piece type (1 << type, either colour), then:
constexpr std::uint8_t kSlashBit = 0x40, kDigitBit = 0x80;  // the digit bit is the sign bit: one movemask

struct Tables {
  // The 16-entry tables twice over, one copy per 128-bit lane. width_lo & width_hi is the byte's square
  // run mask: (1 << n) - 1 for a digit n (high nibble 3: all ones), 1 for a piece, 0 for '/'.
  alignas(32) std::uint8_t class_lo[32], class_hi[32], width_lo[32], width_hi[32];
  alignas(32) std::uint8_t iota[64];
  constexpr Tables() : class_lo(), class_hi(), width_lo(), width_hi(), iota() {
    const char* letters = "PNBRQK";
    for (int t = 0; t < 6; ++t) {
      add(letters[t], static_cast<std::uint8_t>(1 << t), 1);
      add(static_cast<char>(letters[t] | 0x20), static_cast<std::uint8_t>(1 << t), 1);  // black
    }
    for (int n = 1; n <= 8; ++n) add(static_cast<char>('0' + n), kDigitBit, static_cast<std::uint8_t>((1 << n) - 1));
    add('/', kSlashBit, 0);
    for (int i = 0; i < 64; ++i) iota[i] = static_cast<std::uint8_t>(i);
  }
  constexpr void add(char c, std::uint8_t bits, std::uint8_t width) {
    for (int lane = 0; lane < 32; lane += 16) {
      class_lo[lane + (c & 15)] |= bits;
      class_hi[lane + (c >> 4)] |= bits;
      width_lo[lane + (c & 15)] |= width;
      width_hi[lane + (c >> 4)] |= width;
    }
  }
  // What the lookups give for byte b (vpshufb gives 0 for an index with the sign bit set).
  constexpr std::uint8_t class_of(int b) const { return b >= 128 ? 0 : class_lo[b & 15] & class_hi[b >> 4]; }
  constexpr std::uint8_t width_of(int b) const { return b >= 128 ? 0 : width_lo[b & 15] & width_hi[b >> 4]; }
};
constexpr Tables kTables;

// The nibble products must be exact: every byte gets its own class and width, and no other byte any.
constexpr bool tables_exact() {
  for (int b = 0; b < 256; ++b) {
    int type = -1;
    for (int t = 0; t < 6; ++t)
      if ((b | 0x20) == "pnbrqk"[t]) type = t;
    const bool digit = b >= '1' && b <= '8';
    const std::uint8_t cls = type >= 0 ? 1 << type : digit ? kDigitBit : b == '/' ? kSlashBit : 0;
    const std::uint8_t width = type >= 0 ? 1 : digit ? (1 << (b - '0')) - 1 : 0;
    if (kTables.class_of(b) != cls || (cls != 0 && kTables.width_of(b) != width)) return false;
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

// Bit `bit` of each byte, as a mask with bit i for byte i.
template <int bit>
FENMILL_AVX2 inline std::uint64_t bit_plane(Bytes64 v) {
  const auto lo = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_slli_epi16(v.lo, 7 - bit)));
  const auto hi = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_slli_epi16(v.hi, 7 - bit)));
  return lo | static_cast<std::uint64_t>(hi) << 32;
}

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
  unsigned family = (eax >> 8) & 0xf;
  if (family == 0xf) family += (eax >> 20) & 0xff;
  return family >= 0x19;
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
  // 64 bytes from p: they lie in [p, end) or at least in p's 4 KiB page, so the read cannot fault (bytes from
  // `end` on count as stop bytes below).
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
  const std::uint64_t stop = bit_plane<7>({_mm256_cmpeq_epi8(cls.lo, zero), _mm256_cmpeq_epi8(cls.hi, zero)}) | outside;
  if (stop == 0) return false;  // 64 placement characters and maybe more: the scalar loop takes those
  const unsigned length = static_cast<unsigned>(_tzcnt_u64(stop));
  if (length < avail && !is_blank(p[length])) return false;
  const std::uint64_t in = _bzhi_u64(~0ull, length);

  const std::uint64_t slashes = bit_plane<6>(cls) & in;
  const std::uint64_t digits = bit_plane<7>(cls) & in;
  if (_mm_popcnt_u64(slashes) != 7) return false;
  if (digits & (digits >> 1)) return false;  // "44": a run of empty squares takes one digit
  const std::uint64_t runs = in & ~slashes;   // the bytes that cover squares: pieces and digits

  // Each run's square mask, zero from the stop byte on, then in unary on the board (see the top of the file).
  const __m256i count = _mm256_set1_epi8(static_cast<char>(length));
  alignas(32) std::uint64_t width[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(width),
                     _mm256_and_si256(_mm256_and_si256(lookup(kTables.width_lo, text.lo), lookup(kTables.width_hi, high.lo)),
                                      _mm256_cmpgt_epi8(count, load32(kTables.iota))));
  _mm256_store_si256(reinterpret_cast<__m256i*>(width + 4),
                     _mm256_and_si256(_mm256_and_si256(lookup(kTables.width_lo, text.hi), lookup(kTables.width_hi, high.hi)),
                                      _mm256_cmpgt_epi8(count, load32(kTables.iota + 32))));
  // Each 8 bytes' runs in unary, then joined pairwise (a tree: short dependency chains), lower bytes lower. A
  // shift of 64 or more would be needed only where more than 64 squares are named: refused below.
  std::uint64_t unary[8];
  unsigned squares[8];
  for (int i = 0; i < 8; ++i) {
    unary[i] = _pext_u64(0x0101010101010101ull, width[i]);
    squares[i] = static_cast<unsigned>(_mm_popcnt_u64(width[i]));
  }
  for (int step = 1; step < 8; step *= 2)
    for (int i = 0; i < 8; i += 2 * step) {
      unary[i] |= unary[i + step] << (squares[i] & 63);
      squares[i] += squares[i + step];
    }
  const Bitboard starts = unary[0];
  if (squares[0] != 64) return false;
  // With 7 slashes, each followed by a run that starts on square 8, 16, ..., 56, and 64 squares in all,
  // every rank holds 8 squares.
  if (on_board(slashes << 1, runs, starts) != 0x0101010101010100ull) return false;

  const std::uint64_t pieces = runs & ~digits;
  const Bitboard occupied = on_board(pieces, runs, starts);
  const Bitboard black = on_board(bit_plane<5>(text) & pieces, runs, starts);  // lower case: bit 5 of the letter
  pos.by_type[kPawn] = __builtin_bswap64(on_board(bit_plane<kPawn>(cls), runs, starts));
  pos.by_type[kKnight] = __builtin_bswap64(on_board(bit_plane<kKnight>(cls), runs, starts));
  pos.by_type[kBishop] = __builtin_bswap64(on_board(bit_plane<kBishop>(cls), runs, starts));
  pos.by_type[kRook] = __builtin_bswap64(on_board(bit_plane<kRook>(cls), runs, starts));
  pos.by_type[kQueen] = __builtin_bswap64(on_board(bit_plane<kQueen>(cls), runs, starts));
  pos.by_type[kKing] = __builtin_bswap64(on_board(bit_plane<kKing>(cls), runs, starts));
  pos.by_color[kWhite] = __builtin_bswap64(occupied & ~black);
  pos.by_color[kBlack] = __builtin_bswap64(black);
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
