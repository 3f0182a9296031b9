// FEN -> Position -> FEN on real collections: the written FEN is the normalized FEN, reading it back gives the
// same position, and normalizing it again changes nothing. Also counts how many lines each collection loses, and
// with which codes (checked by hand: see the comments at kKnownFiles).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fen/normalize.h"
#include "fen/write.h"

namespace fenmill {
namespace {

namespace fs = std::filesystem;

const fs::path kShared = FENMILL_SHARED_DATA;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_blank_line(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\0') return false;
  return true;
}

struct Reject {
  std::size_t line;  // 1-based
  std::string code;
};

struct FileResult {
  std::size_t records = 0;                 // non-blank lines
  std::map<std::string, std::size_t> codes;  // "OK" included
  std::vector<Reject> rejects;
  std::size_t unchanged = 0;  // accepted lines whose normalized FEN (ep policy keep) is the line's first 6 fields
  std::size_t failures = 0;   // round-trip property violations (each also reported through gtest)
};

// The record's text up to its sixth blank-separated field, with single blanks: what a 6-field FEN line
// "should" look like. Used to count lines that normalization leaves unchanged.
std::string first_six_fields(std::string_view line) {
  std::string out;
  int fields = 0;
  std::size_t i = 0;
  while (fields < 6) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) break;
    std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != ';' && line[i] != '\r' && line[i] != '\0') ++i;
    if (!out.empty()) out += ' ';
    out.append(line.substr(start, i - start));
    ++fields;
    if (i < line.size() && line[i] != ' ' && line[i] != '\t') break;
  }
  return out;
}

// Checks the round-trip properties on one accepted record; returns false (and reports) on a violation.
bool check_round_trip(std::string_view line, const Position& pos, const NormalizeOptions& options) {
  const std::string fen = to_fen(pos);
  // Reading the written FEN back, without any normalization, gives the same position and the same text.
  Position read;
  ParseOptions po;
  po.chess960 = options.chess960;
  ParseResult pr = parse_fen(fen, read, po);
  if (!pr.ok() || !(read == pos) || to_fen(read) != fen) {
    ADD_FAILURE() << "parse(write(p)) != p\n  line: " << line << "\n  fen:  " << fen;
    return false;
  }
  // Normalizing the normalized FEN changes nothing (strict mode: no operations, no repair needed).
  NormalizeOptions again = options;
  again.allow_operations = false;
  again.repair = false;
  Position twice;
  NormalizeResult r = normalize_fen(fen, twice, again);
  if (!r.ok() || r.repairs != 0 || !(twice == pos) || to_fen(twice) != fen) {
    ADD_FAILURE() << "normalize is not idempotent\n  line: " << line << "\n  fen:  " << fen << "\n  then: "
                  << (r.ok() ? to_fen(twice) : std::string(error_name(r.code)));
    return false;
  }
  // The written castling letters mean the same in auto mode and in chess960 mode.
  again.chess960 = !options.chess960;
  if (!normalize_fen(fen, twice, again).ok() || !(twice == pos)) {
    ADD_FAILURE() << "castling letters depend on the mode\n  line: " << line << "\n  fen:  " << fen;
    return false;
  }
  // Shredder-FEN output reads back to the same position in either mode.
  const std::string shredder = to_fen(pos, CastlingNotation::kShredder);
  if (!parse_fen(shredder, read, po).ok() || !(read == pos)) {
    ADD_FAILURE() << "Shredder-FEN does not read back\n  line: " << line << "\n  fen:  " << shredder;
    return false;
  }
  return true;
}

FileResult round_trip_text(std::string_view text, const NormalizeOptions& options) {
  FileResult result;
  std::size_t line_number = 0;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_number;
    if (is_blank_line(line)) continue;
    ++result.records;
    Position pos;
    NormalizeResult r = normalize_fen(line, pos, options);
    ++result.codes[std::string(error_name(r.code))];
    if (!r.ok()) {
      result.rejects.push_back({line_number, std::string(error_name(r.code))});
      continue;
    }
    if (!check_round_trip(line, pos, options) && ++result.failures > 10) {
      ADD_FAILURE() << "too many failures, giving up on this input";
      break;
    }
    NormalizeOptions keep = options;
    keep.ep = EpPolicy::kKeep;
    Position kept;
    if (normalize_fen(line, kept, keep).ok() && to_fen(kept) == first_six_fields(line)) ++result.unchanged;
  }
  return result;
}

NormalizeOptions epd_options(bool chess960 = false) {
  NormalizeOptions o;
  o.allow_operations = true;
  o.chess960 = chess960;
  return o;
}

