// One line of PGN as the chunk cutter's game-boundary scan reads it: find_game_start() looking back at the line before
// a tag line (pgn/game_reader.cpp; reading past a game too large to read follows the reader's tokens instead:
// pgn/game_track.h). Whether the
// line ends a game with its result (1-0, 0-1, 1/2-1/2, 1/2, *: the last token, after a blank, '}' or ')', with no ';'
// or '[' outside {} comments before it, not on a '%' line, no {} comment open at its end), holds comments alone, or
// neither; and whether a {} comment is open after it. A line that starts inside a {} comment (one opened on a line
// before) is read so: its text up to the '}' is the comment's, a '[' or ';' there included (`see [1] } 1-0` ends a game). Braces in ';' comments, on '%' lines and in tag pairs are their
// text, as the reader reads them (pgn/lexer.h). A line may come in pieces of any size: the result depends on its bytes
// alone, and only its last 8 non-blank bytes and (up to kMaxTagText) the text from a tag pair on are held.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace fenmill {

class PgnLineScan {
 public:
  enum class Kind { kCommentsAlone, kEndsGame, kOther };  // a blank line holds comments alone

  // Starts a line (inside a {} comment if the line before ended in one).
  void start();
  // Starts a line, inside a {} comment or not, whatever came before.
  void start(bool in_comment) {
    in_comment_ = in_comment;
    start();
  }
  // The line's next bytes, without its '\n'.
  void scan(std::string_view piece);
  // The line ended.
  Kind finish();
  bool in_comment() const { return in_comment_; }
  // Whether the line holds movetext (once it has ended): a token outside comments, '%' lines and tag pairs. A tag
  // after it ends the game, result or not, as the reader reads it. (Past kMaxTagText of a tag line, or after part of a
  // byte-order mark, what follows is not looked at: a line taken for no movetext only costs a game start not seen.)
  bool movetext() const { return movetext_; }

  // Whether `tail`, a line's end up to its last non-blank byte, ends with a result token: one the line starts with
  // (`whole`: tail is the whole line), or after a blank, '}' or ')'.
  static bool ends_with_result(std::string_view tail, bool whole);

 private:
  std::size_t hold_tag_text(std::string_view piece, std::size_t from);
  void lex_tag_text();
  void add_to_tail(std::string_view piece);

  bool in_comment_ = false;  // inside a {} comment
  // The line: whether a ';' or '[' came outside {} comments, whether a comment opened on it is open at its end, whether
  // it is a '%' line, and its last 8 bytes up to its last non-blank one (all a result and the byte before need).
  static constexpr std::string_view kBom = "\xEF\xBB\xBF";
  std::size_t bom_ = 0;  // the bytes of a byte-order mark the line starts with, so far
  bool started_ = false, blank_ = true, marked_ = false, line_in_comment_ = false, escape_line_ = false;
  // Whether the line has bytes outside comments; the rest of a line after a ';' (or from a '%' first) is a comment.
  bool content_ = false, escaped_ = false, movetext_ = false;
  char tail_[8] = {};
  std::size_t tail_size_ = 0;      // bytes in tail_ (at most 8)
  bool longer_ = false;            // the line, blanks at its end left out, is longer than tail_
  std::size_t pending_blanks_ = 0;  // blanks after the last non-blank byte of the line
  // From a '[' outside comments to the line's end (kMaxTagText bytes at most), the bytes are held and lexed as the
  // reader lexes them: which braces there are a tag value's text ([Annotator ":-{"]) and which open a comment
  // ([Event "x"] {...) takes the whole tag pair, and a tag pair never goes on past its line.
  static constexpr std::size_t kMaxTagText = 64 << 10;
  std::string tag_text_;
  bool holding_tag_ = false;
};

}  // namespace fenmill
