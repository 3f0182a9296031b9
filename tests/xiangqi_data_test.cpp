// Real Xiangqi FENs: the bundled sample (always), and the wukong puzzles, perft positions and CCPD [FEN] tags
// from ../shared/data (skipped without it). Every record is parsed and validated with exact counts per code;
// every record must be recognised as Xiangqi; every valid one must round-trip: write -> parse -> write identical in both letter sets, encode -> decode
// identical, the same dedup key after the round trip, and distinct keys for distinct positions.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "xiangqi/detect.h"
#include "xiangqi/keys.h"
#include "xiangqi/normalize.h"
#include "xiangqi/record.h"

namespace fenmill::xiangqi {
namespace {

namespace fs = std::filesystem;

const fs::path kShared = FENMILL_SHARED_DATA;
const fs::path kXiangqi = kShared / "xiangqi";

enum class Extract { kLines, kPerft, kFenTags };

// The FENs of a file: every non-empty line; the unindented FEN lines of xiangqi_perft.txt; or the values
// of [FEN "..."] tags (the CCPD files are Big5, but the tag lines are ASCII).
std::vector<std::string> read_fens(const fs::path& path, Extract how) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  std::vector<std::string> fens;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    switch (how) {
      case Extract::kLines:
        fens.push_back(line);
        break;
      case Extract::kPerft:
        if (line[0] != ' ' && line.find('/') != std::string::npos) fens.push_back(line);
        break;
      case Extract::kFenTags:
        if (line.rfind("[FEN \"", 0) == 0) {
          std::size_t close = line.find('"', 6);
          if (close != std::string::npos) fens.push_back(line.substr(6, close - 6));
        }
        break;
    }
  }
  return fens;
}

struct Tally {
  std::map<std::string, int> by_code;
  std::set<std::string> distinct_fens;        // normalized, valid only
  std::set<std::pair<std::uint64_t, std::uint64_t>> distinct_keys;
};

// Checks every round trip of one FEN and counts its verdict.
void check(const std::string& fen, Tally& tally) {
  SCOPED_TRACE(fen);
  EXPECT_TRUE(looks_like_xiangqi(fen)) << "--variant auto would take it for chess";
  Position pos;
  NormalizeResult r = normalize_fen(fen, pos);
  ++tally.by_code[std::string(error_name(r.code))];
  if (!r.ok()) return;
  std::string ucci = to_fen(pos, Letters::kUcci);
  std::string wxf = to_fen(pos, Letters::kWxf);
  for (const std::string& text : {ucci, wxf}) {
    Position again;
    ASSERT_TRUE(normalize_fen(text, again).ok()) << text;
    EXPECT_TRUE(again == pos) << text;
    EXPECT_EQ(to_fen(again, Letters::kUcci), ucci);
    EXPECT_EQ(to_fen(again, Letters::kWxf), wxf);
    EXPECT_EQ(dedup_key(again, KeyLevel::kFull), dedup_key(pos, KeyLevel::kFull));
  }
  std::array<std::uint8_t, kRecordSize> record, again_record;
  encode_record(pos, record.data());
  Position decoded;
  ASSERT_TRUE(decode_record(record.data(), decoded));
  EXPECT_TRUE(decoded == pos);
  encode_record(decoded, again_record.data());
  EXPECT_EQ(again_record, record);
  tally.distinct_fens.insert(ucci);
  Key128 key = dedup_key(pos, KeyLevel::kFull);
  tally.distinct_keys.insert({key.lo, key.hi});
}

Tally run(const std::vector<std::string>& fens) {
  Tally tally;
  for (const std::string& fen : fens) check(fen, tally);
  // One key per distinct position: no collisions, and no two keys for one position.
  EXPECT_EQ(tally.distinct_keys.size(), tally.distinct_fens.size());
  return tally;
}

using Counts = std::map<std::string, int>;

