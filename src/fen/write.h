// Position -> FEN / EPD text. Writes into a caller's buffer: no allocation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/position.h"

namespace fenmill {

enum class CastlingNotation : std::uint8_t {
  kXFen,      // KQkq, with a file letter only where K/Q would be ambiguous (the default)
  kShredder,  // file letters (HAha) for every Chess960 right; standard positions still KQkq
};

// Every writer below needs `out` to hold kMaxFenLength bytes: the fast path may store a few scratch bytes past
// the length it returns (never past kMaxFenLength).
constexpr std::size_t kMaxFenLength = 128;  // enough for any FEN / EPD position this writer emits

// `placement`, when not empty, is pos's placement as text and is copied instead of rebuilt from the bitboards:
// a placement the parser accepted is already canonical (ranks of 8, no "44"), so the parser's
// ParseResult::placement_length names text that is safe to pass here (the bulk pipeline's cheapest win).

// 6-field FEN. Returns the number of bytes written (no terminator).
std::size_t write_fen(const Position& pos, char* out, CastlingNotation notation = CastlingNotation::kXFen,
                      std::string_view placement = {});
// 4-field EPD, followed by " hmvc N; fmvn N;" unless the clocks are the defaults 0 and 1.
std::size_t write_epd(const Position& pos, char* out, CastlingNotation notation = CastlingNotation::kXFen,
                      std::string_view placement = {});
// " hmvc N; fmvn N;" unless the clocks are the defaults 0 and 1: how EPD (chess or Xiangqi) carries clocks.
std::size_t write_epd_clocks(std::uint32_t halfmove, std::uint32_t fullmove, char* out);
// The four position fields only (placement, side, castling, ep).
std::size_t write_position_fields(const Position& pos, char* out, CastlingNotation notation,
                                  std::string_view placement = {});

std::string to_fen(const Position& pos, CastlingNotation notation = CastlingNotation::kXFen);

// Writes an unsigned decimal; returns bytes written.
std::size_t write_uint(std::uint32_t value, char* out);

// Copies text of at most kMaxFenLength bytes (a placement, or a whole FEN the parser found canonical:
// NormalizeResult::canonical) in 16-byte pieces, the last ones overlapping: a few vector moves inline instead of
// a libc call, never reading outside the text. Returns its size. Straight-line code for each length class rather
// than a loop of 16-byte steps: no counter and no branch per step (~6 instructions a FEN record less).
inline std::size_t copy_fen_text(std::string_view text, char* out) {
  const char* src = text.data();
  const std::size_t n = text.size();
  auto copy16 = [&](std::size_t at) { std::memcpy(out + at, src + at, 16); };
  if (n < 16) {
    std::memcpy(out, src, n);
  } else if (n <= 32) {
    copy16(0);
    copy16(n - 16);
  } else if (n <= 64) {
    copy16(0);
    copy16(16);
    copy16(n - 32);
    copy16(n - 16);
  } else if (n <= 128) {
    copy16(0);
    copy16(16);
    copy16(32);
    copy16(48);
    copy16(n - 64);
    copy16(n - 48);
    copy16(n - 32);
    copy16(n - 16);
  } else {
    std::memcpy(out, src, n);
  }
  return n;
}

}  // namespace fenmill
