// The parser has a fast path for the common layout (single spaces) and falls back to the careful parser for
// anything else. Doubling every space forces the careful path: both must give the same verdict, column offset
// aside, and the same normalized FEN, on real positions and on mutated ones.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "fen/normalize.h"

namespace fenmill {
namespace {

std::vector<std::string> sample_lines() {
  std::vector<std::string> lines;
  for (const char* name : {"/tests/data/not_in_check_sample.fen", "/bench/data/lichess-20k.fen"}) {
    std::ifstream in(std::string(FENMILL_SOURCE_DIR) + name);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::string doubled_spaces(const std::string& s) {
  std::string out;
  for (char c : s) {
    out.push_back(c);
    if (c == ' ') out.push_back(' ');
  }
  return out;
}

void expect_same(const std::string& line, int& accepted, int& vouched) {
  for (EpPolicy ep : {EpPolicy::kLegal, EpPolicy::kPseudo, EpPolicy::kKeep})
    for (bool repair : {false, true}) {
      NormalizeOptions options;
      options.ep = ep;
      options.repair = repair;
      Position fast, careful;
      NormalizeResult a = normalize_fen(line, fast, options);
      NormalizeResult b = normalize_fen(doubled_spaces(line), careful, options);
      ASSERT_EQ(a.code, b.code) << line;
      if (!a.ok()) continue;
      ++accepted;
      ASSERT_EQ(to_fen(fast), to_fen(careful)) << line;
      ASSERT_EQ(a.repairs, b.repairs) << line;
      // The placement the fast path vouches for is copied by writers: it must be the canonical one.
      ASSERT_EQ(b.placement_length, 0) << "only the one-pass layout vouches for its placement: " << line;
      if (a.placement_length > 0) {
        ++vouched;
        char buf[kMaxFenLength];
        std::string_view placement = std::string_view(line).substr(0, a.placement_length);
        ASSERT_EQ(std::string(buf, write_fen(fast, buf, CastlingNotation::kXFen, placement)), to_fen(fast)) << line;
        ASSERT_EQ(std::string(buf, write_epd(fast, buf, CastlingNotation::kShredder, placement)),
                  std::string(buf, write_epd(fast, buf, CastlingNotation::kShredder)))
            << line;
      }
    }
}

TEST(FenFastPath, SameVerdictAndOutputAsTheCarefulPath) {
  std::vector<std::string> lines = sample_lines();
  ASSERT_GE(lines.size(), 20000u);
  std::mt19937 rng(2026);
  const std::string alphabet = "pnbrqkPNBRQK12345678/ -wbKQkqAHah36e0";
  int accepted = 0, vouched = 0;
  for (const std::string& line : lines) {
    expect_same(line, accepted, vouched);
    std::string mutated = line;  // one random byte changed: mostly invalid, sometimes another valid position
    mutated[rng() % mutated.size()] = alphabet[rng() % alphabet.size()];
    expect_same(mutated, accepted, vouched);
  }
  EXPECT_GT(accepted, 100000);
  EXPECT_GT(vouched, 100000);
}

}  // namespace
}  // namespace fenmill
