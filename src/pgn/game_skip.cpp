#include "pgn/game_skip.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "pgn/lexer.h"

namespace fenmill {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

// The line ended: whether it ends a game, by continues_tag_section()'s rule (pgn/game_reader.cpp). A line of comments
// alone (`{...}`, `;...`, `%...`) changes nothing: between games a comment belongs to no game, so a game that ended
// before it is still ended (find_last_game_end()'s rule; pgn-extract's eco.pgn opens with such a comment).
void PgnGameSkip::end_line() {
  if (line_blank_ || !line_content_) return;
  const std::string_view line(tail_, tail_size_);
  std::size_t token = line.size();
  for (std::string_view result : kPgnResults)
    if (line.ends_with(result)) token = std::min(token, line.size() - result.size());
  bool ends = token < line.size();
  if (ends && token == 0 && line_longer_) ends = false;  // the byte before the result was pushed out of tail_
  if (ends && token > 0 && !is_blank(line[token - 1]) && line[token - 1] != '}' && line[token - 1] != ')') ends = false;
  if (line_first_ == '%' || line_marked_ || line_in_comment_) ends = false;
  previous_ends_game_ = ends;
}

// A line's bytes are looked at one by one only for the braces, ';' and '[' (a table lookup each); its end, for a
// result, only once per piece of the line.
std::size_t PgnGameSkip::scan(std::string_view bytes) {
  static const auto special = [] {
    std::array<bool, 256> table{};
    for (unsigned char c : std::string_view("{};[")) table[c] = true;
    return table;
  }();
  const char* p = bytes.data();
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  while (i < n) {
    if (!line_started_) {
      if (seen_ >= min_bytes_ && p[i] == '[' && !in_comment_ && previous_ends_game_) {
        found_ = true;
        return i;
      }
      line_started_ = true;
      line_first_ = p[i];
      line_blank_ = true;
      line_marked_ = line_in_comment_ = line_longer_ = line_content_ = false;
      line_escaped_ = p[i] == '%' && !in_comment_;  // inside a {} comment, a '%' is comment text
      tail_size_ = pending_blanks_ = 0;
    }
    const void* nl = std::memchr(p + i, '\n', n - i);
    const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - p) : n;
    std::size_t k = holding_tag_ ? hold_tag_text(p, i, end) : i;
    for (; k < end; ++k) {
      const std::size_t run = k;
      while (k < end && !special[static_cast<unsigned char>(p[k])]) ++k;
      if (!line_content_ && !in_comment_ && !line_escaped_)
        for (std::size_t j = run; j < k && !line_content_; ++j) line_content_ = !is_blank(p[j]);
      if (k == end) break;
      const char c = p[k];
      if (line_escaped_) {
        // The rest of a ';' or '%' line is comment text to the reader, braces too: a '{' there (":-{") opens no
        // comment, else every game after it up to a '}' (to the end of the input, without one) would be read past.
      } else if (c == '{') {
        in_comment_ = line_in_comment_ = true;
      } else if (c == '}') {
        in_comment_ = line_in_comment_ = false;
      } else {  // ';' or '['
        if (!line_in_comment_) line_marked_ = true;
        if (!in_comment_ && c == ';') line_escaped_ = true;
        if (!in_comment_ && c == '[') {  // a tag pair: the rest of its line is read as the reader reads it
          line_content_ = holding_tag_ = true;
          k = hold_tag_text(p, k, end) - 1;
        }
      }
    }
    if (nl && holding_tag_) lex_tag_text();
    add_to_tail(std::string_view(p + i, end - i));
    if (newlines_ == 0) first_line_ += end - i;
    seen_ += end - i;
    if (end > i) last_ = p[end - 1];
    i = end;
    if (!nl) break;
    if (newlines_ == 0 && last_ == '\r') --first_line_;
    ++newlines_;
    ++seen_;
    last_ = '\n';
    ++i;
    end_line();
    line_started_ = false;
  }
  return n;
}

// Holds the bytes [from, end) of a line from a tag pair on, up to kMaxTagText of them (then they are lexed, and the
// line goes on byte by byte); returns where the bytes held end.
std::size_t PgnGameSkip::hold_tag_text(const char* bytes, std::size_t from, std::size_t end) {
  const std::size_t take = std::min(end - from, kMaxTagText - tag_text_.size());
  tag_text_.append(bytes + from, take);
  if (tag_text_.size() == kMaxTagText) lex_tag_text();
  return from + take;
}

// Lexes the bytes held from a tag pair to the line's end as the reader does: whether a {} comment is open after them
// (a brace in a tag value opens none). Cut short at kMaxTagText, the rest of the line is comment text after a ';', and
// taken for the tag's text after a tag pair that has not ended.
void PgnGameSkip::lex_tag_text() {
  Lexer lexer(tag_text_, 1);
  Token last;
  bool open_tag = false;
  for (Token token = lexer.next(); token.kind != TokenKind::kEnd; token = lexer.next()) {
    TagPair tag;
    if (token.kind == TokenKind::kTagStart) open_tag = !lexer.read_tag(tag) && lexer.offset() == tag_text_.size();
    last = token;
  }
  in_comment_ = line_in_comment_ = last.kind == TokenKind::kUnterminatedComment;
  line_escaped_ = (last.kind == TokenKind::kComment && last.text.front() == ';') || (last.kind == TokenKind::kTagStart && open_tag);
  tag_text_.clear();
  holding_tag_ = false;
}

// Adds a piece of the current line to tail_: its last 8 bytes up to its last non-blank one, the blanks between
// pieces counted.
void PgnGameSkip::add_to_tail(std::string_view piece) {
  std::size_t last = piece.size();
  while (last > 0 && is_blank(piece[last - 1])) --last;
  if (last == 0) {
    pending_blanks_ = std::min(pending_blanks_ + piece.size(), sizeof tail_);
    return;
  }
  line_blank_ = false;
  char joined[3 * sizeof tail_];
  std::size_t size = 0;
  for (std::size_t k = 0; k < tail_size_; ++k) joined[size++] = tail_[k];
  for (std::size_t k = 0; k < pending_blanks_; ++k) joined[size++] = ' ';
  const std::size_t from = last > sizeof tail_ ? last - sizeof tail_ : 0;
  for (std::size_t k = from; k < last; ++k) joined[size++] = piece[k];
  line_longer_ = line_longer_ || from > 0 || size > sizeof tail_;
  const std::size_t keep = std::min(size, sizeof tail_);
  for (std::size_t k = 0; k < keep; ++k) tail_[k] = joined[size - keep + k];
  tail_size_ = keep;
  pending_blanks_ = std::min(piece.size() - last, sizeof tail_);
}

}  // namespace fenmill
