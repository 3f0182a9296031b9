#include "pgn/game_skip.h"

#include <cstring>

namespace fenmill {

std::size_t PgnGameSkip::scan(std::string_view bytes) {
  const char* p = bytes.data();
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  while (i < n) {
    if (!line_started_) {
      // A line starts the next game where the reader is between games (after a result that ended the game; a line
      // that opens with a byte-order mark, files joined by `cat`, included), or where a tag there ends the game. Not
      // an empty line: it changes nothing, so the line after it starts the game as well (find_last_game_end's cut).
      const bool starts = p[i] != '\n' && (track_.between_games() || (p[i] == '[' && track_.tag_ends_game()));
      if (starts && seen_ >= min_bytes_) {
        found_ = true;
        return i;
      }
      line_started_ = true;
    }
    const void* nl = std::memchr(p + i, '\n', n - i);
    const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - p) : n;
    track_.scan(bytes.substr(i, end - i));
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
    track_.end_line();
    line_started_ = false;
  }
  return n;
}

}  // namespace fenmill
