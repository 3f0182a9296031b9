#include "pgn/game_reader.h"

#include <algorithm>
#include <cstring>

#include "pgn/line_scan.h"
#include "pgn/make_move.h"
#include "pgn/san.h"
#include "pgn/start_position.h"

namespace fenmill {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

// Whether `pos` lies inside a {} comment, knowing that `outside` (<= pos) does not. Inside a comment
// the nearest brace before `pos` is always its '{' (a comment cannot contain '}'); a '{' in a tag value
// or ';' comment can only make an outside position look inside, which just moves the cut further on.
bool inside_brace_comment(std::string_view buf, std::size_t outside, std::size_t pos) {
  const char* base = buf.data() + outside;
  std::size_t n = pos - outside;
  const void* open = memrchr(base, '{', n);
  if (!open) return false;
  const void* close = memrchr(base, '}', n);
  return !close || close < open;
}

// Whether the line starting at `line_start` starts inside a {} comment, knowing that `outside` (<= line_start) does
// not: the nearest brace before it is a '{' that opens a comment, read on its line as the reader reads it (from the
// line's start, or from `outside`, taken to be outside a comment): one in a tag value, a ';' comment or on a '%' line
// opens none. A line start that is taken for inside a comment only when it is, the line read so cannot be taken for the
// end of a game when it is not (continues_tag_section()).
bool line_starts_in_comment(std::string_view buf, std::size_t outside, std::size_t line_start) {
  const char* base = buf.data() + outside;
  const std::size_t n = line_start - outside;
  const void* open = memrchr(base, '{', n);
  if (!open) return false;
  const void* close = memrchr(base, '}', n);
  if (close && close > open) return false;
  const std::size_t brace = static_cast<std::size_t>(static_cast<const char*>(open) - buf.data());
  const void* before = memrchr(base, '\n', brace - outside);
  const std::size_t begin = before ? static_cast<std::size_t>(static_cast<const char*>(before) - buf.data()) + 1 : outside;
  const std::size_t end = brace + static_cast<std::size_t>(
      static_cast<const char*>(std::memchr(buf.data() + brace, '\n', line_start - brace)) - (buf.data() + brace));
  PgnLineScan scan;
  scan.start(false);
  scan.scan(buf.substr(begin, end - begin));
  scan.finish();
  return scan.in_comment();
}

// Whether the line starting at `line_start` might continue a tag section rather than start a game, knowing that
// `outside` (<= line_start) is outside any {} comment. Only a game that plainly ended says no: the last non-blank line
// before it ends a game with its result (pgn/line_scan.h: no ';', '[' or open '{' on that line turns the result into
// other text, so the reader has left the tag section and finished the game; the line may start inside a comment opened
// on a line before, `see [1] } 1-0`, as the reader reads it). Anything else (a tag line, ChessBase's blank line
// after [Event], a comment or '%' line between tags, a tag begun mid-line) says yes: a wrong yes only costs a cut (and
// the reader still starts the game there), a wrong no would split a game and make the output depend on where chunks
// end (tests/fuzz/pgn_fuzz.cpp checks this).
bool continues_tag_section(std::string_view buf, std::size_t outside, std::size_t line_start) {
  std::size_t end = line_start;
  while (end > 0 && is_space(buf[end - 1])) --end;
  if (end == 0) return false;
  std::size_t begin = end;
  while (begin > 0 && buf[begin - 1] != '\n') --begin;
  const std::string_view line = buf.substr(begin, end - begin);
  if (!PgnLineScan::ends_with_result(line, true)) return true;  // a tag line, most often: no need to read it
  // Without a '}' the line ends as it starts, outside a comment (the tag line after it is). It may start before
  // `outside`: after a tag line found inside a comment, at the '}' that ended the comment.
  const bool closes = std::memchr(line.data(), '}', line.size()) != nullptr;
  PgnLineScan scan;
  scan.start(closes && line_starts_in_comment(buf, begin < outside ? 0 : outside, begin));
  scan.scan(line);
  return scan.finish() != PgnLineScan::Kind::kEndsGame;
}

bool name_is(std::string_view name, std::string_view wanted) {
  if (name.size() != wanted.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i)
    if ((name[i] | 0x20) != (wanted[i] | 0x20)) return false;
  return true;
}

}  // namespace

