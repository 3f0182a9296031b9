// The EPD operations scanner as it was before scan_epd_operations took a one-pass fast path for operations in the
// writer's form (fen/epd_operations.cpp, session 18): three scans an operation (blanks, opcode, then the operand a
// quote at a time). Kept, unchanged, as the reference that epd_operations_diff_test.cpp holds the library to: the
// same clocks, errors, columns and written operations on every input.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/find_any_byte.h"
#include "fen/epd_operations.h"
#include "fen/errors.h"
#include "fen/text_cursor.h"

namespace fenmill::reference {

struct Operation {
  std::string_view opcode, operand;
  std::size_t begin = 0, end = 0;
  bool open_quote = false;
  std::size_t quote_at = 0;
};

enum : std::uint8_t { kSeparator = 1, kOpcodeEnd = 2 };
constexpr std::array<std::uint8_t, 256> kClass = [] {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c)
    if (is_trailing_junk(static_cast<char>(c)) || c == ';') t[static_cast<std::size_t>(c)] |= kSeparator | kOpcodeEnd;
  t[static_cast<unsigned char>('"')] |= kOpcodeEnd;
  return t;
}();
inline bool is(char c, std::uint8_t classes) { return kClass[static_cast<unsigned char>(c)] & classes; }

inline std::size_t find_stop(std::string_view ops, std::size_t i, bool inside) {
  return find_any_byte(ops, i, std::array<char, 2>{'"', inside ? '\\' : ';'});
}

inline bool next_operation(std::string_view ops, std::size_t& i, Operation& op) {
  const std::size_t n = ops.size();
  while (i < n && is(ops[i], kSeparator)) ++i;
  if (i >= n) return false;
  op = Operation{};
  op.begin = i;
  while (i < n && !is(ops[i], kOpcodeEnd)) ++i;
  op.opcode = ops.substr(op.begin, i - op.begin);
  const std::size_t operand_start = i;
  for (;;) {
    i = find_stop(ops, i, op.open_quote);
    if (i >= n || ops[i] == ';') break;
    if (ops[i] == '\\') {
      i += i + 1 < n ? 2 : 1;
    } else {
      op.open_quote = !op.open_quote;
      op.quote_at = i++;
    }
  }
  op.operand = ops.substr(operand_start, i - operand_start);
  if (i < n) ++i;
  op.end = i;
  return true;
}

inline bool is_clock(const Operation& op) { return op.opcode == "hmvc" || op.opcode == "fmvn"; }

inline bool parse_operand(std::string_view operand, std::uint64_t& value) {
  while (!operand.empty() && is_trailing_junk(operand.front())) operand.remove_prefix(1);
  while (!operand.empty() && is_trailing_junk(operand.back())) operand.remove_suffix(1);
  if (operand.empty()) return false;
  value = 0;
  for (char c : operand) {
    if (c < '0' || c > '9') return false;
    if (value < (1ull << 32)) value = value * 10 + static_cast<unsigned>(c - '0');
  }
  return true;
}

inline ErrorCode scan_epd_operations(std::string_view ops, EpdClocks& clocks, std::uint32_t& column, bool repair) {
  if (std::size_t cr = inner_cr(ops); cr != std::string_view::npos) {
    while (is_trailing_junk(ops[cr])) ++cr;
    column = static_cast<std::uint32_t>(cr);
    return ErrorCode::kTrailingText;
  }
  std::size_t i = 0;
  Operation op;
  bool as_written = true;
  std::size_t previous_end = 0, operations = 0;
  while (next_operation(ops, i, op)) {
    as_written = as_written && (operations++ == 0 ? op.begin == 0 : op.begin == previous_end + 1 && ops[previous_end] == ' ');
    previous_end = op.end;
    if (op.open_quote) {
      column = static_cast<std::uint32_t>(op.quote_at);
      return ErrorCode::kTrailingText;
    }
    if (const char c = op.opcode.empty() ? '\0' : static_cast<char>(op.opcode.front() | 0x20); c < 'a' || c > 'z') {
      column = static_cast<std::uint32_t>(op.begin);
      return ErrorCode::kTrailingText;
    }
    if (!is_clock(op)) continue;
    as_written = false;
    const bool half = op.opcode == "hmvc";
    std::uint64_t value;
    std::size_t at = static_cast<std::size_t>(op.operand.data() - ops.data());
    while (at < op.end && is_trailing_junk(ops[at])) ++at;
    column = static_cast<std::uint32_t>(at);
    if (!parse_operand(op.operand, value)) return half ? ErrorCode::kBadHalfmove : ErrorCode::kBadFullmove;
    if (half) {
      if (value > 65535) return ErrorCode::kClockRange;
      clocks.has_halfmove = true;
      clocks.halfmove = static_cast<std::uint32_t>(value);
    } else {
      if (value == 0 && !repair) return ErrorCode::kBadFullmove;
      if (value > 1000000) return ErrorCode::kClockRange;
      clocks.has_fullmove = true;
      clocks.repaired = value == 0;
      clocks.fullmove = value == 0 ? 1 : static_cast<std::uint32_t>(value);
    }
  }
  clocks.as_written = as_written && operations > 0 && without_trailing_junk(ops).size() <= previous_end;
  return ErrorCode::kOk;
}

inline void append_epd_operations_but_clocks(std::string& out, std::string_view ops) {
  std::size_t i = 0;
  Operation op;
  while (next_operation(ops, i, op)) {
    if (is_clock(op)) continue;
    (out += ' ') += without_trailing_junk(ops.substr(op.begin, op.end - op.begin));
  }
}

inline bool has_epd_operations_but_clocks(std::string_view ops) {
  std::size_t i = 0;
  Operation op;
  while (next_operation(ops, i, op))
    if (!is_clock(op)) return true;
  return false;
}

}  // namespace fenmill::reference
