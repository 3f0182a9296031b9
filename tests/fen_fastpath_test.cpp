// The parser has a fast path for the common layout (single spaces) and falls back to the careful parser for
// anything else. Doubling every space forces the careful path: both must give the same verdict, column offset
// aside, and the same normalized FEN, on real positions and on mutated ones.
#include <gtest/gtest.h>


#include <algorithm>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "fen/normalize.h"
#include "fen/parse.h"
#include "fen/placement_fast.h"
#include "fen/write_placement.h"
#include "guarded_page.h"

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

// A record the normalizer calls canonical is copied to FEN output as it came: it must be write_fen's text.
void expect_canonical_is_written_text(std::string_view line, const NormalizeResult& r, const Position& pos,
                                      int& canonical) {
  if (!r.canonical) return;
  ++canonical;
  ASSERT_EQ(std::string(line.substr(0, r.rest)), to_fen(pos)) << line;
  ASSERT_EQ(std::string(line.substr(0, r.rest)), to_fen(pos, CastlingNotation::kShredder)) << line;
}

void expect_same(const std::string& line, int& accepted, int& vouched, int& canonical) {
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
      expect_canonical_is_written_text(line, a, fast, canonical);
      expect_canonical_is_written_text(doubled_spaces(line), b, careful, canonical);
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
  int accepted = 0, vouched = 0, canonical = 0;
  for (const std::string& line : lines) {
    expect_same(line, accepted, vouched, canonical);
    std::string mutated = line;  // one random byte changed: mostly invalid, sometimes another valid position
    mutated[rng() % mutated.size()] = alphabet[rng() % alphabet.size()];
    expect_same(mutated, accepted, vouched, canonical);
  }
  EXPECT_GT(accepted, 100000);
  EXPECT_GT(vouched, 100000);
  EXPECT_GT(canonical, 100000);
}

// EPD: the fast path also reads four fields and the operations after one space. Doubling the first space forces
// the careful path: same verdict, position, repairs, field count and operations' start (`rest`, one byte on), on
// EPD records made from the sample's lines (with id/c0/hmvc/fmvn operations, or none, or clocks) and on one-byte
// mutations of them.
std::string epd_record(const std::string& fen, int variant) {
  std::string fields = fen.substr(0, fen.find(' '));
  std::size_t at = 0;
  for (int k = 0; k < 4; ++k) at = fen.find(' ', at + 1);
  fields = fen.substr(0, at == std::string::npos ? fen.size() : at);
  switch (variant % 5) {
    case 0: return fields + " id \"sample " + std::to_string(variant) + "\"; c0 \"a; b\";";
    case 1: return fields + " hmvc 3; fmvn 17; bm e4;";
    case 2: return fields;
    case 3: return fen;  // clocks as EPD fields 5 and 6
    default: return fields + " Bm Nf3; ce -15;";
  }
}

TEST(FenFastPath, EpdRecordsReadAsTheCarefulPathReadsThem) {
  std::vector<std::string> lines = sample_lines();
  std::mt19937 rng(17);
  const std::string alphabet = "pnbrqkPNBRQK12345678/ -wbKQkqAHah36e0;\"ix";
  int accepted = 0, with_operations = 0;
  NormalizeOptions options;
  options.allow_operations = true;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string record = epd_record(lines[i], static_cast<int>(i));
    for (int round = 0; round < 2; ++round) {
      if (round == 1) record[rng() % record.size()] = alphabet[rng() % alphabet.size()];
      const std::string careful_text = doubled_spaces(record.substr(0, record.find(' ') + 1)) +
                                       record.substr(record.find(' ') + 1);
      Position fast, careful;
      NormalizeResult a = normalize_fen(record, fast, options);
      NormalizeResult b = normalize_fen(careful_text, careful, options);
      ASSERT_EQ(a.code, b.code) << record;
      if (!a.ok()) continue;
      ++accepted;
      ASSERT_EQ(to_fen(fast), to_fen(careful)) << record;
      ASSERT_EQ(a.repairs, b.repairs) << record;
      ASSERT_EQ(a.fields, b.fields) << record;
      ASSERT_EQ(a.operations_as_written, b.operations_as_written) << record;
      ASSERT_EQ(a.rest + 1, b.rest) << record;
      with_operations += a.rest < record.size();
      if (a.placement_length != 0) {
        ASSERT_EQ(record.substr(0, a.placement_length), to_fen(fast).substr(0, a.placement_length)) << record;
      }
    }
  }
  EXPECT_GT(accepted, 25000);
  EXPECT_GT(with_operations, 12000);
}

