// normalize_fen is inline (src/fen/normalize.h) with its rare steps out of line, and hands its NormalizeOptions to
// the parser as they are. Whatever path a record takes, the NormalizeResult (every field) and the position it
// leaves must be exactly those of normalize_fen as it stood before (tests/normalize_reference.h): on real records
// (tests/data, bench/data, the FEN and EPD files of ../shared/data) and on mutations of them (en-passant squares,
// castling fields, clocks, EPD clock operations, random bytes), under every option (ep policy, repair, chess960,
// EPD operations). The counts at the end make sure every path was taken.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "fen/normalize.h"
#include "normalize_reference.h"

namespace fenmill {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> read_lines(const fs::path& path, std::size_t limit) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; lines.size() < limit && std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

std::vector<std::string> repo_lines() {
  std::vector<std::string> lines;
  for (const char* name : {"/tests/data/demo.fen", "/tests/data/not_in_check_sample.fen", "/bench/data/lichess-20k.fen"})
    for (std::string& line : read_lines(std::string(FENMILL_SOURCE_DIR) + name, 20000)) lines.push_back(std::move(line));
  return lines;
}

// Variations of a record that take normalize_fen's other paths.
class Mutator {
 public:
  explicit Mutator(unsigned seed) : rng_(seed) {}

  std::vector<std::string> variants(const std::string& line) {
    std::vector<std::string> out;
    const std::vector<std::string> f = fields(line);
    if (f.size() >= 4) {
      // An en-passant square, possible or not (the ep policy decides which survive).
      static const char* kEp[] = {"e3", "d6", "a3", "h6", "c6", "f3", "e4"};
      out.push_back(join(f, 3, kEp[below(7)]));
      // Castling fields: standard, X-FEN / Shredder letters, an unusual order, none.
      static const char* kCastling[] = {"KQkq", "qkQK", "HAha", "Kk", "-", "Q", "KQkq"};
      out.push_back(join(f, 2, kCastling[below(7)]));
      // Four fields, then EPD clock operations or others (allow_operations); clocks with leading zeros.
      static const char* kTail[] = {" hmvc 3; fmvn 12;", " fmvn 0;", " hmvc 200; fmvn 7;", " id \"x\";",
                                    " hmvc 03;", " 0 1", " 05 01", " 0 0", " 101 1", " bm e4;"};
      out.push_back(first_fields(f, 4) + kTail[below(10)]);
    }
    std::string s = line;  // one byte changed
    s[below(s.size())] = kAlphabet[below(sizeof kAlphabet - 1)];
    out.push_back(s);
    s = line;  // one byte removed, one added
    s.erase(below(s.size()), 1);
    s.insert(below(s.size() + 1), 1, kAlphabet[below(sizeof kAlphabet - 1)]);
    out.push_back(s);
    out.push_back(line.substr(0, below(line.size() + 1)));  // cut anywhere
    return out;
  }

 private:
  static constexpr char kAlphabet[] = "pnbrqkPNBRQK12345678/ -wbKQkqa-h036;\t\r";
  std::size_t below(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  static std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < line.size();) {
      const std::size_t j = std::min(line.find(' ', i), line.size());
      if (j > i) out.push_back(line.substr(i, j - i));
      i = j + 1;
    }
    return out;
  }
  static std::string first_fields(const std::vector<std::string>& f, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n && i < f.size(); ++i) out += (i ? " " : "") + f[i];
    return out;
  }
  static std::string join(std::vector<std::string> f, std::size_t index, const std::string& field) {
    f[index] = field;
    return first_fields(f, f.size());
  }
  std::mt19937 rng_;
};

struct Counts {
  long compared = 0, parse_errors = 0, clock_operations = 0, invalid = 0, chess960_hints = 0, ep_dropped = 0,
       ep_kept = 0, canonical = 0, repaired = 0;
};

