#include "pgn/line_scan.h"

#include <algorithm>
#include <array>

#include "pgn/lexer.h"

namespace fenmill {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

bool PgnLineScan::ends_with_result(std::string_view tail, bool whole) {
  std::size_t token = tail.size();
  for (std::string_view result : kPgnResults)  // the longest: "1/2-1/2" also ends with "1/2"
    if (tail.ends_with(result)) token = std::min(token, tail.size() - result.size());
  if (token == tail.size()) return false;
  if (token == 0) return whole;  // else the byte before the result is not in tail
  const char before = tail[token - 1];
  return is_blank(before) || before == '}' || before == ')';  // not "e41-0"
}

void PgnLineScan::start() {
  started_ = false;
  bom_ = 0;
  blank_ = true;
  marked_ = line_in_comment_ = longer_ = content_ = escaped_ = escape_line_ = movetext_ = false;
  tail_size_ = pending_blanks_ = 0;
}

// A line's bytes are looked at one by one only for the braces, ';' and '[' (a table lookup each); its end, for a
// result, only once per piece of the line.
void PgnLineScan::scan(std::string_view piece) {
  static const auto special = [] {
    std::array<bool, 256> table{};
    for (unsigned char c : std::string_view("{};[")) table[c] = true;
    return table;
  }();
  std::size_t k = holding_tag_ ? hold_tag_text(piece, 0) : 0;
  // The line's first byte, after a byte-order mark (blank to the reader) if it has one: a '%' there makes the line an
  // escape line, as the lexer reads it (files joined by `cat`, one opening with a BOM and a '%' line).
  for (; !started_ && k < piece.size(); ++k) {
    if (bom_ < kBom.size() && piece[k] == kBom[bom_]) {
      ++bom_;
      continue;
    }
    started_ = true;
    const char first = bom_ == 0 || bom_ == kBom.size() ? piece[k] : 0;  // 0 after part of a byte-order mark
    escaped_ = escape_line_ = first == '%' && !in_comment_;  // inside a {} comment, a '%' is comment text
    content_ = bom_ % kBom.size() != 0 && !in_comment_;  // part of a BOM is no blank
    break;
  }
  const std::size_t end = piece.size();
  for (; k < end; ++k) {
    const std::size_t run = k;
    while (k < end && !special[static_cast<unsigned char>(piece[k])]) ++k;
    if (!content_ && !in_comment_ && !escaped_)
      for (std::size_t j = run; j < k && !content_; ++j) content_ = movetext_ = !is_blank(piece[j]);
    if (k == end) break;
    const char c = piece[k];
    if (escaped_) {
      // The rest of a ';' or '%' line is comment text to the reader, braces too: a '{' there (":-{") opens no
      // comment, else every game after it up to a '}' (to the end of the input, without one) would be read past.
    } else if (c == '{') {
      in_comment_ = line_in_comment_ = true;
    } else if (c == '}') {
      in_comment_ = line_in_comment_ = false;
    } else {  // ';' or '['
      if (!in_comment_) marked_ = true;  // inside a {} comment (one from a line before too), comment text
      if (!in_comment_ && c == ';') escaped_ = true;
      if (!in_comment_ && c == '[') {  // a tag pair: the rest of its line is read as the reader reads it
        content_ = holding_tag_ = true;
        k = hold_tag_text(piece, k) - 1;
      }
    }
  }
  add_to_tail(piece);
}

// A line of comments alone (`{...}`, `;...`, `%...`) is told apart: between games a comment belongs to no game, so a
// game that ended before it is still ended (find_last_game_end()'s rule; pgn-extract's eco.pgn opens with such a
// comment).
PgnLineScan::Kind PgnLineScan::finish() {
  if (holding_tag_) lex_tag_text();
  if (!started_ && bom_ % kBom.size() != 0 && !in_comment_) content_ = true;
  if (blank_ || !content_) return Kind::kCommentsAlone;
  const bool ends = ends_with_result(std::string_view(tail_, tail_size_), !longer_) && !escape_line_ && !marked_ &&
                    !line_in_comment_;
  return ends ? Kind::kEndsGame : Kind::kOther;
}

// Holds the line's bytes from `from` on, up to kMaxTagText of them (then they are lexed, and the line goes on byte by
// byte); returns where the bytes held end.
std::size_t PgnLineScan::hold_tag_text(std::string_view piece, std::size_t from) {
  const std::size_t take = std::min(piece.size() - from, kMaxTagText - tag_text_.size());
  tag_text_.append(piece.substr(from, take));
  if (tag_text_.size() == kMaxTagText) lex_tag_text();
  return from + take;
}

// Lexes the bytes held from a tag pair to the line's end as the reader does: whether a {} comment is open after them
// (a brace in a tag value opens none). Cut short at kMaxTagText, the rest of the line is comment text after a ';', and
// taken for the tag's text after a tag pair that has not ended.
void PgnLineScan::lex_tag_text() {
  Lexer lexer(tag_text_, 1);
  Token last;
  bool open_tag = false;
  for (Token token = lexer.next(); token.kind != TokenKind::kEnd; token = lexer.next()) {
    TagPair tag;
    if (token.kind == TokenKind::kTagStart) open_tag = !lexer.read_tag(tag) && lexer.offset() == tag_text_.size();
    const TokenKind kind = token.kind;
    movetext_ = movetext_ || (kind != TokenKind::kTagStart && kind != TokenKind::kComment &&
                              kind != TokenKind::kEscape && kind != TokenKind::kUnterminatedComment);
    last = token;
  }
  in_comment_ = line_in_comment_ = last.kind == TokenKind::kUnterminatedComment;
  escaped_ = (last.kind == TokenKind::kComment && last.text.front() == ';') || (last.kind == TokenKind::kTagStart && open_tag);
  tag_text_.clear();
  holding_tag_ = false;
}

// Adds a piece of the current line to tail_: its last 8 bytes up to its last non-blank one, the blanks between
// pieces counted.
void PgnLineScan::add_to_tail(std::string_view piece) {
  std::size_t last = piece.size();
  while (last > 0 && is_blank(piece[last - 1])) --last;
  if (last == 0) {
    pending_blanks_ = std::min(pending_blanks_ + piece.size(), sizeof tail_);
    return;
  }
  blank_ = false;
  char joined[3 * sizeof tail_];
  std::size_t size = 0;
  for (std::size_t k = 0; k < tail_size_; ++k) joined[size++] = tail_[k];
  for (std::size_t k = 0; k < pending_blanks_; ++k) joined[size++] = ' ';
  const std::size_t from = last > sizeof tail_ ? last - sizeof tail_ : 0;
  for (std::size_t k = from; k < last; ++k) joined[size++] = piece[k];
  longer_ = longer_ || from > 0 || size > sizeof tail_;
  const std::size_t keep = std::min(size, sizeof tail_);
  for (std::size_t k = 0; k < keep; ++k) tail_[k] = joined[size - keep + k];
  tail_size_ = keep;
  pending_blanks_ = std::min(piece.size() - last, sizeof tail_);
}

}  // namespace fenmill