// Which records are copied to FEN output as they came: only those whose six fields are written exactly so.
TEST(FenFastPath, CanonicalOnlyWhenTheTextIsWhatTheWriterWrites) {
  struct Case {
    const char* text;
    bool canonical;
  };
  const Case cases[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\r", true},  // trailing CR: not part of the text
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1", true},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QKkq - 0 1", false},  // written KQkq
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ - 0 1", false},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", false},  // written KQkq
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 00 1", false},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 01", false},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10 20", true},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", false},         // written with " 0 1"
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false},  // no capture: ep dropped
      {"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", true},  // d4xe3 is legal
      {"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", true},
      {"4k3/8/8/8/8/8/8/R3K1R1 w KQ - 0 1", false},  // repaired: no h1 rook
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1", false},  // the careful path
  };
  for (const Case& c : cases) {
    std::string text = c.text;
    NormalizeOptions options;
    options.repair = true;
    Position pos;
    NormalizeResult r = normalize_fen(text, pos, options);
    ASSERT_TRUE(r.ok()) << text;
    EXPECT_EQ(r.canonical, c.canonical) << text;
    if (r.canonical) {
      EXPECT_EQ(std::string(text.substr(0, r.rest)), to_fen(pos)) << text;
    }
  }
}

// The castling field: the fast path reads the writer's standard fields ("K" to "KQkq") from a table and every other
// field letter by letter. Every field of up to 4 bytes from castling letters, file letters and stray bytes (of 5
// bytes: from castling letters, '-' and blanks), under kings on e1/e8, elsewhere on the back rank, off it, doubled or
// missing, with and without X-FEN, and with the text ending right after the field or not: same verdict, fields and
// position as the careful parser (the record with its spaces doubled), and a record called canonical is write_fen's
// text (with the kings on e1/e8 exactly those).
TEST(FenFastPath, EveryCastlingFieldReadAsTheCarefulParserReadsIt) {
  const std::string alphabet = std::string("KQkqHa-x ") + '\0';
  const char* placements[] = {
      "r3k2r/8/8/8/8/8/8/R3K2R",          // kings on e1 / e8: KQkq are the corner rooks
      "rk2r3/8/8/8/8/8/8/1R2K2R",         // black king on b8: K/Q read as the outermost rook
      "r3k2r/8/8/8/8/8/8/RK2K2R",         // two white kings on the back rank: the lowest (b1) counts
      "4r2r/3k4/8/8/8/8/3K4/R6R",         // kings off their back ranks: standard
      "r3k2r/8/8/8/8/8/8/R6R",            // no white king
      "1r1k2r1/8/8/8/8/8/8/1R1K2R1",      // kings on d1 / d8, inner rooks
  };
  const char* tails[] = {" - 0 1", " -", " e3 12 40", "", " - 00 1"};
  int compared = 0, accepted = 0, fast_canonical = 0;
  std::string field;
  auto check = [&](const std::string& text, bool chess960, bool kings_home) {
    ParseOptions options;
    options.chess960 = chess960;
    Position fast, careful;
    ParseResult a = parse_fen(text, fast, options);
    ParseResult b = parse_fen(doubled_spaces(text), careful, options);
    ++compared;
    ASSERT_EQ(a.code, b.code) << text;
    ASSERT_EQ(a.fields, b.fields) << text;
    if (!a.ok()) return;
    ++accepted;
    ASSERT_TRUE(fast == careful) << text;
    // The writer writes validated positions: it needs a king each (king_square of none is undefined).
    if (!fast.pieces(kWhite, kKing) || !fast.pieces(kBlack, kKing)) return;
    const bool written = text == to_fen(fast);
    if (a.canonical) {
      ASSERT_TRUE(written) << text;
    }
    if (kings_home && !chess960) {
      ASSERT_EQ(a.canonical, written) << text;
    }
    fast_canonical += a.canonical;
  };
  for (int length = 1; length <= 5; ++length) {
    const std::string letters = length < 5 ? alphabet : "KQkq -";  // 5 bytes: the table's end of field
    int count = 1;
    for (int i = 0; i < length; ++i) count *= static_cast<int>(letters.size());
    for (int code = 0; code < count; ++code) {
      field.clear();
      for (int i = 0, c = code; i < length; ++i, c /= static_cast<int>(letters.size())) field.push_back(letters[c % letters.size()]);
      for (const char* placement : placements)
        for (const char* tail : tails)
          for (bool chess960 : {false, true}) {
            if (*tail == 0 && (chess960 || placement != placements[0])) continue;  // 4 fields: one case is enough
            check(std::string(placement) + " w " + field + tail, chess960, placement == placements[0] || placement == placements[3]);
            if (HasFatalFailure()) return;
          }
    }
  }
  EXPECT_GT(compared, 500000);
  EXPECT_GT(accepted, 10000);
  EXPECT_GT(fast_canonical, 50);
}

