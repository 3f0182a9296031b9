#include "pgn/game_skip.h"

#include <cstring>

namespace fenmill {

std::size_t PgnGameSkip::scan(std::string_view bytes) {
  const char* p = bytes.data();
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  while (i < n) {
    if (!line_started_) {
      // After a finished game the reader is between games: a line there that opens with a byte-order mark (blank to the
      // reader: files joined by `cat` each open with one) is the next game's start as well as a tag line is. So is a
      // tag line after the game's movetext began: it ends a game without a result.
      const bool outside = !line_.in_comment();
      const bool starts = outside && ((p[i] == '[' && (previous_ends_game_ || movetext_)) ||
                                      (p[i] == '\xEF' && previous_ends_game_));
      if (starts && seen_ >= min_bytes_) {
        found_ = true;
        return i;
      }
      if (starts) movetext_ = false;  // a game before min_bytes (the tests' case): the reader starts one there
      line_started_ = true;
      line_.start();
    }
    const void* nl = std::memchr(p + i, '\n', n - i);
    const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - p) : n;
    line_.scan(bytes.substr(i, end - i));
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
    // A line of comments alone changes nothing: between games a comment belongs to no game, so a game that ended
    // before it is still ended.
    if (const PgnLineScan::Kind kind = line_.finish(); kind != PgnLineScan::Kind::kCommentsAlone) {
      previous_ends_game_ = kind == PgnLineScan::Kind::kEndsGame;
      movetext_ = !previous_ends_game_ && (movetext_ || line_.movetext());
    }
    line_started_ = false;
  }
  return n;
}

}  // namespace fenmill
