// PGN games -> positions. Two entry points for a parallel pipeline:
//  * find_game_start() cuts a buffer at a game boundary with a cheap scan, so chunks can be replayed
//    independently and in any order;
//  * replay_games() plays every game of a chunk and reports each position (the start position too)
//    and each rejected game, then goes on with the next game.
// Variations are skipped (not checked) by default; with ReplayOptions::follow_variations they are
// replayed too, each from the position before the move it replaces, and their positions reported in
// file order. No allocation per position or per game (the tag list, the held-back positions and the
// variation stack reuse their capacity).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/position.h"
#include "fen/errors.h"
#include "pgn/errors.h"
#include "pgn/function_ref.h"
#include "pgn/lexer.h"
#include "pgn/move.h"

namespace fenmill {

// The first offset >= from at which a game starts, or buf.size() if there is none. A game starts at
// a line beginning with '[' that is outside any {} comment and does not continue a tag section (the
// previous non-blank line must end with the result of a finished game). `buf` itself must begin outside a
// {} comment: at the start of a file, or at an offset this function returned. Offset 0 always counts as a start.
// Games without tags are never chosen as a start (find_last_game_end finds where those may be cut).
std::size_t find_game_start(std::string_view buf, std::size_t from);

// Where PGN without tags may be cut, since find_game_start finds nothing there: the last line start at which
// the reader is between games, i.e. after a result token that ends a game (outside variations and comments)
// and before the next token that is not a comment, in the blanks between tokens, or in the blanks before a tag
// that ends a game without a result (one after the game's movetext began); 0 if there is none. It
// tokenizes, so it is slower than find_game_start. `buf` must begin where a game may begin, and may end
// anywhere: the offset stays a boundary whatever follows buf (tests/fuzz/pgn_fuzz.cpp checks this).
std::size_t find_last_game_end(std::string_view buf);

struct GameInfo {
  std::uint64_t index = 0;          // 0-based game number within the chunk
  std::uint64_t first_line = 0;     // line of the game's first tag (or first movetext token when it has none)
  std::size_t offset = 0;           // byte offset of that line's token within the chunk
  std::span<const TagPair> tags;    // in file order; string_views into the chunk
  bool chess960 = false;

  // The first tag with this exact name, or null. Its value is as written, PGN escapes (\" and \\) included.
  const TagPair* find_tag(std::string_view name) const;
};

struct PlyInfo {
  std::uint32_t ply = 0;     // half-moves from the game's start; in a variation the first move has the
                             // ply of the move it replaces
  std::uint32_t variation_depth = 0;  // 0 = main line; 1 = inside one '(' ... (follow_variations)
  std::uint64_t line = 0;    // line of the move token (the game's first line for ply 0)
  Move move;                 // the move that led here (ply > 0)
  std::string_view token;    // that move as written
};

struct ReplayError {
  PgnError code = PgnError::kOk;
  ErrorCode fen_code = ErrorCode::kOk;  // for kBadFen: why the [FEN] tag was rejected
  std::uint64_t line = 0;               // where the offending token is
  std::uint32_t ply = 0;                // the ply the move would have made (1-based); 0 for tag/setup errors
  std::string_view token;               // the offending token, tag value or character
};

struct GameEnd {
  std::string_view result;   // "1-0", "0-1", "1/2-1/2", "1/2", "*", or empty when the movetext just stopped
  std::uint32_t plies = 0;   // main-line plies replayed (up to the error, if any)
  bool error = false;        // the game was cut short by an error (reported once through on_error)
};

struct ReplayCallbacks {
  FunctionRef<void(const GameInfo&, const PlyInfo&, const Position&)> on_position;
  FunctionRef<void(const GameInfo&, const ReplayError&)> on_error;
  FunctionRef<void(const GameInfo&, const GameEnd&)> on_game_end;  // optional
};

struct ReplayOptions {
  // false (default): a game cut short by an error reports no positions at all, like a rejected record
  // (its positions are held back until the game ends). true: the positions before the error are
  // reported as they are played.
  bool keep_partial_games = false;
  // false (default): variations are skipped unchecked. true: each '(' replays a variation that replaces
  // the last move played at its level (PGN's rule: "1. e4 e5 (1... c5)" starts from the position before
  // 1... e5), nested ones too; an error in a variation rejects the game like one in the main line, and a
  // '(' with no move before it at its level is UNBALANCED_VARIATION.
  bool follow_variations = false;
  // Held back, a game's positions take memory (~120 bytes each): a game with more is GAME_TOO_LARGE. The clocks
  // bound a main line to 2 M plies, but followed variations are bounded by the input's size alone.
  std::size_t max_held_positions = 1'000'000;
};

struct ReplayStats {
  std::uint64_t games = 0;        // games seen (with or without error)
  std::uint64_t positions = 0;    // positions reported
  std::uint64_t bad_games = 0;    // games cut short by an error
};

// Reusable across chunks (keeps its buffers' capacity); one per thread.
class GameReader {
 public:
  explicit GameReader(const ReplayOptions& options = {}) : options_(options) {}

  // `first_line` is the file line of chunk[0]. The chunk should begin at a game start (or at the
  // start of a file) and end at one, as find_game_start() cuts it. UTF-8 BOMs between tokens are skipped.
  ReplayStats replay(std::string_view chunk, std::uint64_t first_line, const ReplayCallbacks& callbacks);

 private:
  struct Pending {
    PlyInfo ply;
    Position pos;
  };
  // Where a followed variation was opened, to go back to at its ')'.
  struct Branch {
    Position before;  // the position before the move the variation replaces
    Position after;   // the position after it
    std::uint32_t ply = 0;  // the ply of `after`
  };
  ReplayOptions options_;
  std::vector<TagPair> tags_;
  std::vector<Pending> pending_;  // the current game's positions, when held back
  std::vector<Branch> branches_;  // open variations, outermost first (follow_variations)
};

// One-shot convenience over GameReader.
ReplayStats replay_games(std::string_view chunk, std::uint64_t first_line,
                         FunctionRef<void(const GameInfo&, const PlyInfo&, const Position&)> on_position,
                         FunctionRef<void(const GameInfo&, const ReplayError&)> on_error,
                         FunctionRef<void(const GameInfo&, const GameEnd&)> on_game_end = {},
                         const ReplayOptions& options = {});

}  // namespace fenmill
