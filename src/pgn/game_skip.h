// Reading past a PGN game too large to read (GAME_TOO_LARGE: its text passes kMaxGameTextBytes, pipeline/chunk_feed.h)
// without holding it: finds where the next game starts as the game's bytes stream past, following the reader through
// them (pgn/game_track.h), and counts the game's lines on the way. The next game starts at the first line start, empty
// lines aside, where the reader is between games (the game ended with its result outside comments and variations,
// lines of comments alone after it allowed): a game without tags is read, and so is a line that opens with a
// byte-order mark (files joined by `cat`). Or, as the reader ends a game without a result at the next tag, at a line
// beginning with '[' once the game's movetext began. A game that starts mid-line (after the result on its line, or a
// tag after moves there) is read past with it: chunks start at line starts, which keeps line numbers whole.
// The scan depends on the game's bytes alone, so it ends at the same byte however the input is cut into chunks.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pgn/game_track.h"

namespace fenmill {

// A PGN game's text (from one game boundary to the next: pgn/chunk_cutter.h) may be this long at most. Such a game
// is no real game (a 1,000,000-position game is ~7 MB of movetext), and the reader holds one whole.
inline constexpr std::size_t kMaxGameTextBytes = std::size_t{16} << 20;

class PgnGameSkip {
 public:
  // The game starts at the first byte scan() is given (outside any comment); the next game is looked for only
  // from `min_bytes` on.
  explicit PgnGameSkip(std::uint64_t min_bytes) : min_bytes_(min_bytes) {}

  // Scans the game's next bytes. Returns how many of them are the game's: all of them, or fewer when the next game
  // starts within them (found() then says so, and no more may be scanned).
  std::size_t scan(std::string_view bytes);
  bool found() const { return found_; }
  std::uint64_t bytes() const { return seen_; }  // the game's bytes so far
  // The game's lines so far, a last one without '\n' included (as pipeline/chunk_processor counts them).
  std::uint64_t lines() const { return newlines_ + (seen_ > 0 && last_ != '\n'); }
  // The length of the game's first line (without its line end), once it has ended; before, the bytes so far.
  std::uint64_t first_line_bytes() const { return first_line_; }

 private:
  std::uint64_t min_bytes_;
  std::uint64_t seen_ = 0, newlines_ = 0, first_line_ = 0;
  bool found_ = false;
  char last_ = '\n';
  PgnGameTrack track_;         // the reader's place in the game's tokens
  bool line_started_ = false;
};

}  // namespace fenmill
