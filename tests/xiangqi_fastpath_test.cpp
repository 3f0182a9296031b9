// The Xiangqi placement readers (xiangqi/placement_fast.h): the AVX2 one must agree with the scalar loop (verdict,
// bitboards, letter sets, end) on real lines (the bundled sample and, when present, the shared data's
// puzzles and [FEN] tags), every one-byte change of them, truncations, random strings over the placement alphabet,
// every byte value in every place, placements of every length, and texts ending right before an unreadable page.
#include <gtest/gtest.h>


#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "fen/placement_fast.h"
#include "guarded_page.h"
#include "xiangqi/placement_fast.h"

namespace fenmill::xiangqi {
namespace {

namespace fs = std::filesystem;

// The bundled sample, the wukong puzzles and the CCPD [FEN] tags (those two only when ../shared/data is there).
std::vector<std::string> sample_lines() {
  std::vector<std::string> lines;
  auto read = [&](const fs::path& path, bool tags) {
    std::ifstream in(path, std::ios::binary);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (tags) {
        if (line.rfind("[FEN \"", 0) != 0) continue;
        line = line.substr(6, line.find('"', 6) - 6);
      }
      if (!line.empty()) lines.push_back(line);
    }
  };
  read(fs::path(FENMILL_SOURCE_DIR) / "tests/data/xiangqi_sample.fen", false);
  const fs::path shared = fs::path(FENMILL_SHARED_DATA) / "xiangqi";
  read(shared / "wukong/puzzles_verified.fen", false);
  for (const char* name : {"ccpd_computer_games.pgn", "ccpd_endgame.pgn", "ccpd_opening.pgn", "ccpd_world_cup.pgn"})
    read(shared / "ccpd" / name, true);
  return lines;
}

class XiangqiPlacementReader : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!placement_avx2_supported()) GTEST_SKIP() << "this CPU cannot run the AVX2 reader";
  }
  // `text` is read in place: its bytes are [data, data + size) wherever they are.
  void expect_same(std::string_view text) {
    Position a, b;
    a.clear();
    b.clear();
    std::uint8_t seen_a = 0xee, seen_b = 0xee;
    const char *after_a = nullptr, *after_b = nullptr;
    const char* end = text.data() + text.size();
    const bool vector = parse_placement_avx2(text.data(), end, a, seen_a, after_a);
    const bool scalar = parse_placement_scalar(text.data(), end, b, seen_b, after_b);
    std::size_t length = text.find_first_of(" \t");
    if (length == std::string_view::npos) length = text.size();
    if (length >= 64) {
      ASSERT_FALSE(vector) << text;
      return;
    }
    ASSERT_EQ(vector, scalar) << text;
    ++compared;
    if (!vector) {  // neither wrote anything
      ASSERT_TRUE(a == b) << text;
      ASSERT_EQ(seen_a, 0xee) << text;
      ASSERT_EQ(after_a, nullptr) << text;
      return;
    }
    ++accepted;
    ASSERT_EQ(after_a, after_b) << text;
    ASSERT_EQ(seen_a, seen_b) << text;
    for (int t = 0; t < kPieceTypeCount; ++t) ASSERT_TRUE(a.by_type[t] == b.by_type[t]) << text << " type " << t;
    ASSERT_TRUE(a.by_color[kRed] == b.by_color[kRed]) << text;
    ASSERT_TRUE(a.by_color[kBlack] == b.by_color[kBlack]) << text;
  }
  int compared = 0, accepted = 0;
};

// Valid placements of every length, 19 to 99 characters: rank k holds up to 9 characters ("9", "p8", ...,
// "ppppppppp"), alternating where the pieces go, with every letter of both sets.
std::vector<std::string> placements_by_length() {
  const std::string letters = "rnbakabnrcpRNBAKABNRCPehEH";
  std::vector<std::string> out;
  for (int length = 19; length <= 99; ++length) {
    std::string placement;
    int extra = length - 19;  // characters beyond one per rank
    for (int rank = 0; rank < kRankCount; ++rank) {
      const int n = 1 + std::min(extra, 8);
      extra -= n - 1;
      std::string text = n == 9 ? "" : std::to_string(10 - n);
      for (int i = n == 9 ? 0 : 1; i < n; ++i)
        text.insert(rank % 2 ? text.end() : text.begin(), letters[(rank * 9 + i) % letters.size()]);
      placement += (rank ? "/" : "") + text;
    }
    out.push_back(placement);
  }
  return out;
}

const std::string kAlphabet = std::string("kabenhrcpKABENHRCP1234567899/ \t0xXQq\x80\xff", 37);

