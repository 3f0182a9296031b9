#include "fen/epd_operations.h"

namespace fenmill {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\0'; }

// Parses the single unsigned operand of hmvc/fmvn; false if it is not exactly one number.
bool parse_operand(std::string_view operand, std::uint64_t& value) {
  while (!operand.empty() && is_blank(operand.front())) operand.remove_prefix(1);
  while (!operand.empty() && is_blank(operand.back())) operand.remove_suffix(1);
  if (operand.empty()) return false;
  value = 0;
  for (char c : operand) {
    if (c < '0' || c > '9') return false;
    if (value < (1ull << 32)) value = value * 10 + static_cast<unsigned>(c - '0');
  }
  return true;
}

}  // namespace

ErrorCode scan_epd_operations(std::string_view ops, EpdClocks& clocks, std::uint32_t& column) {
  std::size_t i = 0, n = ops.size();
  while (i < n) {
    while (i < n && (is_blank(ops[i]) || ops[i] == ';')) ++i;
    if (i >= n) break;
    std::size_t op_start = i;
    while (i < n && !is_blank(ops[i]) && ops[i] != ';') ++i;
    std::string_view opcode = ops.substr(op_start, i - op_start);
    std::size_t operand_start = i;
    bool quoted = false;
    std::size_t quote_at = 0;
    for (; i < n && (quoted || ops[i] != ';'); ++i) {
      if (ops[i] == '"') {
        quoted = !quoted;
        quote_at = i;
      }
    }
    if (quoted) {
      column = static_cast<std::uint32_t>(quote_at);
      return ErrorCode::kTrailingText;
    }
    std::string_view operand = ops.substr(operand_start, i - operand_start);
    bool half = opcode == "hmvc", full = opcode == "fmvn";
    if (!half && !full) continue;
    std::uint64_t value;
    column = static_cast<std::uint32_t>(operand_start);
    if (!parse_operand(operand, value)) return half ? ErrorCode::kBadHalfmove : ErrorCode::kBadFullmove;
    if (half) {
      if (value > 65535) return ErrorCode::kClockRange;
      clocks.has_halfmove = true;
      clocks.halfmove = static_cast<std::uint32_t>(value);
    } else {
      if (value == 0) return ErrorCode::kBadFullmove;
      if (value > 1000000) return ErrorCode::kClockRange;
      clocks.has_fullmove = true;
      clocks.fullmove = static_cast<std::uint32_t>(value);
    }
  }
  return ErrorCode::kOk;
}

}  // namespace fenmill
