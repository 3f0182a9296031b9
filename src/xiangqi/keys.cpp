#include "xiangqi/keys.h"

#include <type_traits>

// Inlined so that the fixed-length hash compiles to straight-line code (no call, no length dispatch).
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace fenmill::xiangqi {

static_assert(sizeof(KeyMaterial) == 80);  // XXH3: 65 to 96 bytes take three mixing rounds
static_assert(std::has_unique_object_representations_v<KeyMaterial>);  // no padding gets hashed

namespace {

constexpr std::uint32_t kXiangqiTag = 0x5158;  // "XQ": keeps Xiangqi and chess key spaces apart

}  // namespace

// The bytes dedup_key hashes, 80 of them: XXH3 hashes 65 to 96 bytes in three mixing rounds, inline (129 to 240, the
// 144 bytes of the black board and the seven type boards, took five, two more avalanches and a call). The board in eight words
// with no loss, as chess keys do: the black pieces, then three bit planes of a piece type code never 0 on an
// occupied point (the type + 1: general 1 ... soldier 7), each 128-bit board as its low and high halves. Then a word
// of state, lowest byte first: the fullmove number (4 bytes), the halfmove clock (2), the side to move, the level;
// and the variant tag (4 bytes, then 4 zero bytes), so that no Xiangqi material equals a chess one.
KeyMaterial key_material(const Position& pos, KeyLevel level) {
  KeyMaterial m;
  const Bitboard* t = pos.by_type;
  const Bitboard planes[4] = {
      pos.by_color[kBlack],
      t[kGeneral] | t[kElephant] | t[kChariot] | t[kSoldier],  // codes 1, 3, 5, 7: bit 0
      t[kAdvisor] | t[kElephant] | t[kCannon] | t[kSoldier],   // codes 2, 3, 6, 7: bit 1
      t[kHorse] | t[kChariot] | t[kCannon] | t[kSoldier],      // codes 4, 5, 6, 7: bit 2
  };
  for (int i = 0; i < 4; ++i) {
    m.words[2 * i] = low64(planes[i]);
    m.words[2 * i + 1] = high64(planes[i]);
  }
  const bool with_side = level != KeyLevel::kPlacement;
  const bool with_clocks = level == KeyLevel::kFull;
  m.words[8] = (with_clocks ? std::uint64_t{pos.fullmove_number} | std::uint64_t{pos.halfmove_clock} << 32 : 0) |
               (with_side ? std::uint64_t{pos.side_to_move} << 48 : 0) |
               std::uint64_t{static_cast<std::uint8_t>(level)} << 56;
  m.words[9] = kXiangqiTag;
  return m;
}

Key128 dedup_key(const Position& pos, KeyLevel level) {
  const KeyMaterial m = key_material(pos, level);
  XXH128_hash_t h = XXH3_128bits(&m, sizeof m);
  return Key128{h.low64, h.high64};
}

}  // namespace fenmill::xiangqi