void expect_same(const std::string& text, Counts& counts) {
  for (bool allow_operations : {false, true})
    for (bool chess960 : {false, true})
      for (bool repair : {false, true})
        for (EpPolicy ep : {EpPolicy::kLegal, EpPolicy::kPseudo, EpPolicy::kKeep}) {
          NormalizeOptions options;
          options.ep = ep;
          options.repair = repair;
          options.chess960 = chess960;
          options.allow_operations = allow_operations;
          Position inline_pos, reference_pos;
          const NormalizeResult a = normalize_fen(text, inline_pos, options);
          const NormalizeResult b = normalize_reference::normalize_fen(text, reference_pos, options);
          const auto trace = [&] {
            return "record \"" + text + "\" ep " + std::to_string(static_cast<int>(ep)) + " repair " +
                   std::to_string(repair) + " chess960 " + std::to_string(chess960) + " operations " +
                   std::to_string(allow_operations);
          };
          ASSERT_EQ(a.code, b.code) << trace();
          ASSERT_EQ(a.column, b.column) << trace();
          ASSERT_EQ(a.fields, b.fields) << trace();
          ASSERT_EQ(a.repairs, b.repairs) << trace();
          ASSERT_EQ(a.hints, b.hints) << trace();
          ASSERT_EQ(a.squares, b.squares) << trace();
          ASSERT_EQ(a.rest, b.rest) << trace();
          ASSERT_EQ(a.placement_length, b.placement_length) << trace();
          ASSERT_EQ(a.canonical, b.canonical) << trace();
          ASSERT_EQ(a.operations_as_written, b.operations_as_written) << trace();
          ASSERT_TRUE(inline_pos == reference_pos) << trace();
          ++counts.compared;
          Position parsed_only;
          const ParseResult pr = parse_fen(text, parsed_only, options);
          counts.parse_errors += !pr.ok();
          counts.clock_operations += pr.ok() && allow_operations && pr.rest < text.size();
          counts.invalid += pr.ok() && !a.ok();
          counts.chess960_hints += (a.hints & kHintChess960) != 0;
          counts.ep_dropped += a.ok() && parsed_only.ep_square != kNoSquare && inline_pos.ep_square == kNoSquare;
          counts.ep_kept += a.ok() && inline_pos.ep_square != kNoSquare;
          counts.canonical += a.canonical;
          counts.repaired += a.ok() && a.repairs != 0;
        }
}

void check(const std::vector<std::string>& lines, unsigned seed, Counts& counts) {
  Mutator mutator(seed);
  for (const std::string& line : lines) {
    expect_same(line, counts);
    if (::testing::Test::HasFatalFailure()) return;
    for (const std::string& variant : mutator.variants(line)) {
      expect_same(variant, counts);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

void expect_every_path(const Counts& c) {
  EXPECT_GT(c.parse_errors, 0);
  EXPECT_GT(c.clock_operations, 0);
  EXPECT_GT(c.invalid, 0);
  EXPECT_GT(c.chess960_hints, 0);
  EXPECT_GT(c.ep_dropped, 0);
  EXPECT_GT(c.ep_kept, 0);
  EXPECT_GT(c.canonical, 0);
  EXPECT_GT(c.repaired, 0);
}

TEST(NormalizeInline, SameResultAsBeforeOnRepositoryRecords) {
  const std::vector<std::string> lines = repo_lines();
  ASSERT_GT(lines.size(), 20000u);
  Counts counts;
  check(lines, 19, counts);
  EXPECT_GT(counts.compared, 20000 * 7 * 24);
  expect_every_path(counts);
}

TEST(NormalizeInline, SameResultAsBeforeOnSharedData) {
  const fs::path shared = FENMILL_SHARED_DATA;
  if (!fs::is_directory(shared)) GTEST_SKIP() << shared << " is not available";
  std::vector<std::string> lines;
  for (const char* dir : {"fen", "epd"}) {
    if (!fs::is_directory(shared / dir)) continue;
    for (const auto& entry : fs::directory_iterator(shared / dir))
      for (std::string& line : read_lines(entry.path(), 3000)) lines.push_back(std::move(line));
  }
  ASSERT_GT(lines.size(), 10000u);
  Counts counts;
  check(lines, 23, counts);
  expect_every_path(counts);
}

}  // namespace
}  // namespace fenmill
