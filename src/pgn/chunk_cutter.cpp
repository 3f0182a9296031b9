#include "pgn/chunk_cutter.h"

#include <algorithm>

#include "pgn/game_reader.h"

namespace fenmill {

std::size_t PgnChunkCutter::cut(std::string_view buf) {
  // Each search starts at the previous game start (outside any comment) and skips the lines an earlier call
  // already looked at.
  for (std::size_t last = last_start_;;) {
    std::size_t from = std::max(scanned_, last + 1) - last;
    std::size_t next = last + find_game_start(buf.substr(last), from);
    if (next >= buf.size()) {
      last_start_ = last;
      scanned_ = buf.size();
      break;
    }
    scanned_ = next + 1;
    if (next >= target_) return next;
    last = next;
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
  last_start_ = last_start_ > n ? last_start_ - n : 0;
  scanned_ = scanned_ > n ? scanned_ - n : 0;
  window_ = target_;
}

}  // namespace fenmill
