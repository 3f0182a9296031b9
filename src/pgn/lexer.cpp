#include "pgn/lexer.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/address_sanitizer.h"
#include "core/utf8.h"

namespace fenmill {
namespace {

// Byte classes, one table lookup per byte in the hot loops.
enum : std::uint8_t {
  kBlank = 1,         // space, tab, CR, VT, FF
  kNewline = 2,
  kSymbol = 4,        // may continue a move token ("Nbxd7+!?", "e8=Q", "e.p.", "0-0-0")
  kSymbolNoDot = 8,   // may continue a token that started with a digit ("12." stops before the dot)
  kLetter = 16,
  kDigit = 32,
  kTagName = 64,      // may appear in a tag name
};

struct ByteClasses {
  std::uint8_t of[256];
  constexpr ByteClasses() : of() {
    for (int c : {' ', '\t', '\r', '\v', '\f'}) of[c] = kBlank;
    of[static_cast<int>('\n')] = kNewline;
    for (int c = 'a'; c <= 'z'; ++c) of[c] = kSymbol | kSymbolNoDot | kLetter | kTagName;
    for (int c = 'A'; c <= 'Z'; ++c) of[c] = kSymbol | kSymbolNoDot | kLetter | kTagName;
    for (int c = '0'; c <= '9'; ++c) of[c] = kSymbol | kSymbolNoDot | kDigit | kTagName;
    for (int c : {'_', '+', '#', '=', ':', '/', '-', '!', '?', '@'}) of[c] = kSymbol | kSymbolNoDot | kTagName;
    of[static_cast<int>('.')] = kSymbol;
  }
};
constexpr ByteClasses kClasses;

inline std::uint8_t class_of(char c) { return kClasses.of[static_cast<unsigned char>(c)]; }

// The '}' that closes a comment whose body starts at p, or nullptr if none comes before end; `newlines` gets the
// number of newlines in [p, the '}') (in [p, end) without one). One pass for both, 16 bytes a step: lichess writes a
// comment ("{ [%clk 0:03:00] }", often with an [%eval]) after every move, so this is most of the movetext's bytes.
// The last, partial step reads 16 bytes when they lie in its first byte's 4 KiB page (the bytes past end masked
// off); under ASan, which would report that read, the tail goes byte by byte.
inline const char* find_comment_close(const char* p, const char* end, std::uint64_t& newlines) {
  std::uint64_t count = 0;
#if defined(__SSE2__)
  const __m128i close = _mm_set1_epi8('}');
  const __m128i newline = _mm_set1_epi8('\n');
  for (; end - p >= 16; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const unsigned closes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, close)));
    const unsigned lines = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline)));
    if (closes) {  // only the newlines before the first '}'
      newlines = count + static_cast<unsigned>(__builtin_popcount(lines & ((closes & -closes) - 1)));
      return p + __builtin_ctz(closes);
    }
    count += static_cast<unsigned>(__builtin_popcount(lines));
  }
#if !FENMILL_ADDRESS_SANITIZER
  if (p < end && (reinterpret_cast<std::uintptr_t>(p) & 4095) <= 4096 - 16) {
    const unsigned in_text = (1u << (end - p)) - 1;
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const unsigned closes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, close))) & in_text;
    unsigned lines = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline))) & in_text;
    if (closes) lines &= (closes & -closes) - 1;
    newlines = count + static_cast<unsigned>(__builtin_popcount(lines));
    return closes ? p + __builtin_ctz(closes) : nullptr;
  }
#endif
#endif
  for (; p < end && *p != '}'; ++p) count += *p == '\n';
  newlines = count;
  return p < end ? p : nullptr;
}

}  // namespace

Lexer::Lexer(std::string_view text, std::uint64_t first_line)
    : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()), line_(first_line) {}

