// The fast read of a Xiangqi record's common trailer " w - - H F" (xiangqi/trailer_fast.h) must give what the field
// loop gives: parse_fen on a record against parse_fen on the same record with the blank after the placement
// doubled (the fast read then declines and the loop reads every field), for real placements with many trailers,
// every one-byte change of the trailer, both modes (repair, EPD operations), and clocks at their limits.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "xiangqi/parse.h"
#include "xiangqi/trailer_fast.h"

namespace fenmill::xiangqi {
namespace {

std::vector<std::string> placements() {
  std::vector<std::string> out;
  std::ifstream in(std::string(FENMILL_SOURCE_DIR) + "/tests/data/xiangqi_sample.fen");
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line.substr(0, line.find(' ')));
  return out;
}

int fast_reads = 0;

void expect_same(const std::string& placement, const std::string& trailer, const ParseOptions& options) {
  const std::string text = placement + trailer;
  // "  w ...": the loop. A trailer not starting with a blank is the loop's anyway (and another blank would change it).
  const bool blank = !trailer.empty() && (trailer[0] == ' ' || trailer[0] == '\t');
  const std::string slow_text = placement + (blank ? " " : "") + trailer;
  Position fast, slow;
  const ParseResult a = parse_fen(text, fast, options);
  const ParseResult b = parse_fen(slow_text, slow, options);
  const std::uint32_t shift = blank ? 1 : 0;
  auto shifted = [&](std::uint32_t offset) { return offset > placement.size() ? offset + shift : offset; };
  ASSERT_EQ(a.code, b.code) << text;
  ASSERT_EQ(shifted(a.column), b.column) << text;
  ASSERT_EQ(a.fields, b.fields) << text;
  ASSERT_EQ(shifted(a.rest), b.rest) << text;
  ASSERT_EQ(a.letters_seen, b.letters_seen) << text;
  ASSERT_EQ(a.clock_repaired, b.clock_repaired) << text;
  if (a.ok()) {
    ASSERT_TRUE(fast == slow) << text;
  }
  Position direct;
  direct.clear();
  const bool placement_read = a.ok() || a.fields > 1;  // (a bad placement stops parse_fen before the trailer)
  if (placement_read && read_trailer_fast(trailer.data(), trailer.data() + trailer.size(), direct)) {
    ++fast_reads;
    ASSERT_TRUE(a.ok() && a.fields == 6 && a.rest == text.size()) << text;
    ASSERT_EQ(direct.side_to_move, fast.side_to_move) << text;
    ASSERT_EQ(direct.halfmove_clock, fast.halfmove_clock) << text;
    ASSERT_EQ(direct.fullmove_number, fast.fullmove_number) << text;
  }
}

TEST(XiangqiTrailer, FastReadAgreesWithTheFieldLoop) {
  const std::vector<std::string> all = placements();
  ASSERT_GE(all.size(), 200u);
  const std::vector<std::string> trailers = {
      " w - - 0 1", " b - - 0 1", " r - - 0 1", " w - - 12 34", " b - - 65535 1000000", " w - - 65536 1",
      " w - - 0 1000001", " w - - 0 0", " w - - 00 01", " w - - 1234567 1", " w - - 12345678 1", " w - - 1 12345678",
      " w - - - 1", " w - - 1 -", " w - - - -", " w - - 5 9;", " w - - 5 9 ;", " w - - 5 9 x", " w - - 5", " w - - 5 ",
      " w - - 5 9 ", " w - - 5  9", " w - - 5\t9", " w - -  5 9", " w -  - 5 9", " W - - 0 1", " x - - 0 1",
      " wb - - 0 1", " w - - 0 1 0", " w - - 0x 1", " w - - +1 1", " w - - 1 +1", " w - -", " w - - ", " w -", " w",
      " w - - hmvc 3;", " w - -; hmvc 3;", " w - - 5 9; id \"x\";", " w 0 1", " w - 0 1", " w -- 0 1", " w - - 9 99999999",
      " w - - 4294967296 1", " w - - 1 4294967297", "", " b - - 0 1\t", " b - - 0 1\r", std::string(" b - - 0 1\0", 11)};
  std::mt19937 rng(70);
  const std::string alphabet = std::string(" \t-wbrx0123456789;", 18);
  for (bool repair : {false, true})
    for (bool operations : {false, true}) {
      ParseOptions options;
      options.repair = repair;
      options.allow_operations = operations;
      for (std::size_t i = 0; i < all.size(); ++i) {
        const std::string& placement = all[i];
        for (const std::string& trailer : trailers) expect_same(placement, trailer, options);
        // Every one-byte change of a trailer with random clocks, on every 10th placement.
        if (i % 10) continue;
        const std::string trailer = std::string(" ") + "wbr"[rng() % 3] + " - - " + std::to_string(rng() % 70000) + " " +
                                    std::to_string(rng() % 1000002);
        for (std::size_t k = 0; k < trailer.size(); ++k)
          for (char c : alphabet) {
            std::string changed = trailer;
            changed[k] = c;
            expect_same(placement, changed, options);
            changed = trailer;
            changed.insert(k, 1, c);
            expect_same(placement, changed, options);
          }
      }
    }
  EXPECT_GT(fast_reads, 4 * 198 * 6);
}

}  // namespace
}  // namespace fenmill::xiangqi
