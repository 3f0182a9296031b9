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
#include "fen/text_cursor.h"

namespace fenmill {

// The clocks a record's operations set: the last hmvc and the last fmvn.
struct EpdClocks {
  bool has_halfmove = false, has_fullmove = false;
  bool repaired = false;  // the fullmove number is an fmvn 0 read as 1 (repair mode)
  // No hmvc or fmvn, one blank between operations, nothing but line-end junk after the last: what
  // append_epd_operations_but_clocks writes is " " + without_trailing_junk(ops), a copy (most EPD files).
  bool as_written = false;
  std::uint32_t halfmove = 0, fullmove = 1;
};

// Scans the operations; returns kOk, kBadHalfmove / kBadFullmove / kClockRange for a bad hmvc/fmvn
// operand (with `column`, the 0-based offset in `ops` of the operand), or kTrailingText for an unterminated
// quoted string, an opcode that does not start with a letter, or text after a CR (the next line of a file whose lines
// end in CR alone). Quoted operands escape '"' and '\\' with '\\',
// as PGN strings do; a quote ends the opcode (`c0"a;b";`). With `repair`, fmvn 0 is read as 1, as a fullmove
// field of 0 is.
ErrorCode scan_epd_operations(std::string_view ops, EpdClocks& clocks, std::uint32_t& column, bool repair = false);

// What chess and Xiangqi normalizing do with a record's operations, text[ops_begin, ...): scan them and set
// the clocks they give. `clock_repaired` says on return whether the final fullmove number came from a repaired
// 0 (an fmvn overrides the fullmove field's repair). Errors as scan_epd_operations, with `column` the 1-based
// column of the bad operand in `text`.
// `as_written`, when given, says whether the operations are EpdClocks::as_written.
template <typename Pos>
ErrorCode apply_epd_clocks(std::string_view text, std::size_t ops_begin, Pos& pos, bool repair, bool& clock_repaired,
                           std::uint32_t& column, bool* as_written = nullptr) {
  EpdClocks clocks;
  std::uint32_t offset = 0;
  if (ErrorCode e = scan_epd_operations(text.substr(ops_begin), clocks, offset, repair); e != ErrorCode::kOk) {
    column = static_cast<std::uint32_t>(ops_begin) + offset + 1;
    return e;
  }
  if (as_written) *as_written = clocks.as_written;
  if (clocks.has_halfmove) pos.halfmove_clock = static_cast<std::uint16_t>(clocks.halfmove);
  if (clocks.has_fullmove) {
    pos.fullmove_number = clocks.fullmove;
    clock_repaired = clocks.repaired;
  }
  return ErrorCode::kOk;
}

// Appends " <operation>" for each operation of `ops` (as scan_epd_operations accepted it) but hmvc and fmvn,
// as written: the caller writes the clocks.
void append_epd_operations_but_clocks(std::string& out, std::string_view ops);
// The same, given what scan_epd_operations said of them: a plain copy when they are as written.
inline void append_epd_operations_but_clocks(std::string& out, std::string_view ops, bool as_written) {
  if (!as_written) return append_epd_operations_but_clocks(out, ops);
  out += ' ';
  out += without_trailing_junk(ops);
}
// Whether `ops` holds an operation other than hmvc and fmvn: what FEN and binary output cannot keep.
bool has_epd_operations_but_clocks(std::string_view ops);

}  // namespace fenmill
