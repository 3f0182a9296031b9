// The Xiangqi placement reader for CPUs with AVX2 and fast PDEP/PEXT, on the chess reader's plan
// (fen/placement_avx2.cpp): classify 64 bytes with vector compares and nibble lookups, then work on 64-bit masks,
// one bit per text byte. Same contract as the scalar loop (xiangqi/placement_fast.h); it refuses placements of 64
// characters or more. Two differences from chess:
//  - FEN lists rank 9 first, but a Xiangqi point is rank * 9 + file from rank 0, and a 90-bit board has no cheap
//    rank flip (chess byte-swaps). So the ranks are first copied in board order, rank 0's text first, each followed
//    by a '/', into a buffer (`out`); everything after that reads the copy, and the points come out in board order.
//  - A '9' covers 9 points, one more than a byte's square mask holds. A '9' is always a whole rank (else the rank
//    sum is wrong: refused first), so the '/' after it in the copy carries its ninth point: its mask is 0b10, which
//    adds one point and starts no run.
// With the ranks in order, runs in unary: each byte's mask is (1 << width) - 1 (a piece 1, a digit n n bits, '/'
// none), and PEXT of 0x01 bytes under the masks writes "1 then width-1 zeros" per run: `starts` has a bit on the
// first point of every run. The k-th run starts on the k-th bit of `starts`, so PDEP(PEXT(text mask, runs),
// starts) puts any set of runs (a kind's pieces, each rank's first run) on the board.
#include "xiangqi/placement_fast.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/unary_runs.h"
#include "fen/text_cursor.h"
#include "xiangqi/parse.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

// Not instrumented by ASan either: the reader may read past `end` inside a page (see its first lines).
#define FENMILL_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt"), no_sanitize("address")))

namespace fenmill::xiangqi {
namespace {

// A piece byte's kind: one bit per type plus one for Black, as the AND of a lookup by the low nibble and one by the
// high nibble (case folded by the high nibble: 4 = 6, 5 = 7). Exact on the bytes it is used on (letters, digits
// and '/' of a checked placement): B and R share low nibble 2, the high nibble tells them apart.
constexpr std::uint8_t kBlackBit = 1u << kPieceTypeCount;
struct KindTables {
  alignas(32) std::uint8_t lo[32], hi[32];  // the 16-entry tables twice, one per 128-bit lane
  constexpr KindTables() : lo(), hi() {
    // letter, type; "KABNRCP" and the WXF "EH"
    constexpr char kLetters[] = "KABNRCPEH";
    constexpr PieceType kTypes[] = {kGeneral, kAdvisor, kElephant, kHorse, kChariot, kCannon, kSoldier, kElephant, kHorse};
    for (int i = 0; i < 9; ++i) {
      const int c = kLetters[i];
      for (int lane = 0; lane < 32; lane += 16) {
        lo[lane + (c & 15)] |= static_cast<std::uint8_t>(1u << kTypes[i]);
        hi[lane + (c >> 4)] |= static_cast<std::uint8_t>(1u << kTypes[i]);          // upper case: Red
        hi[lane + (c >> 4) + 2] |= static_cast<std::uint8_t>(1u << kTypes[i]);      // lower case
      }
    }
    for (int lane = 0; lane < 32; lane += 16) {
      for (int n = 0; n < 16; ++n) lo[lane + n] |= kBlackBit;
      hi[lane + 6] |= kBlackBit;
      hi[lane + 7] |= kBlackBit;
    }
  }
  constexpr std::uint8_t kind_of(int b) const { return lo[b & 15] & hi[b >> 4]; }
};
constexpr KindTables kKinds;

constexpr bool kinds_exact() {
  constexpr char kLetters[] = "KABNRCPEH";
  constexpr PieceType kTypes[] = {kGeneral, kAdvisor, kElephant, kHorse, kChariot, kCannon, kSoldier, kElephant, kHorse};
  for (int b = 0; b < 256; ++b) {
    unsigned want = 0;
    for (int i = 0; i < 9; ++i)
      if ((b | 0x20) == (kLetters[i] | 0x20)) want = (1u << kTypes[i]) | (b & 0x20 ? kBlackBit : 0);
    const unsigned got = kKinds.kind_of(b);
    // Type bits exactly on the letters; the Black bit on every lower-case letter (and on other bytes too).
    if ((got & ~kBlackBit) != (want & ~kBlackBit) || (want && got != want)) return false;
  }
  return true;
}
static_assert(kinds_exact());

// The square mask of a digit's byte by its low nibble: (1 << n) - 1, and 8 points for '9' (its '/' adds the ninth).
struct WidthTable {
  alignas(32) std::uint8_t mask[32];
  constexpr WidthTable() : mask() {
    for (int lane = 0; lane < 32; lane += 16)
      for (int n = 1; n <= 9; ++n) mask[lane + n] = static_cast<std::uint8_t>((1u << (n < 9 ? n : 8)) - 1);
  }
};
constexpr WidthTable kWidths;

struct Iota {
  alignas(32) std::uint8_t value[64];
  constexpr Iota() : value() {
    for (int i = 0; i < 64; ++i) value[i] = static_cast<std::uint8_t>(i);
  }
};
constexpr Iota kIota;

struct Bytes64 {  // 64 bytes in two AVX2 registers
  __m256i lo, hi;
};

FENMILL_AVX2 inline __m256i load32(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
FENMILL_AVX2 inline __m256i byte(char c) { return _mm256_set1_epi8(c); }

FENMILL_AVX2 inline std::uint64_t mask_of(__m256i lo, __m256i hi) {  // the bytes' sign bits
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(lo)) |
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(hi))) << 32;
}
FENMILL_AVX2 inline std::uint64_t equal(Bytes64 v, char c) {
  return mask_of(_mm256_cmpeq_epi8(v.lo, byte(c)), _mm256_cmpeq_epi8(v.hi, byte(c)));
}
// Bytes '1' to '9'.
FENMILL_AVX2 inline std::uint64_t digits_of(Bytes64 v) {
  const __m256i lo = _mm256_sub_epi8(v.lo, byte('1')), hi = _mm256_sub_epi8(v.hi, byte('1'));
  return mask_of(_mm256_cmpeq_epi8(_mm256_min_epu8(lo, byte(8)), lo), _mm256_cmpeq_epi8(_mm256_min_epu8(hi, byte(8)), hi));
}
// The bit `bit` (one set bit) of each byte, as a mask with bit i for byte i.
template <int bit>
FENMILL_AVX2 inline std::uint64_t bit_plane(Bytes64 v) {
  constexpr int shift = 7 - bit;  // to the sign bit, which movemask reads
  return mask_of(_mm256_slli_epi16(v.lo, shift), _mm256_slli_epi16(v.hi, shift));
}