std::string describe(const FileResult& r) {
  std::string s = std::to_string(r.records) + " records:";
  for (const auto& [code, n] : r.codes) s += " " + code + "=" + std::to_string(n);
  s += ", unchanged " + std::to_string(r.unchanged);
  return s;
}

// Collections whose rejected lines were checked by hand. `bytes` identifies the exact file (../shared/data/SOURCES.md):
// another file under the same name only gets the round-trip checks.
struct KnownFile {
  const char* path;
  std::uintmax_t bytes;
  bool chess960;
  std::size_t records;
  std::map<std::string, std::size_t> codes;
  std::vector<Reject> rejects;  // the first rejected lines, in order (all of them where there are few)
  std::size_t unchanged;
};

const std::vector<KnownFile>& known_files() {
  static const std::vector<KnownFile> kFiles = {
      {"fen/not_in_check.fen", 3675905, false, 60000, {{"OK", 60000}}, {}, 60000},
      {"epd/noob_3moves.epd", 9839116, false, 150932, {{"OK", 150932}}, {}, 150932},
      {"epd/8mvs_+90_+99.epd", 582229, false, 8533, {{"OK", 8533}}, {}, 8533},
      // Chess960 start positions with KQkq: in auto mode K/Q next to a king on e1 mean the corner rooks. 204 of
      // the 960 have the king on e1, and 18 of those (3 x 2 bishop squares x 3 queen squares) have both rooks
      // in the corners: 186 are rejected, the first on line 15 (qnnrkbbr: Q would be a1, where the queen stands).
      {"epd/FRC_openings.epd", 54720, false, 960, {{"OK", 774}, {"CASTLING_NO_ROOK", 186}},
       {{15, "CASTLING_NO_ROOK"}, {16, "CASTLING_NO_ROOK"}, {31, "CASTLING_NO_ROOK"}}, 774},
      {"epd/FRC_openings.epd", 54720, true, 960, {{"OK", 960}}, {}, 774},
      {"epd/HTC114.epd", 10537, false, 114, {{"OK", 114}}, {}, 0},
      {"epd/STS1-STS15_LAN_v3.epd", 288513, false, 1500, {{"OK", 1500}}, {}, 0},
      // A quoted c0 comment broken across lines 6 and 7: line 6 ends inside the quotes, and line 7
      // ("a8/Q e1/Q 4 Qd5+ ...") is not a record.
      {"epd/Zugzwang-Allgeuer.epd", 4719, false, 38, {{"OK", 36}, {"TRAILING_TEXT", 1}, {"BAD_PIECE", 1}},
       {{6, "TRAILING_TEXT"}, {7, "BAD_PIECE"}}, 0},
      {"epd/bratko-kopec.epd", 1874, false, 24, {{"OK", 24}}, {}, 0},
      // Lines 8-10: composed "fortresses" with 16+ white bishops, e.g. k7/1p1p1p1p/pPpPpPpP/P1P1P1P1/1B1B1B1B/...
      {"epd/fortresses.epd", 11804, false, 169, {{"OK", 166}, {"TOO_MANY_PIECES", 3}},
       {{8, "TOO_MANY_PIECES"}, {9, "TOO_MANY_PIECES"}, {10, "TOO_MANY_PIECES"}}, 5},
      // "w - -1 12": a missing blank makes "-1" the ep field (lines 4, 7, 10, 15); "b KQkq f3 1 3": an ep square
      // after a double push with a halfmove clock of 1 (lines 8, 11, 13, 18).
      {"epd/kaufman.epd", 1917, false, 25, {{"OK", 17}, {"BAD_EP_SYNTAX", 4}, {"EP_CLOCK", 4}},
       {{4, "BAD_EP_SYNTAX"}, {7, "BAD_EP_SYNTAX"}, {8, "EP_CLOCK"}, {10, "BAD_EP_SYNTAX"}, {11, "EP_CLOCK"},
        {13, "EP_CLOCK"}, {15, "BAD_EP_SYNTAX"}, {18, "EP_CLOCK"}},
       17},
      // Line 20, "2r1k2r/... w q -": q with the a8 corner empty (the rook is on c8); chess960 mode accepts it.
      {"epd/lct2.epd", 2846, false, 35, {{"OK", 34}, {"CASTLING_NO_ROOK", 1}}, {{20, "CASTLING_NO_ROOK"}}, 0},
      {"epd/lct2.epd", 2846, true, 35, {{"OK", 35}}, {}, 0},
      // Line 133, "B6b/8/8/8/2K5/5k2/8/b6B b": both white bishops check f3 along one diagonal from opposite
      // sides, which no last move can produce.
      {"epd/perft.epd", 13372, false, 174, {{"OK", 173}, {"IMPOSSIBLE_CHECK", 1}}, {{133, "IMPOSSIBLE_CHECK"}}, 173},
      {"epd/silent-but-deadly.epd", 11027, false, 134, {{"OK", 134}}, {}, 0},
      {"epd/wac.epd", 61765, false, 299, {{"OK", 299}}, {}, 0},
  };
  return kFiles;
}

