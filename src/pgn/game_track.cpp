#include "pgn/game_track.h"

#include <algorithm>
#include <cstring>

#include "pgn/lexer.h"

namespace fenmill {
namespace {

// pgn/lexer.cpp's byte classes, those that say where a token goes on.
enum : std::uint8_t {
  kSymbol = 1,       // goes on with a move ("Nbxd7+!?", "e.p.", "0-0-0")
  kSymbolNoDot = 2,  // goes on with a token from a digit past its digits ("1-0"; "12." is a move number)
  kLetter = 4,
  kDigit = 8,
};

struct ByteClasses {
  std::uint8_t of[256];
  constexpr ByteClasses() : of() {
    for (int c = 'a'; c <= 'z'; ++c) of[c] = kSymbol | kSymbolNoDot | kLetter;
    for (int c = 'A'; c <= 'Z'; ++c) of[c] = kSymbol | kSymbolNoDot | kLetter;
    for (int c = '0'; c <= '9'; ++c) of[c] = kSymbol | kSymbolNoDot | kDigit;
    for (int c : {'_', '+', '#', '=', ':', '/', '-', '!', '?', '@'}) of[c] = kSymbol | kSymbolNoDot;
    of[static_cast<int>('.')] = kSymbol;
  }
};
constexpr ByteClasses kClasses;

inline std::uint8_t class_of(char c) { return kClasses.of[static_cast<unsigned char>(c)]; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

// A token the reader reads (comments and '%' lines aside, which change nothing): GameReader::replay's rules. Any
// token between games starts a game; in the tag section, any but a tag begins the movetext; a result outside
// variations ends the game.
void PgnGameTrack::token(Kind kind) {
  if (phase_ == Phase::kBetween) depth_ = 0;
  phase_ = Phase::kMovetext;
  if (kind == Kind::kOpen) ++depth_;
  if (kind == Kind::kClose) depth_ -= depth_ > 0;
  if (kind == Kind::kResult && depth_ == 0) phase_ = Phase::kBetween;
}

// A tag starts a game between games or after movetext; in a tag section, a second [Event] does (the game so far had
// tags alone).
void PgnGameTrack::tag_start(std::string_view name) {
  if (phase_ != Phase::kTags || (has_event_ && name == "Event")) {
    phase_ = Phase::kTags;
    depth_ = 0;
    has_event_ = false;
  }
}

// The token from a digit ended: a result when it is one whole, else a move number or a move.
void PgnGameTrack::end_token() {
  if (state_ == State::kDigits || state_ == State::kDots || state_ == State::kNumber)
    token(state_ == State::kNumber && number_size_ <= 7 && is_pgn_result(std::string_view(number_, number_size_))
              ? Kind::kResult
              : Kind::kOther);
  if (bom_ > 0) token(Kind::kOther);  // part of a byte-order mark: a character that starts no token
  bom_ = 0;
  state_ = State::kFresh;
}

void PgnGameTrack::scan(std::string_view piece) {
  const char* p = piece.data();
  const std::size_t n = piece.size();
  std::size_t i = 0;
  while (i < n) {
    switch (state_) {
      case State::kToLineEnd:
        return;
      case State::kBrace: {
        const void* close = std::memchr(p + i, '}', n - i);
        line_start_ = false;
        if (!close) return;
        i = static_cast<std::size_t>(static_cast<const char*>(close) - p) + 1;
        state_ = State::kFresh;
        continue;
      }
      case State::kTag: {
        const std::size_t take = std::min(n - i, kMaxTagText - tag_text_.size());
        tag_text_.append(p + i, take);
        i += take;
        if (tag_text_.size() == kMaxTagText) lex_tag_text(false);
        continue;
      }
      default:
        break;
    }
    const char c = p[i];
    const std::uint8_t cls = class_of(c);
    // The token the byte goes on with, if any.
    bool goes_on = false;
    switch (state_) {
      case State::kSymbol:
        goes_on = cls & kSymbol;
        break;
      case State::kDigits:
        if (c == '.') {
          state_ = State::kDots;
          goes_on = true;
        } else if (cls & kSymbolNoDot) {
          if (!(cls & kDigit)) state_ = State::kNumber;
          goes_on = true;
        }
        break;
      case State::kDots:
        goes_on = c == '.';
        break;
      case State::kNumber:
        goes_on = cls & kSymbolNoDot;
        break;
      case State::kNag:
        goes_on = cls & kDigit;
        break;
      case State::kAnnotation:
        goes_on = c == '!' || c == '?' || c == '.';
        break;
      default:
        break;
    }
    if (goes_on) {
      if ((state_ == State::kDigits || state_ == State::kNumber) && number_size_ < sizeof number_) number_[number_size_] = c;
      number_size_ += state_ == State::kDigits || state_ == State::kNumber;
      ++i;
      continue;
    }
    if (bom_ == 0) end_token();  // the token before the byte ended
    // A byte-order mark between tokens is blank (files joined by `cat`); part of one is a character of its own.
    if (bom_ > 0 || c == '\xEF') {
      if (c == "\xEF\xBB\xBF"[bom_]) {
        ++i;
        if (++bom_ == 3) {
          bom_ = 0;
          after_bom_ = line_start_;
          line_start_ = false;
        }
        continue;
      }
      end_token();  // the part so far, a character; this byte is read anew
      line_start_ = after_bom_ = false;
      continue;
    }
    const bool escape_may_start = line_start_ || after_bom_;
    line_start_ = after_bom_ = false;
    ++i;
    if (is_blank(c)) continue;
    if (cls & kLetter || c == '-') {
      token(Kind::kOther);
      state_ = State::kSymbol;
    } else if (cls & kDigit) {
      number_[0] = c;
      number_size_ = 1;
      state_ = State::kDigits;
    } else if (c == '{') {
      state_ = State::kBrace;
    } else if (c == ';' || (c == '%' && escape_may_start)) {
      state_ = State::kToLineEnd;
    } else if (c == '[') {
      tag_text_.assign(1, '[');
      state_ = State::kTag;
    } else if (c == '(' || c == ')' || c == '*') {
      token(c == '(' ? Kind::kOpen : c == ')' ? Kind::kClose : Kind::kResult);
    } else if (c == '$') {
      token(Kind::kOther);
      state_ = State::kNag;
    } else if (c == '!' || c == '?' || c == '.') {
      token(Kind::kOther);
      state_ = State::kAnnotation;
    } else {
      token(Kind::kOther);  // "@@@@", a character that starts no token: each ends where the next byte starts one
    }
  }
}

void PgnGameTrack::end_line() {
  if (state_ == State::kTag) {
    lex_tag_text(true);
  } else if (state_ != State::kBrace) {
    end_token();
  }
  line_start_ = true;
  after_bom_ = false;
}

// Lexes the line from a '[' on as the reader does, tag pairs (a second [Event] in a tag section included) and the tokens
// after them. Cut short at kMaxTagText, the line goes on as its last token left it: in a comment it opened, in a ';'
// comment or a tag pair that has not ended (the rest taken for its text), or in a token (a symbol: no result).
void PgnGameTrack::lex_tag_text(bool line_ended) {
  Lexer lexer(tag_text_, 1);
  TokenKind last = TokenKind::kEnd;
  bool rest_is_text = false;
  for (Token t = lexer.next(); t.kind != TokenKind::kEnd; t = lexer.next()) {
    last = t.kind;
    rest_is_text = t.kind == TokenKind::kComment && t.text.front() == ';';
    switch (t.kind) {
      case TokenKind::kTagStart: {
        tag_start(lexer.peek_tag_name());
        TagPair tag;
        const bool ok = lexer.read_tag(tag);
        has_event_ = has_event_ || (ok && tag.name == "Event");
        rest_is_text = !ok && lexer.offset() == tag_text_.size();
        break;
      }
      case TokenKind::kComment:
      case TokenKind::kEscape:
      case TokenKind::kUnterminatedComment:  // a comment that goes on past the line
        break;
      case TokenKind::kResult:  // not one cut short at kMaxTagText ("1-0" of "1-0x"): a game end missed costs less
        token(line_ended || t.text.data() + t.text.size() < tag_text_.data() + tag_text_.size() ? Kind::kResult
                                                                                                : Kind::kOther);
        break;
      case TokenKind::kVariationStart:
        token(Kind::kOpen);
        break;
      case TokenKind::kVariationEnd:
        token(Kind::kClose);
        break;
      default:
        token(Kind::kOther);
        break;
    }
  }
  tag_text_.clear();
  if (last == TokenKind::kUnterminatedComment)
    state_ = State::kBrace;
  else if (line_ended)
    state_ = State::kFresh;
  else
    state_ = rest_is_text ? State::kToLineEnd : State::kSymbol;
}

}  // namespace fenmill
