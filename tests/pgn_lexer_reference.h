// The PGN lexer as it was before session 18 made its comment scan take 16 bytes a step (pgn/lexer.cpp): kept,
// unchanged, as the reference that pgn_lexer_diff_test.cpp holds the new one to: the same tokens (kind, text, line),
// tag pairs and offsets on every input.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/utf8.h"
#include "pgn/lexer.h"

namespace fenmill::reference {

namespace lexer_detail {

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
inline constexpr ByteClasses kClasses;

inline std::uint8_t class_of(char c) { return kClasses.of[static_cast<unsigned char>(c)]; }

}  // namespace lexer_detail


class Lexer {
 public:
  Lexer(std::string_view text, std::uint64_t first_line);
  Token next();
  bool read_tag(TagPair& tag);
  std::string_view peek_tag_name() const;
  std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
  std::uint64_t line() const { return line_; }

 private:
  void skip_blanks();
  Token symbol(const char* start);
  Token number_or_result(const char* start);
  Token to_end_of_line(TokenKind kind);

  const char* begin_;
  const char* p_;
  const char* end_;
  std::uint64_t line_;
};


using namespace lexer_detail;

inline Lexer::Lexer(std::string_view text, std::uint64_t first_line)
    : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()), line_(first_line) {}

inline void Lexer::skip_blanks() {
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

inline Token Lexer::to_end_of_line(TokenKind kind) {
  const char* start = p_;
  const void* nl = std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_));
  p_ = nl ? static_cast<const char*>(nl) : end_;
  std::string_view text(start, static_cast<std::size_t>(p_ - start));
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return {kind, text, line_};
}

inline Token Lexer::symbol(const char* start) {
  const char* q = start + 1;
  while (q < end_ && (class_of(*q) & kSymbol)) ++q;
  p_ = q;
  std::string_view text(start, static_cast<std::size_t>(q - start));
  return {text == "e.p." ? TokenKind::kAnnotation : TokenKind::kMove, text, line_};
}

inline Token Lexer::number_or_result(const char* start) {
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

inline Token Lexer::next() {
  skip_blanks();
  if (p_ == end_) return {TokenKind::kEnd, {}, line_};
  const char* start = p_;
  char c = *p_;
  std::uint8_t cls = class_of(c);
  if (cls & kLetter) return symbol(start);
  if (cls & kDigit) return number_or_result(start);
  switch (c) {
    case '{': {
      const void* close = std::memchr(p_ + 1, '}', static_cast<std::size_t>(end_ - p_ - 1));
      std::uint64_t line = line_;
      p_ = close ? static_cast<const char*>(close) + 1 : end_;
      line_ += static_cast<std::uint64_t>(std::count(start, p_, '\n'));
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

inline bool Lexer::read_tag(TagPair& tag) {
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

inline std::string_view Lexer::peek_tag_name() const {
  const char* q = p_ + 1;
  while (q < end_ && (*q == ' ' || *q == '\t')) ++q;
  const char* name = q;
  while (q < end_ && (class_of(*q) & kTagName)) ++q;
  return std::string_view(name, static_cast<std::size_t>(q - name));
}

}  // namespace fenmill::reference