void Lexer::skip_blanks() {
  while (p_ < end_) {
    std::uint8_t cls = class_of(*p_);
    if (!(cls & (kBlank | kNewline))) {
      // A UTF-8 byte-order mark is blank too: files that each start with one and are joined by `cat` have
      // one at the start of every game but the first.
      if (*p_ != '\xEF' || end_ - p_ < 3 || std::memcmp(p_, "\xEF\xBB\xBF", 3) != 0) return;
      p_ += 3;
      continue;
    }
    line_ += cls >> 1;  // kNewline == 2
    ++p_;
  }
}

Token Lexer::to_end_of_line(TokenKind kind) {
  const char* start = p_;
  const void* nl = std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_));
  p_ = nl ? static_cast<const char*>(nl) : end_;
  std::string_view text(start, static_cast<std::size_t>(p_ - start));
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return {kind, text, line_};
}

// Inlined into next() (as is number_or_result): a call per SAN move or move number cost ~14 instructions a position.
__attribute__((always_inline)) inline Token Lexer::symbol(const char* start) {
  const char* q = start + 1;
  while (q < end_ && (class_of(*q) & kSymbol)) ++q;
  p_ = q;
  std::string_view text(start, static_cast<std::size_t>(q - start));
  return {text == "e.p." ? TokenKind::kAnnotation : TokenKind::kMove, text, line_};
}

__attribute__((always_inline)) inline Token Lexer::number_or_result(const char* start) {
  const char* q = start;
  while (q < end_ && (class_of(*q) & kDigit)) ++q;
  if (q < end_ && *q == '.') {  // "12." or "12..." (the move may follow without a space)
    while (q < end_ && *q == '.') ++q;
    p_ = q;
    return {TokenKind::kMoveNumber, std::string_view(start, static_cast<std::size_t>(q - start)), line_};
  }
  const char* digits_end = q;
  while (q < end_ && (class_of(*q) & kSymbolNoDot)) ++q;
  p_ = q;
  std::string_view text(start, static_cast<std::size_t>(q - start));
  if (q == digits_end && text != "0000") return {TokenKind::kMoveNumber, text, line_};  // "0000": UCI null move
  if (is_pgn_result(text)) return {TokenKind::kResult, text, line_};
  return {TokenKind::kMove, text, line_};  // "0-0", "0-0-0+", or junk the move parser will name
}

Token Lexer::next() {
  skip_blanks();
  if (p_ == end_) return {TokenKind::kEnd, {}, line_};
  const char* start = p_;
  char c = *p_;
  std::uint8_t cls = class_of(c);
  if (cls & kLetter) return symbol(start);
  if (cls & kDigit) return number_or_result(start);
  switch (c) {
    case '{': {
      std::uint64_t newlines = 0;
      const char* close = find_comment_close(p_ + 1, end_, newlines);
      std::uint64_t line = line_;
      p_ = close ? close + 1 : end_;
      line_ += newlines;
      std::string_view text(start, static_cast<std::size_t>(p_ - start));
      return {close ? TokenKind::kComment : TokenKind::kUnterminatedComment, text, line};
    }
    case ';':
      return to_end_of_line(TokenKind::kComment);
    case '%': {
      // At a line's start, or after a byte-order mark there: a file that opens with a '%' line and a BOM,
      // joined to others by `cat`.
      const char* line_start = p_;
      if (p_ - begin_ >= 3 && std::memcmp(p_ - 3, "\xEF\xBB\xBF", 3) == 0) line_start = p_ - 3;
      if (line_start == begin_ || line_start[-1] == '\n') return to_end_of_line(TokenKind::kEscape);
      break;
    }
    case '(':
      ++p_;
      return {TokenKind::kVariationStart, std::string_view(start, 1), line_};
    case ')':
      ++p_;
      return {TokenKind::kVariationEnd, std::string_view(start, 1), line_};
    case '*':
      ++p_;
      return {TokenKind::kResult, std::string_view(start, 1), line_};
    case '[':
      return {TokenKind::kTagStart, std::string_view(start, 1), line_};
    case '$': {
      const char* q = p_ + 1;
      while (q < end_ && (class_of(*q) & kDigit)) ++q;
      if (q == p_ + 1) break;
      p_ = q;
      return {TokenKind::kNag, std::string_view(start, static_cast<std::size_t>(q - start)), line_};
    }
    case '-':  // "--", the null move
      return symbol(start);
    case '@':  // "@@@@", the null move in some programs' output
      if (end_ - p_ >= 4 && std::string_view(p_, 4) == "@@@@") {
        p_ += 4;
        return {TokenKind::kMove, std::string_view(start, 4), line_};
      }
      break;
    case '!':
    case '?':
    case '.': {  // a detached assessment, or the stray dots of "1. ... e5"
      const char* q = p_ + 1;
      while (q < end_ && (*q == '!' || *q == '?' || *q == '.')) ++q;
      p_ = q;
      return {TokenKind::kAnnotation, std::string_view(start, static_cast<std::size_t>(q - start)), line_};
    }
    default:
      break;
  }
  // The whole character when it is well-formed UTF-8 ("±", not its first byte), else the one byte.
  const std::size_t width = std::max<std::size_t>(1, utf8_sequence_length(std::string_view(p_, static_cast<std::size_t>(end_ - p_)), 0));
  p_ += width;
  return {TokenKind::kBadChar, std::string_view(start, width), line_};
}