// The side field is checked as one 3-byte compare (" w " or " b "), and the clocks are stored once at the end of the
// fast path: every byte in the side's place and next to it, with four fields, six, or EPD operations after four,
// gives the careful parser's verdict, fields and position (clocks included).
TEST(FenFastPath, EverySideFieldReadAsTheCarefulParserReadsIt) {
  const std::string placement = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R";
  const char* tails[] = {" KQkq - 0 1", " - - 17 40", " kq -", " - e3", " - - bm e4;", " - -  3 5"};
  int accepted = 0;
  for (int middle = 0; middle < 256; ++middle)
    for (char before : {' ', '\t', 'w'})
      for (char after : {' ', '\t', 'K', '-'})
        for (const char* tail : tails)
          for (bool operations : {false, true}) {
            std::string text = placement + before + static_cast<char>(middle) + after + tail;
            ParseOptions options;
            options.allow_operations = operations;
            Position fast, careful;
            ParseResult a = parse_fen(text, fast, options);
            ParseResult b = parse_fen(doubled_spaces(text), careful, options);
            ASSERT_EQ(a.code, b.code) << text;
            ASSERT_EQ(a.fields, b.fields) << text;
            if (!a.ok()) continue;
            ++accepted;
            ASSERT_TRUE(fast == careful) << text;
          }
  EXPECT_GT(accepted, 30);
}

// The vector placement readers against the scalar loop: same verdict, bitboards and end on every real line,
// every one-byte mutation of it, truncations, and random placement-alphabet strings (the scalar loop also
// takes placements of 64 characters or more, which the vector paths leave to it).
struct VectorReader {
  const char* name;
  bool (*supported)();
  bool (*parse)(const char* p, const char* end, Position& pos, const char*& after);
};

void PrintTo(const VectorReader& reader, std::ostream* out) { *out << reader.name; }  // in test names

class VectorPlacementReader : public ::testing::TestWithParam<VectorReader> {
 protected:
  void SetUp() override {
    if (!GetParam().supported()) GTEST_SKIP() << "this CPU cannot run the " << GetParam().name << " reader";
  }
  // `text` is read in place: its bytes are [data, data + size) wherever they are.
  void expect_same(std::string_view text) {
    Position a, b;
    const char *after_a = nullptr, *after_b = nullptr;
    const char* end = text.data() + text.size();
    bool vector = GetParam().parse(text.data(), end, a, after_a);
    bool scalar = parse_placement_scalar(text.data(), end, b, after_b);
    std::size_t length = text.find_first_of(" \t");
    if (length == std::string_view::npos) length = text.size();
    if (length >= 64) {
      ASSERT_FALSE(vector) << text;
      return;
    }
    ASSERT_EQ(vector, scalar) << text;
    ++compared;
    if (!vector) return;
    ++accepted;
    ASSERT_EQ(after_a, after_b) << text;
    for (int t = 0; t < kPieceTypeCount; ++t) ASSERT_EQ(a.by_type[t], b.by_type[t]) << text;
    ASSERT_EQ(a.by_color[kWhite], b.by_color[kWhite]) << text;
    ASSERT_EQ(a.by_color[kBlack], b.by_color[kBlack]) << text;
  }
  int compared = 0, accepted = 0;
};

// Valid placements of every length, 15 to 71 characters: each rank 1 to 8 characters long ("8", "p7", "2pppppp",
// ..., "pppppppp"), the longest ranks first.
std::vector<std::string> placements_by_length() {
  const std::string letters = "rnbqkpRNBQKPpP";
  std::vector<std::string> out;
  for (int length = 15; length <= 71; ++length) {
    std::string placement;
    int extra = length - 15;  // characters beyond one per rank
    for (int rank = 0; rank < 8; ++rank) {
      const int n = 1 + std::min(extra, 7);
      extra -= n - 1;
      std::string text = n == 8 ? "" : std::to_string(9 - n);
      for (int i = n == 8 ? 0 : 1; i < n; ++i) text.insert(rank % 2 ? text.end() : text.begin(), letters[(rank * 8 + i) % letters.size()]);
      placement += (rank ? "/" : "") + text;
    }
    out.push_back(placement);
  }
  return out;
}

