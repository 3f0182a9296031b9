#include "fen/epd_operations.h"

#include <array>

#include "core/find_any_byte.h"
#include "fen/text_cursor.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fenmill {
namespace {

// Operations are separated by blanks; the CR or NUL that some collections leave at a line's end counts as one
// too (is_trailing_junk).

// One operation: [begin, end) is its text, up to and including its ';' when it has one.
struct Operation {
  std::string_view opcode, operand;
  std::size_t begin = 0, end = 0;
  bool open_quote = false;  // a quoted string runs to the end of the operations
  std::size_t quote_at = 0;  // where that string starts
};

// Byte classes, one table lookup a byte: what separates operations (line-end junk and ';'), and what ends an opcode.
enum : std::uint8_t { kSeparator = 1, kOpcodeEnd = 2 };
constexpr std::array<std::uint8_t, 256> kClass = [] {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c)
    if (is_trailing_junk(static_cast<char>(c)) || c == ';') t[static_cast<std::size_t>(c)] |= kSeparator | kOpcodeEnd;
  t[static_cast<unsigned char>('"')] |= kOpcodeEnd;
  return t;
}();
inline bool is(char c, std::uint8_t classes) { return kClass[static_cast<unsigned char>(c)] & classes; }

// The first byte from `i` on where an operand's scan stops: ';' or '"' outside a string, '"' or '\\' inside one
// (operands such as `"lichess.1234"` are most of an EPD line's bytes).
std::size_t find_stop(std::string_view ops, std::size_t i, bool inside) {
  return find_any_byte(ops, i, std::array<char, 2>{'"', inside ? '\\' : ';'});
}

// Reads the operation at or after `i`, moving `i` past it; false when only blanks and ';' are left.
bool next_operation(std::string_view ops, std::size_t& i, Operation& op) {
  const std::size_t n = ops.size();
  while (i < n && is(ops[i], kSeparator)) ++i;
  if (i >= n) return false;
  op = Operation{};
  op.begin = i;
  // A quote ends the opcode too: `c0"a;b";` is c0 with a string operand, whose ';' ends nothing.
  while (i < n && !is(ops[i], kOpcodeEnd)) ++i;
  op.opcode = ops.substr(op.begin, i - op.begin);
  const std::size_t operand_start = i;
  for (;;) {
    i = find_stop(ops, i, op.open_quote);
    if (i >= n || ops[i] == ';') break;
    if (ops[i] == '\\') {
      i += i + 1 < n ? 2 : 1;  // \" or \\ inside a string
    } else {
      op.open_quote = !op.open_quote;
      op.quote_at = i++;
    }
  }
  op.operand = ops.substr(operand_start, i - operand_start);
  if (i < n) ++i;  // the ';'
  op.end = i;
  return true;
}

bool is_clock(const Operation& op) { return op.opcode == "hmvc" || op.opcode == "fmvn"; }

// The quotes, semicolons and spaces among 16 bytes, a bit a byte, and the bytes that plainly_as_written leaves to
// the full scan: those below 0x20 (tabs, CR, LF, NUL: blanks and line ends other than ' ') and '\\' (escapes).
struct Block {
  std::uint32_t quote = 0, semicolon = 0, space = 0, other = 0;
};

// The block at p, of which `left` bytes belong to the text (the bits past it are not masked off). A last, partial
// block is one load when its 16 bytes lie in its first byte's 4 KiB page, as in find_any_byte; under ASan, which
// would report that read, and without SSE2 it goes byte by byte.
Block block_at(const char* p, std::size_t left) {
#if defined(__SSE2__)
  if (left >= 16 || (!FENMILL_ADDRESS_SANITIZER && (reinterpret_cast<std::uintptr_t>(p) & 4095) <= 4096 - 16)) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const auto bits = [](__m128i m) { return static_cast<std::uint32_t>(_mm_movemask_epi8(m)); };
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);  // v <= 0x1f
    return {bits(_mm_cmpeq_epi8(v, _mm_set1_epi8('"'))), bits(_mm_cmpeq_epi8(v, _mm_set1_epi8(';'))),
            bits(_mm_cmpeq_epi8(v, _mm_set1_epi8(' '))), bits(_mm_or_si128(control, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))))};
  }
#endif
  Block b;
  for (std::size_t k = 0; k < left && k < 16; ++k) {
    const unsigned char c = static_cast<unsigned char>(p[k]);
    b.quote |= std::uint32_t{c == '"'} << k;
    b.semicolon |= std::uint32_t{c == ';'} << k;
    b.space |= std::uint32_t{c == ' '} << k;
    b.other |= std::uint32_t{c < 0x20 || c == '\\'} << k;
  }
  return b;
}