bool Lexer::read_tag(TagPair& tag) {
  const char* q = p_ + 1;  // past '['
  auto skip_spaces = [&] {
    while (q < end_ && (*q == ' ' || *q == '\t')) ++q;
  };
  auto fail = [&] {
    const char* stop = q;
    while (stop < end_ && *stop != '\n' && *stop != ']') ++stop;
    p_ = stop < end_ && *stop == ']' ? stop + 1 : stop;
    return false;
  };
  skip_spaces();
  const char* name = q;
  while (q < end_ && (class_of(*q) & kTagName)) ++q;
  if (q == name) return fail();
  tag.name = std::string_view(name, static_cast<std::size_t>(q - name));
  skip_spaces();
  if (q == end_ || *q != '"') return fail();
  const char* value = ++q;
  for (; q < end_ && *q != '"'; ++q) {
    if (*q == '\n') return fail();
    if (*q == '\\' && q + 1 < end_ && q[1] != '\n') ++q;
  }
  if (q == end_) return fail();
  tag.value = std::string_view(value, static_cast<std::size_t>(q - value));
  ++q;
  skip_spaces();
  if (q < end_ && *q == ']') {
    p_ = q + 1;
    return true;
  }
  // Unescaped quotes inside the value (`[Event "The "Big" Open"]`): the value runs to the last
  // quote before the last ']' of the line.
  const char* line_end = q;
  while (line_end < end_ && *line_end != '\n') ++line_end;
  const char* close = line_end;
  while (close > q && close[-1] != ']') --close;
  if (close == q) return fail();
  const char* quote = close - 1;
  while (quote > q && *quote != '"') --quote;
  const char* after = quote + 1;
  while (after < close - 1 && (*after == ' ' || *after == '\t')) ++after;
  if (*quote != '"' || after != close - 1) return fail();
  tag.value = std::string_view(value, static_cast<std::size_t>(quote - value));
  p_ = close;
  return true;
}

std::string_view Lexer::peek_tag_name() const {
  const char* q = p_ + 1;
  while (q < end_ && (*q == ' ' || *q == '\t')) ++q;
  const char* name = q;
  while (q < end_ && (class_of(*q) & kTagName)) ++q;
  return std::string_view(name, static_cast<std::size_t>(q - name));
}

std::size_t unescape_tag_value(std::string_view value, char* out) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size() && (value[i + 1] == '"' || value[i + 1] == '\\')) ++i;
    out[n++] = value[i];
  }
  return n;
}

}  // namespace fenmill