// Each byte's kind bits (KindTables).
FENMILL_AVX2 inline __m256i kinds_of(__m256i v) {
  const __m256i nibble = byte(0x0f);
  return _mm256_and_si256(_mm256_shuffle_epi8(load32(kKinds.lo), _mm256_and_si256(v, nibble)),
                          _mm256_shuffle_epi8(load32(kKinds.hi), _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)));
}

// The square masks of board-order placement bytes v (prev: the byte before each), zero from byte `count` on: a piece
// 1, a digit n n bits ('9' 8), a '/' none, or 0b10 after a '9' (its ninth point, no run start).
FENMILL_AVX2 inline __m256i square_masks(__m256i v, __m256i prev, __m256i count, const std::uint8_t* iota) {
  const __m256i digit = _mm256_cmpeq_epi8(_mm256_and_si256(v, byte(static_cast<char>(0xf0))), byte(0x30));
  const __m256i slash = _mm256_cmpeq_epi8(v, byte('/'));
  const __m256i ninth = _mm256_and_si256(_mm256_and_si256(slash, _mm256_cmpeq_epi8(prev, byte('9'))), byte(2));
  const __m256i digit_mask = _mm256_shuffle_epi8(load32(kWidths.mask), _mm256_and_si256(v, byte(0x0f)));
  const __m256i w = _mm256_or_si256(_mm256_and_si256(digit, digit_mask), _mm256_andnot_si256(_mm256_or_si256(digit, slash), byte(1)));
  return _mm256_and_si256(_mm256_or_si256(w, ninth), _mm256_cmpgt_epi8(count, load32(iota)));
}

using Unary = UnaryRuns<Bitboard>;

// The board: where runs start, as two halves, and how many runs start in the low one.
struct Starts {
  std::uint64_t low, high;
  unsigned low_runs;
};

// The runs picked by text_mask, on the points where they start: the k-th run starts on the k-th bit of `starts`.
// At most 63 runs (the text is shorter than 64 bytes), so low_runs < 64 and the shift is defined.
FENMILL_AVX2 inline Bitboard on_board(std::uint64_t text_mask, std::uint64_t runs, const Starts& s) {
  const std::uint64_t picked = _pext_u64(text_mask, runs);
  return static_cast<Bitboard>(_pdep_u64(picked >> s.low_runs, s.high)) << 64 | _pdep_u64(picked, s.low);
}

