// PGN tokenizer: tag pairs and movetext tokens with their line numbers, over bytes that stay where
// they are (every text is a string_view into the input). No allocation, no exceptions.
//
// Movetext accepted: move numbers ("12.", "12...", "1.d4", a number at the end of a line with its move
// on the next), {...} comments (several lines, '[' and blank lines inside), ';' comments to the end
// of the line, '%' escape lines, NAGs ($n), variations ( ... ), results (1-0 0-1 1/2-1/2 *, and 1/2),
// standalone move assessments (!, ?!, ...) and "e.p.".
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fenmill {

enum class TokenKind : std::uint8_t {
  kEnd,                  // no more input
  kMove,                 // a move as written (suffixes like + ! e.p. still attached), "--" and "Z0" included
  kMoveNumber,           // "12", "12.", "12..."
  kNag,                  // "$14"
  kAnnotation,           // a standalone "!", "?!", "e.p." ...: nothing to replay
  kComment,              // "{...}" or ";..." (text is the whole comment, delimiters included)
  kEscape,               // a '%' line (text without the newline)
  kVariationStart,       // "("
  kVariationEnd,         // ")"
  kResult,               // one of kPgnResults
  kTagStart,             // "[" : not consumed; call read_tag()
  kUnterminatedComment,  // "{" without "}" up to the end of the input (text runs to the end)
  kBadChar,              // a byte that cannot start a token (text is that byte)
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;
  std::uint64_t line = 0;  // line of the token's first byte
};

// The game termination markers, the only results a game may end with. "1/2" is not the standard's, but some
// programs write it for a draw and other readers (pgn-extract) take it as one; rejecting such games would lose
// their positions.
inline constexpr std::string_view kPgnResults[] = {"1-0", "0-1", "1/2-1/2", "1/2", "*"};

// Whether `text` is one of kPgnResults.
inline bool is_pgn_result(std::string_view text) {
  for (std::string_view result : kPgnResults)
    if (text == result) return true;
  return false;
}

// A tag pair. `value` is the raw text between the quotes: escapes (\" and \\) are not undone, which
// only matters for values that contain them.
struct TagPair {
  std::string_view name;
  std::string_view value;
};

class Lexer {
 public:
  // `first_line` is the number of the line that text[0] is on.
  Lexer(std::string_view text, std::uint64_t first_line);

  Token next();
  // At a kTagStart: reads `[Name "value"]`. On a malformed tag pair returns false and skips to the
  // end of the line (or of the tag section's bracket, whichever comes first).
  bool read_tag(TagPair& tag);
  // At a kTagStart: the tag's name, without consuming anything (empty if there is none).
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

// Undoes the \" and \\ escapes of a tag value into `out` (which needs value.size() bytes); returns
// the unescaped length.
std::size_t unescape_tag_value(std::string_view value, char* out);

}  // namespace fenmill
