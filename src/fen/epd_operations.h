// EPD operations after the four position fields: `opcode operand...;` repeated. Operands may be quoted
// strings, which may contain ';'. Only hmvc (halfmove clock) and fmvn (fullmove number) mean something
// to fenmill: they set the clocks, and EPD output writes the position's clocks in their place; every
// other operation is kept as written.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/position.h"
#include "fen/errors.h"

namespace fenmill {

struct EpdClocks {
  bool has_halfmove = false, has_fullmove = false;
  bool repaired = false;  // fmvn 0 became 1 (repair mode)
  std::uint32_t halfmove = 0, fullmove = 1;
};

// Scans the operations; returns kOk, kBadHalfmove / kBadFullmove / kClockRange for a bad hmvc/fmvn
// operand (with `column`, 0-based offset in `ops`), or kTrailingText for an unterminated quoted string or an
// opcode that does not start with a letter.
// With `repair`, fmvn 0 is read as 1, as a fullmove field of 0 is.
ErrorCode scan_epd_operations(std::string_view ops, EpdClocks& clocks, std::uint32_t& column, bool repair = false);

// Appends " <operation>" for each operation of `ops` (as scan_epd_operations accepted it) but hmvc and fmvn,
// as written: the caller writes the clocks.
void append_epd_operations_but_clocks(std::string& out, std::string_view ops);

}  // namespace fenmill