TEST(FenFastPath, AvxTwoReaderOnlyWhereAmdPdepIsFast) {
  // CPUID leaf 1 EAX of real AMD CPUs: family = 0xf + extended family.
  EXPECT_FALSE(amd_pdep_is_fast(0x00800F11));  // Zen (family 0x17): PDEP/PEXT microcoded
  EXPECT_FALSE(amd_pdep_is_fast(0x00830F10));  // Zen 2 (0x17)
  EXPECT_TRUE(amd_pdep_is_fast(0x00A00F11));   // Zen 3 (0x19)
  EXPECT_TRUE(amd_pdep_is_fast(0x00A10F11));   // Zen 4 (0x19)
  EXPECT_TRUE(amd_pdep_is_fast(0x00B40F40));   // Zen 5 (0x1a)
  EXPECT_FALSE(amd_pdep_is_fast(0x00600F12));  // Bulldozer (0x15)
  EXPECT_FALSE(amd_pdep_is_fast(0x00000F00));  // family 0xf, no extension
}

TEST_P(VectorPlacementReader, AgreesWithTheScalarLoop) {
  std::vector<std::string> lines = sample_lines();
  ASSERT_GE(lines.size(), 20000u);
  std::mt19937 rng(7);
  const std::string alphabet = "pnbrqkPNBRQK123456780/ \t9xX\x80\xff";
  for (const std::string& line : lines) {
    expect_same(line);
    std::string mutated = line;
    mutated[rng() % mutated.size()] = alphabet[rng() % alphabet.size()];
    expect_same(mutated);
    std::swap(mutated[rng() % mutated.size()], mutated[rng() % mutated.size()]);  // e.g. a '/' one place off
    expect_same(mutated);
    expect_same(line.substr(0, rng() % (line.size() + 1)));  // the text may end anywhere,
    expect_same(std::string_view(line).substr(0, rng() % (line.size() + 1)));  // even before more placement
    std::string doubled = line.substr(0, line.find(' '));  // placements of 64+ characters
    expect_same(doubled + doubled);
  }
  EXPECT_GT(accepted, 20000);  // nearly every real line
  for (int i = 0; i < 200000; ++i) {  // random strings, mostly short ranks of digits and letters
    std::string s;
    for (int n = static_cast<int>(rng() % 80); n > 0; --n) s.push_back(alphabet[rng() % 16]);
    expect_same(s);
  }
  // Hand-made edge cases: the longest legal placements, a run at 63/64 characters, slashes at the ends.
  for (const std::string s : {"p1p1p1p1/1p1p1p1p/p1p1p1p1/1p1p1p1p/P1P1P1P1/1P1P1P1P/P1P1P1P1/1P1P1P1P w",
                              "8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/8/", "/8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/7",
                              "8/8/8/8/8/8/8/9", "8/8/8/8/8/8/8/44", "8/8/8/8/8/8/8", "", " 8/8/8/8/8/8/8/8",
                              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRx",
                              "8/8/8/8/8/8/8/8\t", "8/8/8/8/8/8/8/8;", "1pppppp1/8/8/8/8/8/8/1PPPPPP1 ",
                              "ppppppppp/7/8/8/8/8/8/8", "7/9/8/8/8/8/8/8", "8/8/8/8/8/8/8/7p/"}) {
    expect_same(s);
  }
  EXPECT_GT(compared, 200000);
}

// Digits 0 and 9, every byte value (bytes >= 0x80 included) in every place of a placement and as its
// terminator (only a blank ends it: TAB yes, CR and NUL no), and placements of 15 to 71 characters.
TEST_P(VectorPlacementReader, AgreesOnEveryByteAndLength) {
  for (const std::string& s : std::initializer_list<std::string>{"8/8/8/8/8/8/8/08", "8/8/8/8/8/8/8/80", "9/8/8/8/8/8/8/8", "0/8/8/8/8/8/8/8",
                              "p7/8/8/8/8/8/8/09", "8/8/8/8/8/8/8/8\r", std::string("8/8/8/8/8/8/8/8\0", 16),
                              "8/8/8/8/8/8/8/8\t-", "8/8/8/8/8/8/8/8\n"}) {
    expect_same(s);
  }
  const std::string start = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR";
  for (int byte = 0; byte < 256; ++byte) {
    for (std::size_t i = 0; i <= start.size(); ++i) {
      std::string s = start + " w";
      s[i] = static_cast<char>(byte);
      expect_same(s);
      expect_same(s.substr(0, start.size() + 1));
    }
  }
  EXPECT_GT(accepted, 256 * 2);  // the start position itself, whenever the byte was a blank
  std::vector<std::string> placements = placements_by_length();
  ASSERT_EQ(placements.size(), 71u - 15u + 1u);
  for (const std::string& s : placements) {
    SCOPED_TRACE(s.size());
    int before = accepted;
    expect_same(s);
    expect_same(s + " w");
    expect_same(s + "/8");
    EXPECT_EQ(accepted - before, s.size() < 64 ? 2 : 0);
  }
}

