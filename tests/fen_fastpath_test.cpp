// The parser has a fast path for the common layout (single spaces) and falls back to the careful parser for
// anything else. Doubling every space forces the careful path: both must give the same verdict, column offset
// aside, and the same normalized FEN, on real positions and on mutated ones.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "fen/normalize.h"
#include "fen/placement_fast.h"

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
      // The placement either path vouches for is copied by writers: it must be the canonical one.
      const std::string doubled = doubled_spaces(line);
      for (auto [result, text, position] : {std::tuple{a, std::string_view(line), &fast},
                                            std::tuple{b, std::string_view(doubled), &careful}}) {
        if (result.placement_length == 0) continue;
        ++vouched;
        char buf[kMaxFenLength];
        std::string_view placement = text.substr(0, result.placement_length);
        ASSERT_EQ(std::string(buf, write_fen(*position, buf, CastlingNotation::kXFen, placement)), to_fen(*position)) << line;
        ASSERT_EQ(std::string(buf, write_epd(*position, buf, CastlingNotation::kShredder, placement)),
                  std::string(buf, write_epd(*position, buf, CastlingNotation::kShredder)))
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

// The AVX-512 placement reader against the scalar loop: same verdict, bitboards and end on every real line,
// every one-byte mutation of it, truncations, and random placement-alphabet strings (the scalar loop also
// takes placements of 64 characters or more, which the vector path leaves to it).
void expect_same_placement(const std::string& text, int& compared) {
  Position a, b;
  const char *after_a = nullptr, *after_b = nullptr;
  const char* end = text.data() + text.size();
  bool simd = parse_placement_avx512(text.data(), end, a, after_a);
  bool scalar = parse_placement_scalar(text.data(), end, b, after_b);
  std::size_t length = text.find_first_of(" \t");
  if (length == std::string::npos) length = text.size();
  if (length >= 64) {
    ASSERT_FALSE(simd) << text;
    return;
  }
  ASSERT_EQ(simd, scalar) << text;
  ++compared;
  if (!simd) return;
  ASSERT_EQ(after_a, after_b) << text;
  for (int t = 0; t < kPieceTypeCount; ++t) ASSERT_EQ(a.by_type[t], b.by_type[t]) << text;
  ASSERT_EQ(a.by_color[kWhite], b.by_color[kWhite]) << text;
  ASSERT_EQ(a.by_color[kBlack], b.by_color[kBlack]) << text;
}

TEST(FenFastPath, VectorPlacementReaderAgreesWithTheScalarLoop) {
  if (!placement_avx512_supported()) GTEST_SKIP() << "this CPU has no AVX-512 VBMI2";
  std::vector<std::string> lines = sample_lines();
  ASSERT_GE(lines.size(), 20000u);
  std::mt19937 rng(7);
  const std::string alphabet = "pnbrqkPNBRQK123456780/ \t9xX\x80\xff";
  int compared = 0, accepted = 0;
  for (const std::string& line : lines) {
    expect_same_placement(line, compared);
    Position pos;
    const char* after;
    accepted += parse_placement_avx512(line.data(), line.data() + line.size(), pos, after);
    std::string mutated = line;
    mutated[rng() % mutated.size()] = alphabet[rng() % alphabet.size()];
    expect_same_placement(mutated, compared);
    expect_same_placement(line.substr(0, rng() % (line.size() + 1)), compared);  // the text may end anywhere
    std::string doubled = line.substr(0, line.find(' '));  // placements of 64+ characters
    expect_same_placement(doubled + doubled, compared);
  }
  for (int i = 0; i < 200000; ++i) {  // random strings, mostly short ranks of digits and letters
    std::string s;
    for (int n = static_cast<int>(rng() % 80); n > 0; --n) s.push_back(alphabet[rng() % 16]);
    expect_same_placement(s, compared);
  }
  // Hand-made edge cases: the longest legal placements, a run at 63/64 characters, slashes at the ends.
  for (const std::string s : {"p1p1p1p1/1p1p1p1p/p1p1p1p1/1p1p1p1p/P1P1P1P1/1P1P1P1P/P1P1P1P1/1P1P1P1P w",
                              "8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/8/", "/8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/7",
                              "8/8/8/8/8/8/8/9", "8/8/8/8/8/8/8/44", "8/8/8/8/8/8/8", "", " 8/8/8/8/8/8/8/8",
                              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRx",
                              "8/8/8/8/8/8/8/8\t", "8/8/8/8/8/8/8/8;", "1pppppp1/8/8/8/8/8/8/1PPPPPP1 "}) {
    expect_same_placement(s, compared);
  }
  EXPECT_GT(accepted, 20000);   // nearly every real line
  EXPECT_GT(compared, 200000);
}

}  // namespace
}  // namespace fenmill