TEST(XiangqiData, BundledSample) {
  // tests/data/xiangqi_sample.fen: wukong puzzles 1-200 and 3121, 3126 (tests/data/SOURCES.md).
  auto fens = read_fens(fs::path(FENMILL_SOURCE_DIR) / "tests/data/xiangqi_sample.fen", Extract::kLines);
  ASSERT_EQ(fens.size(), 202u);
  Tally t = run(fens);
  // The two rejected ones start "12ba1a3/" and "19/": a stray '1' before the first rank (two digits in a row).
  EXPECT_EQ(t.by_code, (Counts{{"OK", 200}, {"BAD_PIECE", 2}}));
}

TEST(XiangqiData, WukongPuzzles) {
  if (!fs::exists(kXiangqi)) GTEST_SKIP() << "no " << kXiangqi;
  auto fens = read_fens(kXiangqi / "wukong/puzzles_verified.fen", Extract::kLines);
  ASSERT_EQ(fens.size(), 3429u);
  Tally t = run(fens);
  // 9 puzzles (lines 1057, 2952, 2984, 3002, 3063, 3121, 3126, 3402, 3426) write their first rank with a stray
  // leading '1' ("15k3", "12bk1a3", "19"): two digits in a row, and 10 points even if read as a sum.
  EXPECT_EQ(t.by_code, (Counts{{"OK", 3420}, {"BAD_PIECE", 9}}));
}

TEST(XiangqiData, WukongPerft) {
  if (!fs::exists(kXiangqi)) GTEST_SKIP() << "no " << kXiangqi;
  auto fens = read_fens(kXiangqi / "wukong/xiangqi_perft.txt", Extract::kPerft);
  ASSERT_EQ(fens.size(), 2u);
  EXPECT_EQ(run(fens).by_code, (Counts{{"OK", 2}}));
}

TEST(XiangqiData, CcpdFenTags) {
  if (!fs::exists(kXiangqi)) GTEST_SKIP() << "no " << kXiangqi;
  struct File {
    const char* name;
    std::size_t tags;
    Counts counts;
  };
  // ccpd_opening.pgn: 5 games give the start position without Red's general ("RNBA1ABNR"), one has a
  // Black advisor on g0 in Red's back rank ("RNBAKAaNR"), one a Red elephant on g1, which no elephant
  // reaches (from g0 it jumps to e2 or i2).
  const File files[] = {
      {"ccpd_computer_games.pgn", 208, {{"OK", 208}}},
      {"ccpd_endgame.pgn", 244, {{"OK", 244}}},
      {"ccpd_opening.pgn", 961, {{"OK", 954}, {"MISSING_KING", 5}, {"XQ_ADVISOR_POINT", 1}, {"XQ_ELEPHANT_POINT", 1}}},
      {"ccpd_world_cup.pgn", 1389, {{"OK", 1389}}},
  };
  for (const File& f : files) {
    SCOPED_TRACE(f.name);
    auto fens = read_fens(kXiangqi / "ccpd" / f.name, Extract::kFenTags);
    ASSERT_EQ(fens.size(), f.tags);
    EXPECT_EQ(run(fens).by_code, f.counts);
  }
}

TEST(XiangqiData, CcpdRejectionsByHand) {
  if (!fs::exists(kXiangqi)) GTEST_SKIP() << "no " << kXiangqi;
  Position pos;
  NormalizeResult r =
      normalize_fen("rnb1kabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAaNR w - - 0 1", pos);
  EXPECT_EQ(error_name(r.code), "XQ_ADVISOR_POINT");
  EXPECT_EQ(r.squares, square_bb(make_square(6, 0)));  // g0
  r = normalize_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/6B2/RNBAKA1NR w - - 0 1", pos);
  EXPECT_EQ(error_name(r.code), "XQ_ELEPHANT_POINT");
  EXPECT_EQ(r.squares, square_bb(make_square(6, 1)));  // g1
}

}  // namespace
}  // namespace fenmill::xiangqi