// A text that ends within 64 bytes of p, and p within 64 bytes of its page's end: read a copy. Out of line, so that
// the common case keeps a light stack frame.
__attribute__((noinline)) bool parse_copy(const char* p, const char* end, Position& pos, std::uint8_t& seen,
                                          const char*& after) {
  alignas(64) char copy[64] = {};  // within one page
  std::memcpy(copy, p, static_cast<std::size_t>(end - p));
  const char* copy_after = nullptr;
  if (!parse_placement_avx2(copy, copy + (end - p), pos, seen, copy_after)) return false;
  after = p + (copy_after - copy);
  return true;
}

}  // namespace

FENMILL_AVX2 bool parse_placement_avx2(const char* p, const char* end, Position& pos, std::uint8_t& seen,
                                       const char*& after) {
  const std::size_t avail = static_cast<std::size_t>(end - p);
  // No placement is shorter than "9/9/9/9/9/9/9/9/9/9"; the loop decides on shorter texts. This also keeps an
  // empty text, whose p may be the first byte of an unreadable page, from being read at all.
  if (avail < 19) return false;
  // 64 bytes from p: they lie in [p, end) or at least in p's 4 KiB page (p < end is readable), so the read
  // cannot fault (bytes from `end` on count as stop bytes below).
  if (avail < 64 && (reinterpret_cast<std::uintptr_t>(p) & 4095) > 4096 - 64) return parse_copy(p, end, pos, seen, after);
  // text[0, 64): the bytes from p, after 32 zero bytes; the ranks are copied from there, 16 bytes at a time.
  alignas(32) char text_buffer[32 + 64];
  char* const text = text_buffer + 32;
  const Bytes64 in_text = {load32(p), load32(p + 32)};
  _mm256_store_si256(reinterpret_cast<__m256i*>(text_buffer), _mm256_setzero_si256());
  _mm256_store_si256(reinterpret_cast<__m256i*>(text), in_text.lo);
  _mm256_store_si256(reinterpret_cast<__m256i*>(text + 32), in_text.hi);

  // The placement runs up to the first byte that is not a placement character, or to `end`.
  const __m256i zero = _mm256_setzero_si256(), type_bits = byte(0x7f);
  const std::uint64_t not_letter = mask_of(_mm256_cmpeq_epi8(_mm256_and_si256(kinds_of(in_text.lo), type_bits), zero),
                                           _mm256_cmpeq_epi8(_mm256_and_si256(kinds_of(in_text.hi), type_bits), zero));
  const std::uint64_t slash_bytes = equal(in_text, '/'), digit_bytes = digits_of(in_text);
  const std::uint64_t outside = avail >= 64 ? 0 : ~_bzhi_u64(~0ull, static_cast<unsigned>(avail));
  const std::uint64_t stop = (not_letter & ~slash_bytes & ~digit_bytes) | outside;
  if (stop == 0) return false;  // 64 placement characters and maybe more: the scalar loop takes those
  const unsigned length = static_cast<unsigned>(_tzcnt_u64(stop));
  if (length < avail && !is_blank(text[length])) return false;
  const std::uint64_t in = _bzhi_u64(~0ull, length);
  const std::uint64_t slashes = slash_bytes & in, digits = digit_bytes & in, nines = equal(in_text, '9') & in;
  if (_mm_popcnt_u64(slashes) != kRankCount - 1) return false;
  if (digits & (digits >> 1)) return false;  // "54": a run of empty points takes one digit
  // A '9' fills its rank: a '/' or the start before it, a '/' or the end after it (length < 64).
  if (nines & ~(((slashes | 1ull << length) >> 1) & ((slashes << 1) | 1))) return false;
  const std::uint64_t rank_bytes = in & ~slashes, two = rank_bytes & rank_bytes >> 1, four = two & two >> 2,
                      eight = four & four >> 4;
  if (eight & eight >> 2) return false;  // 10 rank bytes in a row

  // The ranks in board order, each followed by a '/': rank 0 (the text's last) first. The text's rank from byte
  // s to byte e (a '/' or the end) goes to length - e, its '/' to length - s; the last has none in the text. Each
  // rank and its '/' are the last bytes of a 16-byte copy; the copies go to ever lower places, each overwriting
  // what the one before wrote ahead of its rank. A rank of 10 or more bytes is refused first (it has more than 9
  // points anyway), so that each copy holds its whole rank; an empty one leaves two '/' together in the copy, which
  // the check of each rank's first run below refuses.
  alignas(32) char board_buffer[32 + 64];  // out[-32, 64)
  char* const out = board_buffer + 32;
  _mm256_store_si256(reinterpret_cast<__m256i*>(board_buffer), _mm256_setzero_si256());
  _mm256_store_si256(reinterpret_cast<__m256i*>(out), _mm256_setzero_si256());
  _mm256_store_si256(reinterpret_cast<__m256i*>(out + 32), _mm256_setzero_si256());
  std::uint64_t rest = slashes | 1ull << length;  // where each rank ends
  unsigned rank_start = 0, last_start = 0;
  for (int r = 0; r < kRankCount; ++r) {
    last_start = rank_start;
    const auto rank_end = static_cast<unsigned>(_tzcnt_u64(rest));
    rest = _blsr_u64(rest);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (length - rank_start) - 15),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + rank_end - 15)));
    rank_start = rank_end + 1;
  }
  out[length - last_start] = '/';  // after rank 0
  const unsigned board_length = length + 1;

  // Each run's square mask, zero from board_length on: a piece 1, a digit n n bits ('9' 8), a '/' none, or 0b10
  // after a '9'. Then the runs in unary on the board (see the top of the file).
  const Bytes64 board = {load32(out), load32(out + 32)};
  const Bytes64 before = {load32(out - 1), load32(out + 31)};
  const __m256i count = byte(static_cast<char>(board_length));
  const Unary all = join(unary_runs<Bitboard>(square_masks(board.lo, before.lo, count, kIota.value)),
                         unary_runs<Bitboard>(square_masks(board.hi, before.hi, count, kIota.value + 32)));
  const std::uint64_t board_slashes = equal(board, '/') & _bzhi_u64(~0ull, board_length);
  const std::uint64_t runs = _bzhi_u64(~0ull, board_length) & ~board_slashes;  // the bytes that start a run
  const Starts starts = {low64(all.bits), high64(all.bits), static_cast<unsigned>(_mm_popcnt_u64(low64(all.bits)))};
  // 90 points, and each rank's first run (the text's first, and those after a '/') on file a: every rank holds 9.
  const std::uint64_t rank_firsts = ((board_slashes << 1) | 1) & runs;
  if ((all.squares != kSquareCount) | (on_board(rank_firsts, runs, starts) != kFileBB[0])) return false;

  // Each type, the colours and the letter sets from the kind bits.
  const Bytes64 kind = {kinds_of(board.lo), kinds_of(board.hi)};
  const std::uint64_t general = bit_plane<kGeneral>(kind), advisor = bit_plane<kAdvisor>(kind),
                      elephant = bit_plane<kElephant>(kind), horse = bit_plane<kHorse>(kind),
                      chariot = bit_plane<kChariot>(kind), cannon = bit_plane<kCannon>(kind),
                      soldier = bit_plane<kSoldier>(kind), black = bit_plane<kPieceTypeCount>(kind) & runs;
  const std::uint64_t pieces = general | advisor | elephant | horse | chariot | cannon | soldier;
  pos.by_type[kGeneral] = on_board(general, runs, starts);
  pos.by_type[kAdvisor] = on_board(advisor, runs, starts);
  pos.by_type[kElephant] = on_board(elephant, runs, starts);
  pos.by_type[kHorse] = on_board(horse, runs, starts);
  pos.by_type[kChariot] = on_board(chariot, runs, starts);
  pos.by_type[kCannon] = on_board(cannon, runs, starts);
  pos.by_type[kSoldier] = on_board(soldier, runs, starts);
  pos.by_color[kRed] = on_board(pieces & ~black, runs, starts);
  pos.by_color[kBlack] = on_board(black, runs, starts);
  // Bit 1 tells B (0x42) and N (0x4e) from E (0x45) and H (0x48), in either case.
  const std::uint64_t two_letter = (elephant | horse) & runs, bit1 = bit_plane<1>(board);
  seen = static_cast<std::uint8_t>((two_letter & bit1 ? kSeenUcci : 0) | (two_letter & ~bit1 ? kSeenWxf : 0));
  after = p + length;
  return true;
}

}  // namespace fenmill::xiangqi

#else  // not x86-64: the scalar loop serves

namespace fenmill::xiangqi {
bool parse_placement_avx2(const char*, const char*, Position&, std::uint8_t&, const char*&) { return false; }
}  // namespace fenmill::xiangqi

#endif