TEST_F(XiangqiPlacementReader, AgreesWithTheScalarLoop) {
  std::vector<std::string> lines = sample_lines();
  ASSERT_GE(lines.size(), 200u);
  std::mt19937 rng(7);
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string& line = lines[n];
    expect_same(line);
    std::string wxf = line;  // the other letter set, and both mixed
    for (char& c : wxf) c = c == 'B' ? 'E' : c == 'n' ? 'h' : c;
    expect_same(wxf);
    // Every one-byte change of the placement and the byte after it, on every 4th line (the test's time).
    const std::size_t changed = n % 4 ? 0 : std::min(line.size(), line.find(' ') == std::string::npos ? line.size() : line.find(' ') + 2);
    for (std::size_t i = 0; i < changed; ++i) {
      std::string mutated = line;
      for (char c : {'/', '1', '8', '9', 'p', 'E', ' ', 'x'}) {
        mutated[i] = c;
        expect_same(mutated);
      }
      mutated = line;
      mutated.erase(i, 1);  // deleted
      expect_same(mutated);
      mutated = line;
      mutated.insert(i, 1, kAlphabet[rng() % kAlphabet.size()]);  // inserted
      expect_same(mutated);
    }
    std::string mutated = line;
    std::swap(mutated[rng() % mutated.size()], mutated[rng() % mutated.size()]);  // e.g. a '/' one place off
    expect_same(mutated);
    for (std::size_t n = 0; n <= line.size(); ++n) expect_same(std::string_view(line).substr(0, n));  // the text may end anywhere
  }
  EXPECT_GT(accepted, static_cast<int>(lines.size()));
  for (int i = 0; i < 300000; ++i) {  // random strings, mostly ranks of digits and letters
    std::string s;
    for (int n = static_cast<int>(rng() % 70); n > 0; --n) s.push_back(kAlphabet[rng() % 29]);
    expect_same(s);
  }
  // Random valid-looking ranks: 10 ranks of 1 to 9 characters, sums near 9.
  for (int i = 0; i < 200000; ++i) {
    std::string s;
    for (int rank = 0; rank < kRankCount; ++rank) {
      if (rank) s.push_back('/');
      int points = 0;
      while (points < 9 && (rng() % 16 != 0)) {
        const bool digit = (s.empty() || !std::isdigit(static_cast<unsigned char>(s.back()))) && rng() % 3 == 0;
        if (digit) {
          const int n = 1 + static_cast<int>(rng() % std::min(9, 9 - points + (rng() % 8 == 0)));
          s.push_back(static_cast<char>('0' + n));
          points += n;
        } else {
          s.push_back("kabenhrcpKABENHRCP"[rng() % 18]);
          ++points;
        }
      }
    }
    if (rng() % 2) s += " w";
    expect_same(s);
  }
  // Hand-made edge cases: a '9' in each place, slashes at the ends, 63/64 characters.
  for (const std::string& s : std::initializer_list<std::string>{
           "9/9/9/9/9/9/9/9/9/9", "9/9/9/9/9/9/9/9/9/9 w", "9/9/9/9/9/9/9/9/9/9/", "/9/9/9/9/9/9/9/9/9/9", "9/9/9/9/9/9/9/9/9",
        "9/9/9/9/9/9/9/9/9/8", "9/9/9/9/9/9/9/9/9/p8", "9p/8/9/9/9/9/9/9/9/9", "p9/9/9/9/9/9/9/9/9/8", "9/9/9/9/9/9/9/9/9/91",
        "9/9/9/9/9/9/9/9/9/19", "8/9/9/9/9/9/9/9/9/99", "9/9/9/9/9/9/9/9/9/9p", "9/9/9/9/9/9/9/9/9//9", "9//9/9/9/9/9/9/9/9/9",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRx", "9/9/9/9/9/9/9/9/9/9\t", "9/9/9/9/9/9/9/9/9/9;",
        "9/9/9/9/9/9/9/9/9/9\r", std::string("9/9/9/9/9/9/9/9/9/9\0", 20), "4k4/9/9/9/9/9/9/9/9/4K4", "4k4/9/9/9/9/9/9/9/9/4K40",
        "0/9/9/9/9/9/9/9/9/9", "10/9/9/9/9/9/9/9/9/9", "9/9/9/9/9/9/9/9/9/9/9", "54/9/9/9/9/9/9/9/9/9", "45/9/9/9/9/9/9/9/9/9"}) {
    expect_same(s);
  }
  EXPECT_GT(compared, 500000);
}

// Every byte value (bytes >= 0x80 included) in every place of a placement and as its terminator (only a blank ends
// it: TAB yes, CR and NUL no), and placements of 19 to 99 characters.
TEST_F(XiangqiPlacementReader, AgreesOnEveryByteAndLength) {
  for (const std::string start : {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
                                  "9/4k4/9/9/9/9/9/9/9/4K4", "4k4/9/9/9/9/9/9/9/9/3K5"}) {
    for (int byte = 0; byte < 256; ++byte) {
      for (std::size_t i = 0; i <= start.size(); ++i) {
        std::string s = start + " w";
        s[i] = static_cast<char>(byte);
        expect_same(s);
        expect_same(s.substr(0, start.size() + 1));
      }
    }
  }
  EXPECT_GT(accepted, 3 * 256 * 2);  // the position itself, whenever the byte was a blank
  std::vector<std::string> placements = placements_by_length();
  ASSERT_EQ(placements.size(), 99u - 19u + 1u);
  for (const std::string& s : placements) {
    SCOPED_TRACE(s);
    int before = accepted;
    expect_same(s);
    expect_same(s + " w");
    expect_same(s + "/9");
    EXPECT_EQ(accepted - before, s.size() < 64 ? 2 : 0);
  }
}

// The reader may read the 64 bytes from p when they share p's page, whatever lies past `end`, but never touches the
// next page: a text ending right before an inaccessible page, or ending a few bytes earlier with placement
// characters after it (which must count as the end), reads the same as anywhere else.
TEST_F(XiangqiPlacementReader, StopsAtTheEndOfTheTextAndOfThePage) {
  std::vector<std::string> lines = sample_lines();
  lines.resize(200);
  check_at_page_end(page_end_texts(placements_by_length(), lines), {'9', '/', 'p', ' ', '\0'}, 70,
                    [&](std::string_view text) { expect_same(text); });
  EXPECT_GT(accepted, 200 * 71 * 5);
}

}  // namespace
}  // namespace fenmill::xiangqi
