// Where the PGN reader (GameReader::replay, pgn/game_reader.h) is in its token stream, between games, in a game's tag
// section or in its movetext, over bytes that come a line at a time in pieces of any size, without holding them:
// PgnGameSkip (pgn/game_skip.h) reads past a game too large to read with it, to start the next game where the reader
// would have, a game without tags included (one right after the too-large game was read past with it).
// Tokens are told apart as pgn/lexer.cpp tells them: a result ends a game only as a whole token outside comments and
// variations (`e41-0`, `1-0.5` hold none; `e4*` and `1-0.` do); braces in a ';' comment, on a '%' line or in a tag
// pair are their text. Where a tag pair ends ([Event "The "Big" Open"]) takes its whole line, so from a '[' on a line
// is held (up to kMaxTagText bytes) and lexed by the Lexer itself; past that, the rest of the line is read as its
// last token left it (a cut token ends no game: a result there is missed, which only costs a game start not seen).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fenmill {

class PgnGameTrack {
 public:
  // The start: between games, at a line's start (a game boundary, as pgn/chunk_cutter.h cuts).
  PgnGameTrack() = default;

  // The current line's next bytes, without its '\n'.
  void scan(std::string_view piece);
  // The current line ended (its '\n'): the next byte scanned starts a line.
  void end_line();

  // At a line's start: whether the reader is between games there (outside {} comments, after a game that ended with
  // its result outside variations, or before any game, comments alone since), so the line starts the next game.
  bool between_games() const { return phase_ == Phase::kBetween && state_ == State::kFresh; }
  // At a line's start: whether a tag there ends a game (one whose movetext began, outside {} comments).
  bool tag_ends_game() const { return phase_ == Phase::kMovetext && state_ == State::kFresh; }

 private:
  enum class Phase : std::uint8_t { kBetween, kTags, kMovetext };
  // The byte state: between tokens, in a token (which bytes go on with it: pgn/lexer.cpp), in a comment.
  enum class State : std::uint8_t {
    kFresh,        // between tokens: the next byte may start one
    kSymbol,       // a move, from a letter or '-': symbol bytes go on
    kDigits,       // a token from a digit, its digits so far
    kDots,         // a move number's dots ("12...")
    kNumber,       // a token from digits on past them ("1-0", "0-0"): a result if it is one whole
    kNag,          // "$" and digits
    kAnnotation,   // "!?", "..."
    kBrace,        // inside a {} comment, to its '}'
    kToLineEnd,    // a ';' comment, a '%' line, or the rest of a tag line past kMaxTagText: nothing to the line's end
    kTag,          // from a '[' to the line's end: held, and lexed at its end
  };
  enum class Kind : std::uint8_t { kResult, kOpen, kClose, kOther };

  void token(Kind kind);
  void tag_start(std::string_view name);
  void end_token();
  void lex_tag_text(bool line_ended);

  Phase phase_ = Phase::kBetween;
  State state_ = State::kFresh;
  std::uint64_t depth_ = 0;  // variations open in the current game
  bool has_event_ = false;   // the tag section so far holds an [Event]: a second one starts a game
  // The bytes of a byte-order mark so far between tokens (blank to the lexer), and whether the line so far is blank
  // or one BOM alone: a '%' there begins an escape line.
  std::uint8_t bom_ = 0;
  bool line_start_ = true, after_bom_ = false;
  char number_[8] = {};      // a token from a digit: its first bytes (a result is 7 at most)
  std::size_t number_size_ = 0;
  static constexpr std::size_t kMaxTagText = 64 << 10;
  std::string tag_text_;
};

}  // namespace fenmill