// Bit i: the parity of the set bits at or below i (a byte inside a quoted string, when x marks the quotes).
std::uint64_t prefix_xor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// Whether scan_epd_operations finds `ops` in the writer's form (EpdClocks::as_written) and sets nothing else: most
// EPD records (`id "lichess.1"; c0 "fullmove 1";`). Their first `trimmed` bytes (the operations without their
// line-end junk), 64 a step, hold neither control bytes nor '\\', so quotes pair without escapes and the only blank
// is ' ': then an operation ends at a ';' outside quotes (the quote bits' prefix parity), and the writer's form is
// each such ';' followed by one space and the next operation's opcode (or by the end), every opcode starting with a
// letter, none with 'h' or 'f' (hmvc, fmvn), and no quote left open. One pass over the bytes instead of three scans an
// operation; anything else (false) is left to the full scan, which says the same of the records this accepts.
bool plainly_as_written(std::string_view ops, std::size_t trimmed) {
  if (trimmed == 0) return false;
  std::uint64_t inside_before = 0;                      // all ones when a word starts inside a quoted string
  std::uint64_t space_due = 0, opcode_due = 1;          // what the last word's ';'s ask of this word's first bytes
  for (std::size_t base = 0; base < trimmed; base += 64) {
    const std::size_t left = trimmed - base;
    std::uint64_t quote = 0, semicolon = 0, space = 0, other = 0;
    for (std::size_t k = 0; k < 64 && k < left; k += 16) {
      const Block b = block_at(ops.data() + base + k, left - k);
      quote |= std::uint64_t{b.quote} << k;
      semicolon |= std::uint64_t{b.semicolon} << k;
      space |= std::uint64_t{b.space} << k;
      other |= std::uint64_t{b.other} << k;
    }
    const std::uint64_t in_text = left >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << left) - 1;
    if (other & in_text) return false;
    quote &= in_text, semicolon &= in_text, space &= in_text;
    const std::uint64_t inside = prefix_xor(quote) ^ inside_before;
    inside_before = static_cast<std::uint64_t>(static_cast<std::int64_t>(inside) >> 63);
    std::uint64_t ends = semicolon & ~inside;  // the ';'s that end operations
    if (left <= 64) ends &= ~(std::uint64_t{1} << (left - 1));  // the last one asks nothing of what follows
    if (((ends << 1) | space_due) & ~space) return false;
    for (std::uint64_t opcodes = (ends << 2) | opcode_due; opcodes != 0; opcodes &= opcodes - 1) {
      const unsigned c = static_cast<unsigned char>(ops[base + static_cast<std::size_t>(__builtin_ctzll(opcodes))]) | 0x20u;
      if (c - 'a' > 'z' - 'a' || c == 'h' || c == 'f') return false;
    }
    space_due = ends >> 63;
    opcode_due = ends >> 62;
  }
  return inside_before == 0;  // no quote left open
}

// Parses the single unsigned operand of hmvc/fmvn; false if it is not exactly one number.
bool parse_operand(std::string_view operand, std::uint64_t& value) {
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

}  // namespace

ErrorCode scan_epd_operations(std::string_view ops, EpdClocks& clocks, std::uint32_t& column, bool repair) {
  if (plainly_as_written(ops, without_trailing_junk(ops).size())) {
    clocks.as_written = true;
    return ErrorCode::kOk;
  }
  // Lines end at LF: a CR with text after it is a file whose lines end in CR alone, read as one line, and that text
  // is the next record, not operations (a placement starting with a letter read as an opcode: every record after the
  // first was kept, unseen, as an operation of the first). Rejected, the pipeline's CR hint says why.
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
    // An opcode starts with a letter (PGN standard, 16.2.3). One that does not is no operation, and written
    // back after the four fields it could read as clocks ("w - -;5 3").
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
    column = static_cast<std::uint32_t>(at);  // the operand's first byte
    if (!parse_operand(op.operand, value)) return half ? ErrorCode::kBadHalfmove : ErrorCode::kBadFullmove;
    if (half) {
      if (value > 65535) return ErrorCode::kClockRange;
      clocks.has_halfmove = true;
      clocks.halfmove = static_cast<std::uint32_t>(value);
    } else {
      if (value == 0 && !repair) return ErrorCode::kBadFullmove;
      if (value > 1000000) return ErrorCode::kClockRange;
      clocks.has_fullmove = true;
      clocks.repaired = value == 0;  // the last fmvn counts
      clocks.fullmove = value == 0 ? 1 : static_cast<std::uint32_t>(value);
    }
  }
  // After the last operation only junk: a ';' there would be skipped by the writer, not copied.
  clocks.as_written = as_written && operations > 0 && without_trailing_junk(ops).size() <= previous_end;
  return ErrorCode::kOk;
}

void append_epd_operations_but_clocks(std::string& out, std::string_view ops) {
  std::size_t i = 0;
  Operation op;
  while (next_operation(ops, i, op)) {
    if (is_clock(op)) continue;
    (out += ' ') += without_trailing_junk(ops.substr(op.begin, op.end - op.begin));
  }
}

bool has_epd_operations_but_clocks(std::string_view ops) {
  std::size_t i = 0;
  Operation op;
  while (next_operation(ops, i, op))
    if (!is_clock(op)) return true;
  return false;
}

}  // namespace fenmill