std::size_t find_game_start(std::string_view buf, std::size_t from) {
  if (from == 0) return 0;
  std::size_t size = buf.size(), outside = 0, pos = from;
  while (pos < size) {
    std::size_t line_start = pos;
    if (buf[pos - 1] != '\n') {
      const void* nl = std::memchr(buf.data() + pos, '\n', size - pos);
      if (!nl) return size;
      line_start = static_cast<std::size_t>(static_cast<const char*>(nl) - buf.data()) + 1;
      if (line_start >= size) return size;
    }
    pos = line_start + 1;
    if (buf[line_start] != '[') continue;
    if (inside_brace_comment(buf, outside, line_start)) {
      const void* close = std::memchr(buf.data() + line_start, '}', size - line_start);
      if (!close) return size;
      outside = static_cast<std::size_t>(static_cast<const char*>(close) - buf.data()) + 1;
      pos = outside;
      continue;
    }
    const std::size_t known = outside;
    outside = line_start;
    if (!continues_tag_section(buf, known, line_start)) return line_start;
  }
  return size;
}

std::size_t find_last_game_end(std::string_view buf) {
  // The same token stream as GameReader::replay: every '[' is read as a tag, a game ends at a result token
  // outside variations (or at a tag), and variation depth restarts with each game. From a game's result to the
  // next token that is not a comment or '%' line, the reader is between games: a line start in the blanks
  // between two of those tokens is a cut. So is one before a tag after a game's movetext began, which ends the game
  // (a game without a result): else such a game and the next were taken for one game too large to read when the two
  // passed 16 MiB (pipeline/chunk_feed.cpp too_large_game()), both lost in one GAME_TOO_LARGE.
  Lexer lexer(buf, 1);
  std::size_t last = 0, blanks_from = 0;
  int depth = 0;
  bool between_games = false, movetext = false;
  for (;;) {
    const Token token = lexer.next();
    const std::size_t at = token.kind == TokenKind::kEnd ? buf.size() : static_cast<std::size_t>(token.text.data() - buf.data());
    if ((between_games || (movetext && token.kind == TokenKind::kTagStart)) && at > blanks_from) {
      const std::size_t newline = buf.substr(blanks_from, at - blanks_from).rfind('\n');
      if (newline != std::string_view::npos) last = blanks_from + newline + 1;
    }
    if (token.kind == TokenKind::kEnd) break;
    switch (token.kind) {
      case TokenKind::kTagStart: {
        TagPair tag;
        lexer.read_tag(tag);
        depth = 0;
        between_games = movetext = false;
        break;
      }
      case TokenKind::kVariationStart:
        ++depth;
        between_games = false;
        movetext = true;
        break;
      case TokenKind::kVariationEnd:
        depth -= depth > 0;
        between_games = false;
        movetext = true;
        break;
      case TokenKind::kResult:
        between_games = depth == 0;
        movetext = !between_games;
        break;
      case TokenKind::kComment:
      case TokenKind::kEscape:
        break;  // between games, a comment belongs to no game
      default:
        between_games = false;
        movetext = true;
        break;
    }
    blanks_from = lexer.offset();
  }
  return last;
}

const TagPair* GameInfo::find_tag(std::string_view name) const {
  for (const TagPair& t : tags)
    if (t.name == name) return &t;
  return nullptr;
}

