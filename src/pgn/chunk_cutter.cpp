#include "pgn/chunk_cutter.h"

#include <algorithm>

#include "pgn/game_reader.h"

namespace fenmill {

std::size_t PgnChunkCutter::cut(std::string_view buf) {
  // The first game start at or past the target, looked for from there. find_game_start() needs to know where its
  // search starts outside any {} comment, and buf[0] is (a game start); from a tag line it looks back for an open
  // comment only as far as the nearest brace (memrchr). Looking from game start to game start instead read the
  // line before every game's first tag byte by byte (a lichess game's movetext, one ~1-2 KB line): a quarter of
  // a PGN run's time, in the pipeline's serial reader stage.
  if (const std::size_t from = std::max(scanned_, target_); from < buf.size()) {
    const std::size_t next = find_game_start(buf, from);
    scanned_ = next < buf.size() ? next + 1 : buf.size();
    if (next < buf.size()) return next;
  }
  // Tokenizing is slower than the scan above, so it waits for a window of the target size (with tags, a buffer
  // that size without a game start past the target is rare: a game crossing the target); a window without a
  // finished game doubles, so a long game is tokenized O(1) times.
  if (buf.size() < window_) return 0;
  std::size_t end = find_last_game_end(buf.substr(0, window_));
  if (end == 0) window_ *= 2;
  return end;
}

void PgnChunkCutter::dropped(std::size_t n) {
  scanned_ = scanned_ > n ? scanned_ - n : 0;
  window_ = target_;
}

}  // namespace fenmill
