// Reading past a PGN game too large to read (GAME_TOO_LARGE: its text passes kMaxGameTextBytes, pipeline/chunk_feed.h)
// without holding it: finds where the next game with tags starts as the game's bytes stream past, by
// find_game_start()'s rule (a line beginning with '[', outside any {} comment, after a line that ends a game with its
// result: pgn/line_scan.h), lines of comments alone after that line allowed, and a line beginning with a byte-order
// mark there too (files joined by `cat`); or, as the reader ends a game without a result, a line beginning with '['
// outside comments after the game's movetext began; and counts the game's lines on the way.
// The scan depends on the game's bytes alone, so it ends at the same byte however the input is cut into chunks.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pgn/line_scan.h"

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
  PgnLineScan line_;            // the current line
  bool line_started_ = false;
  // The last non-blank line (lines of comments alone aside) ends a game with its result. True at first: the game
  // starts at a game boundary, between games, so a tag line after lines of comments alone there (a huge comment
  // between games) starts the next game, as the reader starts it.
  bool previous_ends_game_ = true;
  // The game's movetext began (a line of it held movetext, and no game ended since): a tag line ends the game.
  bool movetext_ = false;
};

}  // namespace fenmill
