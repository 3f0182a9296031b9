#include "xiangqi/write.h"

#include <cstring>

#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif

#include "fen/write.h"

namespace fenmill::xiangqi {
namespace {

// [letters][colour][type], in PieceType order: general advisor elephant horse chariot cannon soldier.
constexpr char kPieceChars[2][2][kPieceTypeCount] = {
    {{'K', 'A', 'B', 'N', 'R', 'C', 'P'}, {'k', 'a', 'b', 'n', 'r', 'c', 'p'}},
    {{'K', 'A', 'E', 'H', 'R', 'C', 'P'}, {'k', 'a', 'e', 'h', 'r', 'c', 'p'}},
};

}  // namespace

std::size_t write_placement_portable(const Position& pos, char* out, Letters letters) {
  const auto& chars = kPieceChars[static_cast<int>(letters)];
  char board[kSquareCount];  // only occupied points are read
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < kPieceTypeCount; ++t) {
      char letter = chars[c][t];
      for_each_point(pos.pieces(Color(c), PieceType(t)), [&](Square s) { board[s] = letter; });
    }
  Bitboard occupied = pos.occupied();
  char* p = out;
  for (int rank = kRankCount - 1; rank >= 0; --rank) {
    // Walk the rank's pieces; the gaps between them are the digits.
    auto row = static_cast<unsigned>(occupied >> (kFileCount * rank)) & 0x1FF;
    int file = 0;
    for (; row; row &= row - 1) {
      int f = __builtin_ctz(row);
      if (f > file) *p++ = static_cast<char>('0' + f - file);
      *p++ = board[rank * kFileCount + f];
      file = f + 1;
    }
    if (file < kFileCount) *p++ = static_cast<char>('0' + kFileCount - file);
    if (rank) *p++ = '/';
  }
  return static_cast<std::size_t>(p - out);
}

#if defined(__SSSE3__)

namespace {

// Each point's letter comes from a 4-bit index, (colour << 3) | (type + 1), 0 for an empty point: four bit planes,
// spread to one byte a point 16 points at a time, give the indexes, and one byte lookup (pshufb) the letters.
// Each rank is then one more shuffle: a table by the rank's 9-bit occupancy says which file's letter or which digit
// goes to each byte of the rank's text. No branch per piece or per point.
struct LetterTables {
  std::int8_t letter[2][16];  // [letters][index]
  constexpr LetterTables() : letter() {
    for (int set = 0; set < 2; ++set)
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < kPieceTypeCount; ++t) letter[set][(c << 3) | (t + 1)] = kPieceChars[set][c][t];
  }
};
constexpr LetterTables kLetterTables;

// By a rank's occupancy: the shuffle picking each text byte's letter (its file) or nothing (0x80: a digit's byte),
// the digits in their bytes, and the text's length.
struct RankTables {
  std::int8_t shuffle[512][16];
  std::int8_t digits[512][16];
  std::uint8_t length[512];
  constexpr RankTables() : shuffle(), digits(), length() {
    for (int occupancy = 0; occupancy < 512; ++occupancy) {
      int k = 0, run = 0;
      for (auto& b : shuffle[occupancy]) b = static_cast<std::int8_t>(0x80);
      for (int file = 0; file <= kFileCount; ++file) {
        const bool piece = file < kFileCount && (occupancy >> file & 1);
        if ((piece || file == kFileCount) && run) digits[occupancy][k++] = static_cast<std::int8_t>('0' + run), run = 0;
        if (piece) shuffle[occupancy][k++] = static_cast<std::int8_t>(file);
        else if (file < kFileCount) ++run;
      }
      length[occupancy] = static_cast<std::uint8_t>(k);
    }
  }
};
constexpr RankTables kRankTables;

}  // namespace

std::size_t write_placement(const Position& pos, char* out, Letters letters) {
  // Index planes: bit 3 black, bits 0-2 the type + 1 (general 1 ... soldier 7).
  Bitboard plane[4] = {0, 0, 0, pos.by_color[kBlack]};
  for (int t = 0; t < kPieceTypeCount; ++t)
    for (int j = 0; j < 3; ++j)
      if ((t + 1) >> j & 1) plane[j] |= pos.by_type[t];
  const Bitboard occupied = pos.occupied();
  for (Bitboard& b : plane) b &= occupied;  // a type without a colour, or a colour without a type: no letter
  alignas(16) char board[112];  // 7 blocks of 16 points: a rank's 16-byte load from its first point stays inside
  const __m128i table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLetterTables.letter[static_cast<int>(letters)]));
  const __m128i spread = _mm_set_epi8(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m128i bit = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1, -128, 64, 32, 16, 8, 4, 2, 1);
  for (int block = 0; block < 7; ++block) {
    __m128i index = _mm_setzero_si128();
    for (int j = 0; j < 4; ++j) {
      const auto bits = static_cast<int>(static_cast<std::uint16_t>(plane[j] >> (16 * block)));
      const __m128i bytes = _mm_shuffle_epi8(_mm_cvtsi32_si128(bits), spread);  // byte 0 x8, byte 1 x8
      const __m128i set = _mm_cmpeq_epi8(_mm_and_si128(bytes, bit), bit);
      index = _mm_or_si128(index, _mm_and_si128(set, _mm_set1_epi8(static_cast<char>(1 << j))));
    }
    _mm_store_si128(reinterpret_cast<__m128i*>(board + 16 * block), _mm_shuffle_epi8(table, index));
  }
  char* p = out;
  for (int rank = kRankCount - 1; rank >= 0; --rank) {
    const auto occupancy = static_cast<unsigned>(occupied >> (kFileCount * rank)) & 0x1FF;
    const __m128i row = _mm_loadu_si128(reinterpret_cast<const __m128i*>(board + kFileCount * rank));
    const __m128i shuffle = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRankTables.shuffle[occupancy]));
    const __m128i digits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRankTables.digits[occupancy]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm_or_si128(_mm_shuffle_epi8(row, shuffle), digits));
    p += kRankTables.length[occupancy];
    if (rank) *p++ = '/';
  }
  return static_cast<std::size_t>(p - out);
}

#else  // without SSSE3 (FENMILL_ARCH=""): the loop

std::size_t write_placement(const Position& pos, char* out, Letters letters) {
  return write_placement_portable(pos, out, letters);
}

#endif

std::size_t write_fen(const Position& pos, char* out, Letters letters) {
  char* p = out + write_placement(pos, out, letters);
  std::memcpy(p, pos.side_to_move == kBlack ? " b - - " : " w - - ", 7);
  p += 7;
  p += write_uint(pos.halfmove_clock, p);
  *p++ = ' ';
  p += write_uint(pos.fullmove_number, p);
  return static_cast<std::size_t>(p - out);
}

std::size_t write_epd(const Position& pos, char* out, Letters letters) {
  char* p = out + write_placement(pos, out, letters);
  std::memcpy(p, pos.side_to_move == kBlack ? " b - -" : " w - -", 6);
  p += 6;
  return static_cast<std::size_t>(p - out) + fenmill::write_epd_clocks(pos.halfmove_clock, pos.fullmove_number, p);
}

std::string to_fen(const Position& pos, Letters letters) {
  char buffer[kMaxFenLength];
  return std::string(buffer, write_fen(pos, buffer, letters));
}

}  // namespace fenmill::xiangqi
