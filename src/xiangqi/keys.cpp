#include "xiangqi/keys.h"

#include <type_traits>

// Inlined so that the fixed-length hash compiles to straight-line code (no call, no length dispatch).
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace fenmill::xiangqi {
namespace {

constexpr std::uint32_t kXiangqiTag = 0x5158;  // "XQ": keeps Xiangqi and chess key spaces apart

// The bytes dedup_key hashes. Every byte is a field: no padding, so no indeterminate bytes get hashed.
// Bitboards are split into 64-bit halves so the struct needs no 16-byte alignment (and no padding).
struct KeyMaterial {
  std::uint64_t black[2];                    // red = union of the type boards minus black
  std::uint64_t by_type[kPieceTypeCount][2];
  std::uint32_t fullmove_number;
  std::uint16_t halfmove_clock;
  std::uint8_t side_to_move;
  std::uint8_t level;
  std::uint32_t variant;
  std::uint32_t reserved;
};
static_assert(sizeof(KeyMaterial) == 144);
static_assert(std::has_unique_object_representations_v<KeyMaterial>);

}  // namespace

Key128 dedup_key(const Position& pos, KeyLevel level) {
  KeyMaterial m;
  m.black[0] = low64(pos.by_color[kBlack]);
  m.black[1] = high64(pos.by_color[kBlack]);
  for (int t = 0; t < kPieceTypeCount; ++t) {
    m.by_type[t][0] = low64(pos.by_type[t]);
    m.by_type[t][1] = high64(pos.by_type[t]);
  }
  bool with_side = level != KeyLevel::kPlacement;
  bool with_clocks = level == KeyLevel::kFull;
  m.fullmove_number = with_clocks ? pos.fullmove_number : 0;
  m.halfmove_clock = with_clocks ? pos.halfmove_clock : 0;
  m.side_to_move = with_side ? pos.side_to_move : 0;
  m.level = static_cast<std::uint8_t>(level);
  m.variant = kXiangqiTag;
  m.reserved = 0;
  XXH128_hash_t h = XXH3_128bits(&m, sizeof m);
  return Key128{h.low64, h.high64};
}

}  // namespace fenmill::xiangqi