// The reader may read the 64 bytes from p when they share p's page, whatever lies past `end`, but never
// touches the next page: a text ending right before an inaccessible page, or ending a few bytes earlier with
// placement characters after it (which must count as the end), reads the same as anywhere else.
TEST_P(VectorPlacementReader, StopsAtTheEndOfTheTextAndOfThePage) {
  std::vector<std::string> lines = sample_lines();
  lines.resize(300);
  check_at_page_end(page_end_texts(placements_by_length(), lines), {'8', '/', 'p', ' ', '\0'}, 70,
                    [&](std::string_view text) { expect_same(text); });
  EXPECT_GT(accepted, 300 * 71 * 5);
}

INSTANTIATE_TEST_SUITE_P(FenFastPath, VectorPlacementReader,
                         ::testing::Values(VectorReader{"avx512", placement_avx512_supported, parse_placement_avx512},
                                           VectorReader{"avx2", placement_avx2_supported, parse_placement_avx2}),
                         [](const ::testing::TestParamInfo<VectorReader>& info) { return std::string(info.param.name); });

// The vector placement writer writes what the portable one writes, byte for byte and to the same end, for the
// sample's positions and for random boards: any number of pieces (none to all 64), every kind and colour, and
// squares with a kind but no colour or a colour but no kind (neither writer gives those a letter).
TEST(FenFastPath, VectorPlacementWriterAgreesWithThePortableOne) {
  if (!placement_avx2_supported()) GTEST_SKIP() << "no AVX2 with BMI2 on this CPU";
  std::vector<Position> positions;
  for (const std::string& line : sample_lines()) {
    Position pos;
    if (parse_fen(line, pos).ok()) positions.push_back(pos);
  }
  ASSERT_GT(positions.size(), 10000u);
  std::mt19937_64 rng(2024);
  for (int i = 0; i < 200000; ++i) {
    Position pos;
    pos.clear();
    const Bitboard squares = i < 65 ? (i == 64 ? ~Bitboard{0} : (Bitboard{1} << i) - 1) : rng() & rng() & (i % 3 ? rng() : ~Bitboard{0});
    for (Bitboard b = squares; b; b &= b - 1) {
      const std::uint64_t draw = rng();
      const Bitboard square = b & -b;
      pos.by_type[draw % kPieceTypeCount] |= square;
      pos.by_color[draw / 8 % 2] |= square;
    }
    if (i % 7 == 0) pos.by_type[rng() % kPieceTypeCount] ^= rng() & rng();  // kinds without a colour, or none
    if (i % 11 == 0) pos.by_color[rng() % 2] ^= rng() & rng();
    for (PieceType t = PieceType(0); t < kPieceTypeCount; t = PieceType(t + 1))  // one kind a square at most
      for (PieceType u = PieceType(t + 1); u < kPieceTypeCount; u = PieceType(u + 1)) pos.by_type[u] &= ~pos.by_type[t];
    positions.push_back(pos);
  }
  std::size_t checked = 0;
  for (const Position& pos : positions) {
    char scalar[kMaxFenLength], vector[kMaxFenLength];
    std::memset(scalar, 'x', sizeof scalar);
    std::memset(vector, 'x', sizeof vector);
    const std::size_t n = static_cast<std::size_t>(write_placement_scalar(pos, scalar) - scalar);
    const std::size_t m = static_cast<std::size_t>(write_placement_avx2(pos, vector) - vector);
    ASSERT_EQ(std::string_view(vector, m), std::string_view(scalar, n)) << "position " << checked;
    ++checked;
  }
  EXPECT_EQ(checked, positions.size());
}

}  // namespace
}  // namespace fenmill