void check_known(const KnownFile& k) {
  const fs::path path = kShared / k.path;
  SCOPED_TRACE(std::string(k.path) + (k.chess960 ? " (chess960)" : ""));
  if (!fs::exists(path)) {
    ADD_FAILURE() << "missing " << path;
    return;
  }
  FileResult r = round_trip_text(read_file(path), epd_options(k.chess960));
  EXPECT_EQ(r.failures, 0u);
  std::cout << "[          ] " << k.path << (k.chess960 ? " (chess960)" : "") << ": " << describe(r) << "\n";
  if (fs::file_size(path) != k.bytes) return;  // a different file of that name: no fixed counts
  EXPECT_EQ(r.records, k.records);
  EXPECT_EQ(r.codes, k.codes);
  EXPECT_EQ(r.unchanged, k.unchanged);
  ASSERT_GE(r.rejects.size(), k.rejects.size());
  for (std::size_t i = 0; i < k.rejects.size(); ++i) {
    EXPECT_EQ(r.rejects[i].line, k.rejects[i].line);
    EXPECT_EQ(r.rejects[i].code, k.rejects[i].code);
  }
}

#define SKIP_WITHOUT_SHARED_DATA()                                                  \
  if (!fs::is_directory(kShared)) GTEST_SKIP() << kShared << " is not available"

TEST(FenRoundTrip, NotInCheck) {
  SKIP_WITHOUT_SHARED_DATA();
  check_known(known_files()[0]);
}

TEST(FenRoundTrip, Noob3Moves) {
  SKIP_WITHOUT_SHARED_DATA();
  check_known(known_files()[1]);
}

TEST(FenRoundTrip, KnownEpdCollections) {
  SKIP_WITHOUT_SHARED_DATA();
  for (std::size_t i = 2; i < known_files().size(); ++i) check_known(known_files()[i]);
}

// Every .epd file present, known or not: accepted lines must round-trip.
TEST(FenRoundTrip, EveryEpdFile) {
  SKIP_WITHOUT_SHARED_DATA();
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(kShared / "epd")) {
    if (entry.path().extension() != ".epd") continue;
    ++files;
    for (bool chess960 : {false, true}) {
      SCOPED_TRACE(entry.path().string() + (chess960 ? " (chess960)" : ""));
      FileResult r = round_trip_text(read_file(entry.path()), epd_options(chess960));
      EXPECT_EQ(r.failures, 0u);
      EXPECT_GT(r.codes["OK"], 0u) << describe(r);
    }
  }
  EXPECT_GT(files, 0u);
}

// Repair mode on the collection with fixable mistakes: the EP_CLOCK lines come back with a halfmove clock of 0.
TEST(FenRoundTrip, KaufmanRepaired) {
  SKIP_WITHOUT_SHARED_DATA();
  const fs::path path = kShared / "epd/kaufman.epd";
  if (!fs::exists(path) || fs::file_size(path) != 1917) GTEST_SKIP() << "not the known kaufman.epd";
  NormalizeOptions o = epd_options();
  o.repair = true;
  FileResult r = round_trip_text(read_file(path), o);
  EXPECT_EQ(r.failures, 0u);
  EXPECT_EQ(r.codes, (std::map<std::string, std::size_t>{{"OK", 21}, {"BAD_EP_SYNTAX", 4}}));
}

// Always present: the first 2000 lines of not_in_check.fen, kept in tests/data (see tests/data/SOURCES.md).
TEST(FenRoundTrip, BundledSample) {
  const fs::path path = fs::path(FENMILL_SOURCE_DIR) / "tests/data/not_in_check_sample.fen";
  ASSERT_TRUE(fs::exists(path));
  for (EpPolicy ep : {EpPolicy::kLegal, EpPolicy::kPseudo, EpPolicy::kKeep}) {
    NormalizeOptions o;
    o.ep = ep;
    FileResult r = round_trip_text(read_file(path), o);
    EXPECT_EQ(r.failures, 0u);
    EXPECT_EQ(r.records, 2000u);
    EXPECT_EQ(r.codes, (std::map<std::string, std::size_t>{{"OK", 2000}}));
    EXPECT_EQ(r.unchanged, 2000u);
  }
}

}  // namespace
}  // namespace fenmill
