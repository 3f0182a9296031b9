#include "pgn/xiangqi_game.h"

#include <algorithm>
#include <cstddef>

namespace fenmill {
namespace {

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  return true;
}

bool tag_is(const GameInfo& game, std::string_view name, std::string_view value) {
  const TagPair* tag = game.find_tag(name);
  return tag && equals_ignoring_case(tag->value, value);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// A move in Chinese notation, in UTF-8: it holds a move verb, 平 (across), 进 or 進 (forward), 退 (back); or in
// full-width WXF notation (Ｃ２＝５, ＋Ｐ＋１): ＝, ＋ or － before a full-width digit.
bool holds_xiangqi_move_words(std::string_view word) {
  for (std::string_view verb : {"\xE5\xB9\xB3", "\xE8\xBF\x9B", "\xE9\x80\xB2", "\xE9\x80\x80"})
    if (word.find(verb) != std::string_view::npos) return true;
  for (std::size_t at = 0; (at = word.find("\xEF\xBC", at)) != std::string_view::npos && at + 6 <= word.size(); at += 3) {
    const auto op = static_cast<unsigned char>(word[at + 2]), next = static_cast<unsigned char>(word[at + 5]);
    const bool digit_next = word[at + 3] == '\xEF' && word[at + 4] == '\xBC' && next >= 0x90 && next <= 0x99;
    if ((op == 0x8B || op == 0x8D || op == 0x9D) && digit_next) return true;
  }
  return false;
}

// A move in ASCII WXF notation (C2.5, H8+7, R1=2, +R.5, R+.5): a piece letter (upper case, as WXF writes both
// sides) and its file, or a piece letter and + / - for the front or rear of two, in either order; then the verb,
// . or = (across), + (forward), - (back); then a digit. No chess notation has a digit or a verb in those places.
bool ascii_wxf_move(std::string_view word) {
  if (const std::size_t digits = word.find_first_not_of("0123456789"); digits > 0 && digits < word.size() && word[digits] == '.')
    word.remove_prefix(std::min(word.size(), word.find_first_not_of('.', digits)));  // "12.C2.5"
  if (word.size() != 4) return false;
  const auto piece = [](char c) { return std::string_view("KAEBRCHNP").find(c) != std::string_view::npos; };
  const auto digit = [](char c) { return c >= '1' && c <= '9'; };
  const auto front_or_rear = [](char c) { return c == '+' || c == '-'; };
  const bool who = (piece(word[0]) && (digit(word[1]) || front_or_rear(word[1]))) || (front_or_rear(word[0]) && piece(word[1]));
  const char verb = word[2];
  return who && (verb == '.' || verb == '=' || verb == '+' || verb == '-') && digit(word[3]);
}

// 0: not an ICCS move (file a-i, rank 0-9, twice, an optional '-' between, check or annotation marks after);
// 1: one, on points a chessboard has too; 2: one naming file i or rank 0 or 9.
int iccs_move(std::string_view word) {
  if (const std::size_t digits = word.find_first_not_of("0123456789"); digits > 0 && digits < word.size() && word[digits] == '.')
    word.remove_prefix(std::min(word.size(), word.find_first_not_of('.', digits)));  // "12.h2e2"
  while (!word.empty() && (word.back() == '+' || word.back() == '#' || word.back() == '!' || word.back() == '?'))
    word.remove_suffix(1);
  char c[4];
  if (word.size() == 4) {
    c[0] = word[0], c[1] = word[1], c[2] = word[2], c[3] = word[3];
  } else if (word.size() == 5 && word[2] == '-') {
    c[0] = word[0], c[1] = word[1], c[2] = word[3], c[3] = word[4];
  } else {
    return 0;
  }
  bool outside = false;
  for (int i = 0; i < 4; i += 2) {
    const char file = static_cast<char>(c[i] | 0x20), rank = c[i + 1];
    if (file < 'a' || file > 'i' || rank < '0' || rank > '9') return 0;
    outside = outside || file == 'i' || rank == '0' || rank == '9';
  }
  return outside ? 2 : 1;
}

}  // namespace

bool is_xiangqi_game(const GameInfo& game, std::string_view chunk, std::string_view token) {
  if (tag_is(game, "Variant", "xiangqi") || tag_is(game, "Game", "Chinese Chess")) return true;
  if (token.empty() || token.data() < chunk.data() || token.data() >= chunk.data() + chunk.size()) return false;
  // The word the token starts (a bad character is reported alone: its word holds the rest of the move).
  std::size_t at = static_cast<std::size_t>(token.data() - chunk.data());
  bool new_line = false;  // the last word found starts a line
  auto next_word = [&]() {
    new_line = false;
    for (; at < chunk.size() && is_space(chunk[at]); ++at) new_line = new_line || chunk[at] == '\n';
    const std::size_t begin = at;
    while (at < chunk.size() && !is_space(chunk[at])) ++at;
    return chunk.substr(begin, at - begin);
  };
  const std::string_view word = next_word();
  if (holds_xiangqi_move_words(word) || ascii_wxf_move(word)) return true;
  if (iccs_move(word) == 0) return false;
  // Two ICCS moves on points no chessboard has, among this word and the next ones up to the game's end (its result,
  // or a tag line that starts the next game): one alone may be a chess UCI move mistyped (e7e9).
  int outside = iccs_move(word) == 2;
  for (int words = 0; outside < 2 && words < 32; ++words) {
    const std::string_view w = next_word();
    if (w.empty() || is_pgn_result(w) || (new_line && w.front() == '[')) break;
    outside += iccs_move(w) == 2;
  }
  return outside >= 2;
}

}  // namespace fenmill
