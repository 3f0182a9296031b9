// Where to cut a growing PGN buffer into chunks of whole games that can be replayed on their own, in any order
// (pgn/game_reader.h): at a game start (a tag line) at or past a target size, or, where no tag line offers one
// (PGN without tags), after a finished game. The buffer is the bytes of one input not yet handed out, and grows
// at its end as they are read; a byte is scanned at most once however it grows, and the games before the target
// not at all.
#pragma once
#include <cstddef>
#include <string_view>

namespace fenmill {

class PgnChunkCutter {
 public:
  explicit PgnChunkCutter(std::size_t target) : target_(target > 0 ? target : 1), window_(target_) {}

  // The offset to cut `buf` at (0: none yet, read on). `buf` starts where a game may start: at the start of the
  // input or at a cut this returned, the bytes before it dropped (dropped()).
  std::size_t cut(std::string_view buf);
  // The first n bytes of the buffer went out as a chunk (n: a cut, or all of it at the end of the input).
  void dropped(std::size_t n);

 private:
  std::size_t target_;
  std::size_t scanned_ = 0;     // lines starting before this were looked at
  std::size_t window_;          // the prefix to tokenize for a cut after a finished game
};

}  // namespace fenmill
