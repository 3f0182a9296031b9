// EPD operations after the four position fields: `opcode operand...;` repeated. Operands may be quoted
// strings, which may contain ';'. Only hmvc (halfmove clock) and fmvn (fullmove number) mean something
// to fenmill; every operation is kept as written for EPD output.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/position.h"
#include "fen/errors.h"

namespace fenmill {

struct EpdClocks {
  bool has_halfmove = false, has_fullmove = false;
  std::uint32_t halfmove = 0, fullmove = 1;
};

// Scans the operations; returns kOk, kBadHalfmove / kBadFullmove / kClockRange for a bad hmvc/fmvn
// operand (with `column`, 0-based offset in `ops`), or kTrailingText for an unterminated quoted string.
ErrorCode scan_epd_operations(std::string_view ops, EpdClocks& clocks, std::uint32_t& column);

}  // namespace fenmill