ReplayStats GameReader::replay(std::string_view chunk, std::uint64_t first_line, const ReplayCallbacks& callbacks) {
  ReplayStats stats;
  Lexer lexer(chunk, first_line);
  Position pos;
  Token token = lexer.next();
  for (;;) {
    // Between games: a comment or escape line before a game belongs to no game (eco.pgn opens with one).
    while (token.kind == TokenKind::kComment || token.kind == TokenKind::kEscape) token = lexer.next();
    if (token.kind == TokenKind::kEnd) break;

    pending_.clear();
    GameInfo game;
    game.index = stats.games++;
    game.first_line = token.line;
    game.offset = static_cast<std::size_t>(token.text.data() - chunk.data());
    ReplayError error;
    std::uint64_t emitted = 0;  // positions reported so far (keep_partial_games)
    auto report = [&](PgnError code, std::uint64_t line, std::uint32_t ply, std::string_view text) {
      if (error.code != PgnError::kOk) return;  // one report per game: the first problem
      error.code = code;
      error.line = line;
      error.ply = ply;
      error.token = text;
      callbacks.on_error(game, error);
    };
    auto emit = [&](const PlyInfo& info) {
      if (options_.keep_partial_games) {
        callbacks.on_position(game, info, pos);
        ++emitted;
      } else if (pending_.size() < options_.max_held_positions) {
        pending_.push_back({info, pos});
      } else {
        report(PgnError::kGameTooLarge, info.line, info.ply, info.token);
      }
    };

    tags_.clear();
    std::string_view variant, fen;
    std::uint64_t variant_line = 0, fen_line = 0;
    bool has_event = false;
    // Tags, and the comments and '%' lines between them (PGN: an escape line is ignored; a comment among the
    // tags must not end the tag section, or the [FEN] after it would start a game of its own).
    while (token.kind == TokenKind::kTagStart) {
      // A second [Event] means the game so far had tags only (no movetext, no result): it ends here.
      if (has_event && lexer.peek_tag_name() == "Event") break;
      std::size_t at = lexer.offset();
      TagPair tag;
      if (lexer.read_tag(tag)) {
        tags_.push_back(tag);
        has_event = has_event || tag.name == "Event";
        // A second [FEN] or [Variant] rejects the game: which one holds is a guess (the first here, the last in
        // chessops), and a wrong guess replays every move from the wrong position.
        const bool is_variant = name_is(tag.name, "Variant"), is_fen = !is_variant && name_is(tag.name, "FEN");
        if ((is_variant && variant_line != 0) || (is_fen && fen_line != 0)) {
          game.tags = tags_;
          report(PgnError::kDuplicateTag, token.line, 0, chunk.substr(at, lexer.offset() - at));
        } else if (is_variant) {
          variant = tag.value;
          variant_line = token.line;
        } else if (is_fen) {
          fen = tag.value;
          fen_line = token.line;
        }
      } else {
        game.tags = tags_;
        report(PgnError::kBadTag, token.line, 0, chunk.substr(at, lexer.offset() - at));
      }
      token = lexer.next();
      while (token.kind == TokenKind::kComment || token.kind == TokenKind::kEscape) token = lexer.next();
    }
    game.tags = tags_;

    if (error.code == PgnError::kOk) {
      StartSetup setup = setup_start_position(variant, fen, pos);
      game.chess960 = setup.chess960;
      if (setup.code == PgnError::kUnsupportedVariant) {
        report(setup.code, variant_line, 0, variant);
      } else if (setup.code == PgnError::kBadFen) {
        error.fen_code = setup.fen_code;
        report(setup.code, fen_line, 0, fen);
      } else {
        PlyInfo start;
        start.line = game.first_line;
        emit(start);
      }
    }

    // Movetext, up to the result, the next tag section or the end of the chunk.
    const bool follow = options_.follow_variations;
    std::uint32_t ply = 0;
    int depth = 0;  // variation nesting (skipped unless followed; after an error, only counted)
    Token open_variation;  // the outermost '(' still open
    Position before;        // following: the position before the last move played at this level
    bool has_move = false;  // following: a move was played at this level, so a '(' can replace it
    branches_.clear();
    GameEnd end;
    for (bool done = false; !done;) {
      switch (token.kind) {
        case TokenKind::kMove: {
          if ((depth > 0 && !follow) || error.code != PgnError::kOk) break;
          Move move;
          if (PgnError e = parse_move(pos, token.text, move); e != PgnError::kOk) {
            report(e, token.line, ply + 1, token.text);
            break;
          }
          if (follow) {
            before = pos;
            has_move = true;
          }
          const bool halfmove_full = pos.halfmove_clock == kMaxHalfmoveClock;
          if (move.kind == MoveKind::kNull)
            make_null_move(pos);
          else
            make_move(pos, move);
          // A FEN cannot hold the clocks past these (fen/parse.cpp): the game is rejected rather than written
          // with a clock fenmill's own reader refuses.
          if ((halfmove_full && pos.halfmove_clock == kMaxHalfmoveClock) || pos.fullmove_number > kMaxFullmoveNumber) {
            report(PgnError::kClockRange, token.line, ply + 1, token.text);
            break;
          }
          PlyInfo info;
          info.ply = ++ply;
          info.line = token.line;
          info.move = move;
          info.token = token.text;
          info.variation_depth = static_cast<std::uint32_t>(depth);
          emit(info);
          break;
        }
        case TokenKind::kVariationStart:
          if (depth++ == 0) open_variation = token;
          if (!follow || error.code != PgnError::kOk) break;
          if (!has_move) {  // nothing to replace: "1. (1. d4) e4" or "(("
            report(PgnError::kUnbalancedVariation, token.line, ply + 1, token.text);
            break;
          }
          branches_.push_back({before, pos, ply});
          pos = before;  // the variation replaces the last move
          --ply;
          has_move = false;
          break;
        case TokenKind::kVariationEnd:
          if (depth == 0) {
            report(PgnError::kUnbalancedVariation, token.line, ply + 1, token.text);
            break;
          }
          --depth;
          if (!follow || error.code != PgnError::kOk) break;
          // Back to where the variation was opened: a further '(' offers another alternative to that move.
          before = branches_.back().before;
          pos = branches_.back().after;
          ply = branches_.back().ply;
          branches_.pop_back();
          has_move = true;
          break;
        case TokenKind::kResult:
          if (depth > 0) break;
          end.result = token.text;
          token = lexer.next();
          done = true;
          continue;
        case TokenKind::kTagStart:
        case TokenKind::kEnd:
          if (depth > 0) report(PgnError::kUnbalancedVariation, open_variation.line, ply + 1, open_variation.text);
          done = true;
          continue;
        case TokenKind::kUnterminatedComment:
          report(PgnError::kUnterminatedComment, token.line, ply + 1, token.text.substr(0, 1));
          break;
        case TokenKind::kBadChar:
          if (depth == 0 || follow) report(PgnError::kBadToken, token.line, ply + 1, token.text);
          break;
        case TokenKind::kMoveNumber:
        case TokenKind::kNag:
        case TokenKind::kAnnotation:
        case TokenKind::kComment:
        case TokenKind::kEscape:
          break;
      }
      token = lexer.next();
    }
    end.plies = branches_.empty() ? ply : branches_.front().ply;  // the main line's, even if cut short in a variation
    end.error = error.code != PgnError::kOk;
    if (options_.keep_partial_games) {
      stats.positions += emitted;
    } else if (!end.error) {
      for (const Pending& p : pending_) callbacks.on_position(game, p.ply, p.pos);
      stats.positions += pending_.size();
    }
    stats.bad_games += end.error;
    callbacks.on_game_end(game, end);
  }
  return stats;
}

ReplayStats replay_games(std::string_view chunk, std::uint64_t first_line,
                         FunctionRef<void(const GameInfo&, const PlyInfo&, const Position&)> on_position,
                         FunctionRef<void(const GameInfo&, const ReplayError&)> on_error,
                         FunctionRef<void(const GameInfo&, const GameEnd&)> on_game_end,
                         const ReplayOptions& options) {
  GameReader reader(options);
  return reader.replay(chunk, first_line, ReplayCallbacks{on_position, on_error, on_game_end});
}

}  // namespace fenmill
