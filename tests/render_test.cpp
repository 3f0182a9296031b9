// Board pictures (src/render/, `fenmill render`, `fenmill validate --html`).
//
// Golden SVGs under tests/golden/render/ are compared byte for byte; each was checked by eye as a PNG
// (rsvg-convert) when it was made. To regenerate after a deliberate change:
//   FENMILL_UPDATE_GOLDEN=1 build/fenmill_tests --gtest_filter='RenderGolden*'
// then look at the pictures again (rsvg-convert -w 500 F.svg -o F.png) before committing.
// Besides the bytes, each case checks what the picture must show: the error code, the marked squares and
// the pieces. The PNG tests draw every golden with rsvg-convert and the HTML report with headless Chromium;
// they skip when those programs are missing (scripts/setup.sh installs them).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "cli_util.h"
#include "fen/normalize.h"
#include "formats/binary_file.h"
#include "formats/binary_record.h"
#include "render/html_report.h"
#include "render/render_fen.h"
#include "render/svg_chess.h"
#include "render/svg_common.h"
#include "render/svg_message.h"
#include "xiangqi/parse.h"

namespace fenmill::render {
namespace {

namespace fs = std::filesystem;
using cli_test::CliRun;
using cli_test::read_file;
using cli_test::run_cli;
using cli_test::run_cli_stdin;
using cli_test::TempDir;
using cli_test::write_file;

const fs::path kGoldenDir = fs::path(FENMILL_SOURCE_DIR) / "tests" / "golden" / "render";

bool update_golden() {
  const char* v = std::getenv("FENMILL_UPDATE_GOLDEN");
  return v && *v && std::string(v) != "0";
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

std::vector<std::string> chess_square_names(Bitboard b) {
  std::vector<std::string> names;
  for (; b; b &= b - 1)
    names.push_back(std::string{static_cast<char>('a' + file_of(lsb(b))), static_cast<char>('1' + rank_of(lsb(b)))});
  return names;
}

std::vector<std::string> xiangqi_point_names(xiangqi::Bitboard b) {
  std::vector<std::string> names;
  xiangqi::for_each_point(b, [&](xiangqi::Square s) {
    names.push_back(std::string{static_cast<char>('a' + xiangqi::file_of(s)), static_cast<char>('0' + xiangqi::rank_of(s))});
  });
  return names;
}

// ---------------------------------------------------------------------------------------------------------
// Golden pictures.

struct GoldenPicture {
  std::string name;
  std::string fen;
  bool flip = false;
  std::string code;                 // "OK" for a valid position
  std::vector<std::string> marked;  // chess squares or Xiangqi points, lowest index first
};

std::ostream& operator<<(std::ostream& os, const GoldenPicture& g) { return os << g.name; }

const std::vector<GoldenPicture>& golden_pictures() {
  static const std::vector<GoldenPicture> cases = {
      {"chess_start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, "OK", {}},
      {"chess_morphy", "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 17", false, "OK", {}},
      {"chess_morphy_flipped", "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 17", true, "OK", {}},
      {"xiangqi_example", "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1", false, "OK", {}},
      {"xiangqi_example_flipped", "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1", true, "OK", {}},
      {"invalid_pawn_on_back_rank", "rnbqkbnP/pppppp1p/8/8/8/8/PPPPPPP1/RNBQKBNR b KQq - 0 1", false,
       "PAWN_ON_BACK_RANK", {"h8"}},
      {"invalid_impossible_check", "R3k2R/8/8/8/8/8/8/4K3 b - - 0 1", false, "IMPOSSIBLE_CHECK", {"a8", "e8", "h8"}},
      {"invalid_castling_no_rook", "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false,
       "CASTLING_NO_ROOK", {"h8"}},
      {"invalid_ep_wrong_rank", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", false, "EP_WRONG_RANK",
       {"e4"}},
      {"invalid_xq_general_palace", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4K4/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1", false,
       "XQ_GENERAL_PALACE", {"e4"}},
      {"invalid_xq_generals_facing", "rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/1C5C1/9/RNBAKABNR w - - 0 1", false,
       "XQ_GENERALS_FACING", {"e0", "e9"}},
      {"invalid_syntax_rank_sum", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", false, "RANK_SUM", {}},
  };
  return cases;
}

class RenderGolden : public ::testing::TestWithParam<GoldenPicture> {};

TEST_P(RenderGolden, MatchesTheCheckedPictureAndShowsTheError) {
  const GoldenPicture& g = GetParam();
  RenderOptions options;
  options.flip = g.flip;
  FenDiagnosis d;
  std::string svg = render_fen_svg(g.fen, DiagnoseOptions{}, options, &d);

  EXPECT_EQ(error_name(d.code), g.code);
  std::vector<std::string> marked = d.xiangqi ? xiangqi_point_names(d.xq_marks) : chess_square_names(d.chess_marks);
  EXPECT_EQ(marked, g.marked);
  // One red outline per marked square or point (chess: 92 wide inside its square, Xiangqi: 96 around the point).
  EXPECT_EQ(count(svg, d.xiangqi ? "width=\"96\" height=\"96\"" : "width=\"92\" height=\"92\""), g.marked.size());
  if (g.code == "OK") {
    EXPECT_EQ(count(svg, kMarkColor), 0u) << "a valid position shows no error";
  } else {
    EXPECT_NE(svg.find(">" + g.code + "</text>"), std::string::npos) << "the caption names the code";
  }
  if (d.parsed && !d.xiangqi) {
    EXPECT_EQ(count(svg, "<use "), static_cast<std::size_t>(popcount(d.chess.occupied()))) << "one shape per piece";
  } else if (d.parsed) {
    EXPECT_EQ(count(svg, "<circle ") - 1, 2u * static_cast<std::size_t>(xiangqi::popcount(d.xq.occupied())))
        << "two rings per piece, plus the side-to-move disc";
  } else {
    EXPECT_NE(svg.find("No board"), std::string::npos);
  }

  fs::path path = kGoldenDir / (g.name + ".svg");
  if (update_golden()) {
    fs::create_directories(kGoldenDir);
    write_file(path, svg);
  }
  ASSERT_TRUE(fs::exists(path)) << path << " is missing; run with FENMILL_UPDATE_GOLDEN=1 and check it by eye";
  EXPECT_EQ(svg, read_file(path)) << "rendering " << g.fen << " changed; see the header comment";
}

INSTANTIATE_TEST_SUITE_P(Pictures, RenderGolden, ::testing::ValuesIn(golden_pictures()),
                         [](const auto& info) { return info.param.name; });

// ---------------------------------------------------------------------------------------------------------
// The drawing itself.

TEST(RenderChess, PiecesStandOnTheirSquaresFromEitherSide) {
  Position pos;
  ASSERT_TRUE(parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", pos).ok());
  RenderOptions options;
  std::string white_view = chess_svg(pos, 0, Caption{}, options);
  // e1 is file 4, rank 0: x = 60 + 4 * 100, y = 40 + 7 * 100; h1 at x = 760.
  EXPECT_NE(white_view.find("<use xlink:href=\"#fm-k\" x=\"460\" y=\"740\"/>"), std::string::npos);
  EXPECT_NE(white_view.find("<use xlink:href=\"#fm-r\" x=\"760\" y=\"740\"/>"), std::string::npos);
  EXPECT_NE(white_view.find("<use xlink:href=\"#fm-k\" x=\"460\" y=\"40\"/>"), std::string::npos) << "e8";
  options.flip = true;
  std::string black_view = chess_svg(pos, 0, Caption{}, options);
  EXPECT_NE(black_view.find("<use xlink:href=\"#fm-k\" x=\"360\" y=\"40\"/>"), std::string::npos) << "e1 at the top";
  EXPECT_NE(black_view.find("<use xlink:href=\"#fm-r\" x=\"60\" y=\"40\"/>"), std::string::npos) << "h1 top left";
  // Only the shapes in use are defined; a page that holds them once asks for none.
  EXPECT_NE(white_view.find("id=\"fm-r\""), std::string::npos);
  EXPECT_EQ(white_view.find("id=\"fm-q\""), std::string::npos);
  options.embed_defs = false;
  EXPECT_EQ(chess_svg(pos, 0, Caption{}, options).find("<defs>"), std::string::npos);
  EXPECT_EQ(count(chess_piece_defs(), "<g id=\"fm-"), 6u);
}

TEST(RenderChess, SizeSetsThePixelsAndKeepsTheShape) {
  Position pos;
  ASSERT_TRUE(parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", pos).ok());
  RenderOptions options;
  options.size = 720;
  std::string svg = chess_svg(pos, 0, Caption{}, options);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, std::regex("width=\"([0-9]+)\" height=\"([0-9]+)\" viewBox=\"0 0 ([0-9]+) ([0-9]+)\"")));
  EXPECT_EQ(m[1], "720");
  double px = std::stod(m[2]) / 720.0, units = std::stod(m[4]) / std::stod(m[3]);
  EXPECT_NEAR(px, units, 0.002);
}

TEST(RenderXiangqi, CharactersForEachSideAndTheRiver) {
  xiangqi::Position pos;
  ASSERT_TRUE(xiangqi::parse_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", pos).ok());
  std::string svg = render_fen_svg("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                                   DiagnoseOptions{}, RenderOptions{});
  EXPECT_EQ(count(svg, ">帥<"), 1u);
  EXPECT_EQ(count(svg, ">將<"), 1u);
  EXPECT_EQ(count(svg, ">兵<"), 5u);
  EXPECT_EQ(count(svg, ">卒<"), 5u);
  EXPECT_EQ(count(svg, ">俥<"), 2u);
  EXPECT_EQ(count(svg, ">車<"), 2u);
  EXPECT_NE(svg.find("楚 河"), std::string::npos);
  EXPECT_NE(svg.find("漢 界"), std::string::npos);
  EXPECT_NE(svg.find("Red to move"), std::string::npos);
}

TEST(RenderFen, VariantChoiceAndSyntaxErrors) {
  const std::string xq = "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1";
  FenDiagnosis d;
  render_fen_svg(xq, DiagnoseOptions{}, RenderOptions{}, &d);
  EXPECT_TRUE(d.xiangqi);
  EXPECT_TRUE(d.ok());
  DiagnoseOptions chess;
  chess.variant = Variant::kChess;
  std::string svg = render_fen_svg(xq, chess, RenderOptions{}, &d);
  EXPECT_FALSE(d.xiangqi);
  EXPECT_FALSE(d.parsed);
  EXPECT_EQ(d.code, ErrorCode::kBadPiece) << "H is no chess piece";
  EXPECT_NE(svg.find("No board"), std::string::npos);
  // A record with bytes XML cannot hold still gives a well-formed picture.
  svg = render_fen_svg(std::string("8/8/\x01<&\xff", 8), DiagnoseOptions{}, RenderOptions{}, &d);
  EXPECT_FALSE(d.parsed);
  EXPECT_EQ(svg.find('\x01'), std::string::npos);
  EXPECT_EQ(svg.find('\xff'), std::string::npos);
  EXPECT_NE(svg.find("&lt;&amp;"), std::string::npos);
}

TEST(RenderMessage, HighlightsTheByteAtTheColumn) {
  Caption caption{"BAD_PIECE", "invalid character"};
  std::string svg = message_svg(caption, "rnbqkbnr/ppppXppp/8", 14, RenderOptions{});
  EXPECT_NE(svg.find("rnbqkbnr/pppp<tspan fill=\"#e0201b\" font-weight=\"bold\" text-decoration=\"underline\">X</tspan>ppp/8"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("column 14"), std::string::npos);
  // Past the end (a missing field): a visible blank marker at the end.
  svg = message_svg(caption, "8/8", 4, RenderOptions{});
  EXPECT_NE(svg.find("8/8<tspan fill=\"#e0201b\" font-weight=\"bold\" text-decoration=\"underline\">\xE2\x90\xA3</tspan>"),
            std::string::npos);
  // A long record is cut around the column, on character boundaries.
  std::string long_text = std::string(100, 'a') + "\xC3\xA9" + "Z" + std::string(100, 'b');
  svg = message_svg(caption, long_text, 103, RenderOptions{});
  EXPECT_NE(svg.find("\xE2\x80\xA6" + std::string(22, 'a') + "\xC3\xA9<tspan"), std::string::npos);
  EXPECT_NE(svg.find(">Z</tspan>" + std::string(20, 'b') + "\xE2\x80\xA6"), std::string::npos);
}

TEST(RenderText, XmlEscapingMakesAnyBytesSafe) {
  std::string out;
  append_xml_text(out, std::string("a<b>&\"'\x01\t\xC3\xA9\xFF\xED\xA0\x80\xE6\xA5\x9A", 18));
  EXPECT_EQ(out, "a&lt;b&gt;&amp;&quot;&#39;\xEF\xBF\xBD\t\xC3\xA9\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xE6\xA5\x9A");
}

TEST(RenderText, NoHtmlParseErrorsNorBidiControlsInTheText) {
  // XML allows DEL, the C1 controls and the noncharacters, but in the HTML report each is a parse error (a
  // validator rejects the page); a right-to-left override showed the rest of a record reversed.
  const std::string bad[] = {"\x7F", "\xC2\x80", "\xC2\x85", "\xC2\x9F", "\xEF\xB7\x90", "\xEF\xB7\xAF", "\xEF\xBF\xBE",
                             "\xF0\x9F\xBF\xBF", "\xF4\x8F\xBF\xBE", "\xE2\x80\xAA", "\xE2\x80\xAE", "\xE2\x81\xA6",
                             "\xE2\x81\xA9"};
  for (const std::string& c : bad) {
    std::string out;
    append_xml_text(out, "a" + c + "b");
    EXPECT_EQ(out, "a\xEF\xBF\xBD" "b") << testing::PrintToString(c);
  }
  // Their neighbours stay: NBSP, U+FDCF, U+FDF0, U+FFFD, U+1FFFD, ZWJ, LRM, U+2065, U+206A, and tab, LF, CR.
  const std::string good = "\xC2\xA0\xEF\xB7\x8F\xEF\xB7\xB0\xEF\xBF\xBD\xF0\x9F\xBF\xBD\xE2\x80\x8D\xE2\x80\x8E"
                           "\xE2\x81\xA5\xE2\x81\xAA\t\n\r~";
  std::string out;
  append_xml_text(out, good);
  EXPECT_EQ(out, good);
  // The report of such a record: none of them in the page.
  TempDir dir;
  write_file(dir / "in.fen", "4k3/8/8/8/8/8/8/4K3 w\x7F - - 0 1\n\xE2\x80\xAE" "4k3/8/8/8/8/8/8/4K3 w - - 0 1 \xC2\x85\n"
                             "4k3/8/8/8/8/8/8/4K3 w - - 0 \xEF\xB7\x90\n");
  auto r = run_cli({"validate", dir / "in.fen", "-q", "--html", dir / "r.html"});
  EXPECT_EQ(r.exit_code, 1);
  const std::string html = read_file(dir / "r.html");
  EXPECT_EQ(count(html, "<section class=\"reject\""), 3u);
  for (const std::string& c : bad) EXPECT_EQ(html.find(c), std::string::npos) << testing::PrintToString(c);
}

TEST(RenderText, WrapsAtWordsAndCutsLongWords) {
  EXPECT_EQ(wrap_words("a side has more than 8 pawns", 10),
            (std::vector<std::string>{"a side has", "more than", "8 pawns"}));
  EXPECT_EQ(wrap_words("abcdefghijkl xy", 5), (std::vector<std::string>{"abcde", "fghij", "kl xy"}));
  EXPECT_EQ(wrap_words("漢界漢界", 3), (std::vector<std::string>{"漢界漢", "界"})) << "counts characters, not bytes";
  EXPECT_TRUE(wrap_words("", 10).empty());
}

TEST(RenderReport, FindsTheFenInCsvAndJsonRecords) {
  EXPECT_EQ(fen_in_record("8/8/8/8/8/8/8/8 w - - 0 1", 1), "8/8/8/8/8/8/8/8 w - - 0 1");
  EXPECT_EQ(fen_in_record("8/8/8/8/8/8/8/8 w - - 0 1,rated", 1), "8/8/8/8/8/8/8/8 w - - 0 1");
  EXPECT_EQ(fen_in_record("7,\"8/8/8/8/8/8/8/8 w - - 0 1\",x", 4), "8/8/8/8/8/8/8/8 w - - 0 1");
  EXPECT_EQ(fen_in_record("7\t8/8/8/8/8/8/8/8 w - - 0 1\tx", 3), "8/8/8/8/8/8/8/8 w - - 0 1");
  EXPECT_EQ(fen_in_record("{\"fen\":\"8/8/8/8/8/8/8/8 w - -\",\"id\":3}", 9), "8/8/8/8/8/8/8/8 w - -");
  EXPECT_EQ(fen_in_record("short", 99), "");
}

TEST(RenderReport, SummaryEntriesAndPictures) {
  Job job;
  job.inputs = {"a<b>.fen"};
  RunOutcome outcome;
  outcome.counts.records = 5;
  outcome.counts.valid = 2;
  outcome.counts.invalid = 3;
  outcome.counts.invalid_by_code[static_cast<int>(ErrorCode::kPawnOnBackRank)] = 1;
  outcome.counts.invalid_by_code[static_cast<int>(ErrorCode::kBadPiece)] = 1;
  outcome.counts.invalid_games_by_code[static_cast<int>(PgnError::kIllegalMove)] = 1;
  outcome.reported = {
      {"a<b>.fen", 2, 1, "PAWN_ON_BACK_RANK", "a pawn stands on rank 1 or 8 (squares: h8)",
       "rnbqkbnP/pppppp1p/8/8/8/8/PPPPPPP1/RNBQKBNR b KQq - 0 1", false},
      {"a<b>.fen", 4, 5, "BAD_PIECE", "invalid character", "8/8/<script>alert(1)</script>", false},
      {"g.pgn", 9, 1, "ILLEGAL_MOVE", "game 1, ply 3: no legal move matches", "Qxh9", false, true},
  };
  std::string html = html_report(job, outcome);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<title>fenmill validate: 3 invalid of 5 records</title>"), std::string::npos);
  EXPECT_NE(html.find("<th>records</th><td class=\"n\">5</td>"), std::string::npos);
  EXPECT_NE(html.find("<th>valid</th><td class=\"n\">2</td>"), std::string::npos);
  EXPECT_NE(html.find("<th>invalid</th><td class=\"n\">3</td>"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#reject-1\">PAWN_ON_BACK_RANK</a></td><td class=\"n\">1</td>"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#reject-3\">ILLEGAL_MOVE</a>"), std::string::npos) << "PGN codes are counted too";
  EXPECT_EQ(count(html, "<section class=\"reject\""), 3u);
  EXPECT_NE(html.find("a&lt;b&gt;.fen:2:1"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos) << "inputs are escaped";
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  // Pictures: the board with h8 outlined, the message panel, nothing for the PGN move; plus the shared shapes.
  EXPECT_EQ(count(html, "<svg "), 3u);
  EXPECT_EQ(count(html, "width=\"92\" height=\"92\""), 1u);
  EXPECT_EQ(count(html, "No board"), 1u);
  EXPECT_EQ(count(html, "<defs>"), 1u) << "piece shapes once per page";
  EXPECT_EQ(count(html, "<g id=\"fm-"), 6u);
}

TEST(RenderReport, APgnCodeNamedLikeAFenCodeIsStillAGame) {
  // A PGN game rejected with CLOCK_RANGE got the FEN code's picture: a "No board" panel of its move token with
  // the game's line column marked past the token's end. And both CLOCK_RANGE rows of the table linked to the
  // first reject of either kind.
  Job job;
  job.inputs = {"g.pgn", "p.fen"};
  RunOutcome outcome;
  outcome.counts.records = outcome.counts.invalid = 2;
  outcome.counts.invalid_by_code[static_cast<int>(ErrorCode::kClockRange)] = 1;
  outcome.counts.invalid_games_by_code[static_cast<int>(PgnError::kClockRange)] = 1;
  outcome.reported = {
      {"g.pgn", 5, 4, "CLOCK_RANGE", "game 1, ply 1: the game runs a clock past what a FEN holds", "Kd2", false, true},
      {"p.fen", 1, 27, "CLOCK_RANGE", "clock value out of range", "4k3/8/8/8/8/8/8/4K3 w - - 70000 1", false, false},
  };
  std::string html = html_report(job, outcome);
  EXPECT_EQ(count(html, "No board"), 1u) << "the FEN record's panel only";
  EXPECT_EQ(count(html, "<svg "), 2u) << "the shared shapes and the FEN record's picture";
  EXPECT_EQ(html.find(">Kd2<tspan"), std::string::npos);
  const std::size_t fen_row = html.find("<a href=\"#reject-2\">CLOCK_RANGE</a></td><td class=\"n\">1</td><td>clock value");
  const std::size_t pgn_row = html.find("<a href=\"#reject-1\">CLOCK_RANGE</a></td><td class=\"n\">1</td><td>");
  EXPECT_NE(fen_row, std::string::npos) << "the FEN code's row links to the FEN record";
  EXPECT_NE(pgn_row, std::string::npos) << "the PGN code's row links to the game";
}

TEST(RenderReport, SaysWhenOnlyTheFirstRejectsAreShown) {
  Job job;
  job.inputs = {"-"};
  RunOutcome outcome;
  outcome.counts.records = outcome.counts.invalid = 20000;
  outcome.reported.push_back({"<stdin>", 1, 1, "MISSING_KING", "each side needs exactly one king", "8/8/8/8/8/8/8/8", false});
  std::string html = html_report(job, outcome);
  EXPECT_NE(html.find("The first 1 of 20000 rejected records."), std::string::npos);
  EXPECT_NE(html.find("<code>&lt;stdin&gt;</code>"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------------------
// The command line.

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(RenderCli, OneFenToAFileIsTheGoldenPicture) {
  TempDir dir;
  auto r = run_cli({"render", kStart, "-o", dir / "start.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir / "start.svg"), read_file(kGoldenDir / "chess_start.svg"));
  // Refuses to overwrite without --force, and leaves the file alone.
  write_file(dir / "start.svg", "keep");
  r = run_cli({"render", kStart, "-o", dir / "start.svg"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("already exists"), std::string::npos);
  EXPECT_EQ(read_file(dir / "start.svg"), "keep");
  r = run_cli({"render", kStart, "-o", dir / "start.svg", "--force", "--size", "720", "--flip"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string svg = read_file(dir / "start.svg");
  EXPECT_NE(svg.find("width=\"720\""), std::string::npos);
  EXPECT_NE(svg.find("<use xlink:href=\"#fm-k\" x=\"360\" y=\"40\"/>"), std::string::npos) << "flipped: e1 at the top";
  // Stdout by default.
  r = run_cli({"render", kStart});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, read_file(kGoldenDir / "chess_start.svg"));
}

TEST(RenderCli, FileFirstRecordAndEachRecord) {
  TempDir dir;
  const std::string bad = "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const std::string xq = "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1";
  write_file(dir / "in.fen", "\n" + bad + "\r\n\n" + kStart + "\n" + xq);  // no final newline
  auto r = run_cli({"render", dir / "in.fen", "-o", dir / "first.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir / "first.svg"), read_file(kGoldenDir / "invalid_castling_no_rook.svg"));
  EXPECT_NE(r.err.find("line 2: CASTLING_NO_ROOK"), std::string::npos) << r.err;

  r = run_cli({"render", dir / "in.fen", "--each", dir / "pictures"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  fs::path pictures = fs::path(dir / "pictures");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(pictures)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"line-000002.svg", "line-000004.svg", "line-000005.svg"}));
  EXPECT_EQ(read_file(pictures / "line-000004.svg"), read_file(kGoldenDir / "chess_start.svg"));
  EXPECT_EQ(read_file(pictures / "line-000005.svg"), read_file(kGoldenDir / "xiangqi_example.svg"));
  EXPECT_NE(r.err.find("3 pictures"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(1 of an invalid position)"), std::string::npos) << r.err;
  // One picture is one ("1 pictures ... (1 of invalid positions)" before).
  write_file(dir / "one.fen", bad + "\n");
  r = run_cli({"render", dir / "one.fen", "--each", dir / "one"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "fenmill: 1 picture in " + (dir / "one") + " (1 of an invalid position)\n");
  // Again without --force: the first existing picture stops it.
  r = run_cli({"render", dir / "in.fen", "--each", dir / "pictures"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "fenmill: error: " + (pictures / "line-000002.svg").string() + ": already exists (use --force to overwrite)\n");
  // An existing picture after new ones: those written before it are kept, and the error says so (helper-52: it
  // named only the existing one, leaving unsaid what the failed run had left in the directory).
  fs::remove(pictures / "line-000002.svg");
  r = run_cli({"render", dir / "in.fen", "--each", dir / "pictures"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "fenmill: error: " + (pictures / "line-000004.svg").string() +
                       ": already exists (use --force to overwrite) (1 picture written before it is kept in " +
                       (dir / "pictures") + ")\n");
  EXPECT_EQ(read_file(pictures / "line-000002.svg"), read_file(kGoldenDir / "invalid_castling_no_rook.svg"));
}

// Stdin or a name with no known extension is read as --from auto reads it: EPD when the first record holds a ;
// (it was FEN, so an EPD suite's first position was drawn as invalid, BAD_HALFMOVE at its opcode).
TEST(RenderCli, EpdOperationsOnStdinOrAnUnknownNameAreRead) {
  TempDir dir;
  const std::string epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"start\";\n";
  write_file(dir / "suite.txt", epd);
  for (const std::string& input : {std::string("-"), std::string(dir / "suite.txt")}) {
    auto r = run_cli_stdin({"render", input, "-o", dir / "a.svg", "--force"}, epd);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "") << input;
    EXPECT_EQ(read_file(dir / "a.svg"), read_file(kGoldenDir / "chess_start.svg")) << input;
  }
  // A first FEN line leaves it FEN: text after the clocks is still an error.
  auto r = run_cli_stdin({"render", "-", "-o", dir / "b.svg"}, std::string(kStart) + " x\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("TRAILING_TEXT"), std::string::npos) << r.err;
}

// A Xiangqi EPD record is read with its operations, and with --repair its fullmove 0, as a chess one is: render
// drew "No board: this record is not a position" (BAD_HALFMOVE at the opcode), and so did validate --html for a
// Xiangqi EPD record it had just judged on its board.
TEST(RenderCli, XiangqiEpdOperationsAndRepairedClocksAreRead) {
  TempDir dir;
  const std::string facing = "4k4/9/9/9/9/9/9/9/9/4K4 w - -";
  write_file(dir / "in.epd", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2; id \"s\";\n" +
                                 facing + " id \"facing\";\n");
  auto r = run_cli({"render", dir / "in.epd", "--each", dir / "each", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string start = read_file(dir / "each/line-000001.svg");
  EXPECT_EQ(start.find("No board"), std::string::npos) << start;
  EXPECT_EQ(start.find("BAD_HALFMOVE"), std::string::npos);
  EXPECT_NE(read_file(dir / "each/line-000002.svg").find(">XQ_GENERALS_FACING<"), std::string::npos);

  r = run_cli({"validate", dir / "in.epd", "--variant", "auto", "-q", "--html", dir / "r.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::string html = read_file(dir / "r.html");
  EXPECT_EQ(count(html, "<section class=\"reject\""), 1u);
  EXPECT_EQ(count(html, "No board"), 0u);
  EXPECT_EQ(count(html, "width=\"96\" height=\"96\""), 2u) << "both generals outlined";

  write_file(dir / "zero.fen", facing + " 0 0\n");
  r = run_cli({"validate", dir / "zero.fen", "--variant", "xiangqi", "--repair", "-q", "--html", dir / "z.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("XQ_GENERALS_FACING"), std::string::npos) << r.out;
  html = read_file(dir / "z.html");
  EXPECT_EQ(count(html, "No board"), 0u) << "fullmove 0 is repaired, as validate read it";
  EXPECT_EQ(count(html, "width=\"96\" height=\"96\""), 2u);
}

// An EPD record's hmvc / fmvn set its clocks, as validate and convert read them: the caption said "move 1" for
// `fmvn 12` (convert --to fen writes 12), an EP_CLOCK record (`e3 ... hmvc 3`) was drawn as valid, and a bad fmvn
// was not said. With --repair a chess fullmove 0 is read as 1, as for Xiangqi: validate --html drew "No board".
TEST(RenderCli, EpdClockOperationsAreReadAsValidateReadsThem) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - -";
  write_file(dir / "in.epd", k + " bm Kd2; hmvc 7; fmvn 12;\n"
                             "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 hmvc 3;\n" +
                             k + " fmvn 0;\n");
  auto r = run_cli({"convert", "-q", "--to", "fen", "--ep", "keep", dir / "in.epd"});
  EXPECT_EQ(r.out, "4k3/8/8/8/8/8/8/4K3 w - - 7 12\n");
  r = run_cli({"render", dir / "in.epd", "--each", dir / "each", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string first = read_file(dir / "each/line-000001.svg");
  EXPECT_NE(first.find("White to move \xC2\xB7 move 12<"), std::string::npos) << first;
  EXPECT_NE(read_file(dir / "each/line-000002.svg").find(">EP_CLOCK<"), std::string::npos);
  EXPECT_NE(read_file(dir / "each/line-000003.svg").find(">BAD_FULLMOVE<"), std::string::npos);

  write_file(dir / "zero.fen", "4k3/8/8/8/8/8/8/8 w - - 0 0\n");
  r = run_cli({"validate", dir / "zero.fen", "--repair", "-q", "--html", dir / "z.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("MISSING_KING"), std::string::npos) << r.out;
  EXPECT_EQ(count(read_file(dir / "z.html"), "No board"), 0u) << "fullmove 0 is repaired, as validate read it";
}

TEST(RenderCli, VariantOptionAndBadArguments) {
  TempDir dir;
  const std::string xq = "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1";
  auto r = run_cli({"render", xq, "--variant", "chess", "-o", dir / "x.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(dir / "x.svg").find(">BAD_PIECE<"), std::string::npos);
  EXPECT_EQ(run_cli({"render", "no-such-file.fen"}).exit_code, 2);
  EXPECT_EQ(run_cli({"render", kStart, "--size", "0"}).exit_code, 2);
  EXPECT_EQ(run_cli({"render", kStart, "-o", dir / "a.svg", "--each", dir / "d"}).exit_code, 2);
  write_file(dir / "empty.fen", "\n  \n");
  EXPECT_EQ(run_cli({"render", dir / "empty.fen"}).exit_code, 1);
}

TEST(RenderCli, AMissingFileIsNotDrawnAsAFen) {
  // A name with a '/' that names no file was drawn as a broken FEN (a BAD_PIECE panel, exit 0): a mistyped path
  // must be "no such file" (exit 2) and write nothing. A FEN, even a broken one, is still drawn.
  TempDir dir;
  for (const std::string& missing : {(dir / "missing.fen"), (dir / "positions"), std::string("data/missing.epd.zst"),
                                     std::string("./missing")}) {
    auto r = run_cli({"render", missing, "-o", dir / "m.svg"});
    EXPECT_EQ(r.exit_code, 2) << missing;
    EXPECT_EQ(r.err, "fenmill: error: " + missing + ": no such file\n");
    EXPECT_FALSE(fs::exists(dir / "m.svg")) << missing;
  }
  for (const std::string& fen : {std::string("8/8/8/8/8/8/8/4K3"), std::string("rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
                                 std::string("8/8/8/8/8/8/8/4K3 w - - 0 1.5")}) {
    auto r = run_cli({"render", fen, "-o", dir / "f.svg", "--force"});
    EXPECT_EQ(r.exit_code, 0) << fen << ": " << r.err;
    EXPECT_NE(r.err.find("line 1: "), std::string::npos) << fen << ": drawn with its error";
  }
}

TEST(RenderCli, TheExtensionSaysTheFormatAsForValidate) {
  TempDir dir;
  // EPD in any case: the operations are no trailing text (validate reads x.EPD as EPD too).
  write_file(dir / "x.EPD", "4k3/8/8/8/8/8/8/4K3 w - - bm Kd1; id \"x\";\n");
  auto r = run_cli({"render", dir / "x.EPD", "-o", dir / "x.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "") << "a valid position";
  EXPECT_EQ(read_file(dir / "x.svg").find("BAD_"), std::string::npos);
  EXPECT_EQ(run_cli({"validate", dir / "x.EPD", "-q"}).exit_code, 0);
  // CSV, JSON Lines, PGN and binary records are not lines of FEN: each line drawn as a broken FEN, with exit 0,
  // was wrong. Refused before anything is written.
  const std::string fen = "rnbqkbnP/pppppp1p/8/8/8/8/PPPPPPP1/RNBQKBNR b KQq - 0 1";
  write_file(dir / "p.csv", "id,fen\n1," + fen + "\n");
  write_file(dir / "p.TSV", "id\tfen\n1\t" + fen + "\n");
  write_file(dir / "p.jsonl", "{\"fen\": \"" + fen + "\"}\n");
  write_file(dir / "p.pgn", "1. e4 e5 *\n");
  write_file(dir / "p.bin", "x");
  for (const char* name : {"p.csv", "p.TSV", "p.jsonl", "p.pgn", "p.bin"}) {
    r = run_cli({"render", dir / name, "--each", dir / "each"});
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_NE(r.err.find("render draws FEN or EPD lines, not "), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir / "each")) << name;
  }
  EXPECT_NE(run_cli({"render", dir / "p.csv"}).err.find("not CSV records"), std::string::npos);
  // So is a fenmill binary file under a text name or on stdin, by its content (its header was drawn as one
  // broken FEN, BAD_PIECE, exit 0).
  write_file(dir / "start.fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
  ASSERT_EQ(run_cli({"convert", "-q", dir / "start.fen", "-o", dir / "start.bin"}).exit_code, 0);
  const std::string binary = read_file(dir / "start.bin");
  for (const char* name : {"b.fen", "b.EPD", "b.txt"}) {
    write_file(dir / name, binary);
    r = run_cli({"render", dir / name, "--each", dir / "each"});
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_EQ(r.err, "fenmill: error: " + (dir / name) + ": render draws FEN or EPD lines, not binary records (it "
                     "starts with FENMILLB, a fenmill binary file)\n");
    EXPECT_FALSE(fs::exists(dir / "each")) << name;
  }
  CliRun run;
  run.args = {"render", "-", "-o", dir / "stdin.svg"};
  run.stdin_bytes = binary;
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("<stdin>: render draws FEN or EPD lines, not binary records"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "stdin.svg"));
  // A FEN on stdin is still drawn: the peek gives its bytes back.
  run.stdin_bytes = read_file(dir / "start.fen");
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "stdin.svg"));
}

TEST(RenderCli, EachMakesNoDirectoryForARunThatCannotStart) {
  // --each DIR was made before the input was looked at: a missing, unreadable or refused input left an empty
  // directory behind a run that failed at once.
  TempDir dir;
  fs::create_directories(fs::path(dir / "a_directory"));
  write_file(dir / "p.jsonl", "{}\n");
  for (const std::string& input : {std::string("nosuchfile"), dir / "missing.fen", dir / "a_directory", dir / "p.jsonl"}) {
    auto r = run_cli({"render", input, "--each", dir / "pictures"});
    EXPECT_EQ(r.exit_code, 2) << input;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir / "pictures")) << input;
  }
  // Nor does an input without records, which is the data problem it is without --each: it said "0 pictures" and
  // exited 0, with no word at all under -q, where `render empty.fen` says it holds no record to draw (exit 1).
  write_file(dir / "empty.fen", "\n \n");
  for (bool quiet : {false, true}) {
    std::vector<std::string> args = {"render", dir / "empty.fen", "--each", dir / "pictures"};
    if (quiet) args.push_back("-q");
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err, "fenmill: " + (dir / "empty.fen") + " holds no record to draw\n");
    EXPECT_FALSE(fs::exists(dir / "pictures"));
  }
  // A directory that cannot be made is an error at the first picture, as before at the start.
  write_file(dir / "file", "");
  write_file(dir / "one.fen", "8/8/8/8/8/8/8/K6k w - - 0 1\n");
  auto r = run_cli({"render", dir / "one.fen", "--each", dir / "file/pictures"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("fenmill: error: " + (dir / "file/pictures") + ": ", 0), 0u) << r.err;
}

TEST(RenderCli, NulOnlyLinesAreBlankAsInValidate) {
  // validate skips a line of NUL bytes (some EPD collections hold them) as blank; render must not draw it as
  // the first record (an EMPTY_RECORD panel), nor give it a picture of its own with --each.
  TempDir dir;
  write_file(dir / "in.fen", std::string("\0\n\0\0\r\n \0\t\n", 10) + kStart + "\n");
  auto r = run_cli({"render", dir / "in.fen", "-o", dir / "first.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_file(dir / "first.svg"), read_file(kGoldenDir / "chess_start.svg"));
  r = run_cli({"render", dir / "in.fen", "--each", dir / "each", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(fs::path(dir / "each"))) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, (std::vector<std::string>{"line-000004.svg"}));
  write_file(dir / "nul.fen", std::string("\0\n\0\0\n", 5));
  r = run_cli({"render", dir / "nul.fen"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("holds no record to draw"), std::string::npos) << r.err;
  r = run_cli_stdin({"render", "-"}, std::string("\0\n", 2));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "fenmill: <stdin> holds no record to draw\n") << "stdin is <stdin> in messages, not -";
  EXPECT_EQ(run_cli({"validate", dir / "nul.fen", "-q"}).exit_code, 0) << "no record there for validate either";
}

TEST(RenderCli, ValidateWritesTheHtmlReport) {
  TempDir dir;
  write_file(dir / "in.fen", "rnbqkbnP/pppppp1p/8/8/8/8/PPPPPPP1/RNBQKBNR b KQq - 0 1\n" + kStart +
                                 "\nbad <b>fen</b>\n"
                                 "rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/1C5C1/9/RNBAKABNR w - - 0 1\n");
  auto r = run_cli({"validate", dir / "in.fen", "--variant", "auto", "--html", dir / "report.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(cli_test::split_lines(r.out).size(), 3u) << "the usual report still goes to stdout";
  std::string html = read_file(dir / "report.html");
  EXPECT_NE(html.find("<title>fenmill validate: 3 invalid of 4 records</title>"), std::string::npos);
  EXPECT_EQ(count(html, "<section class=\"reject\""), 3u);
  EXPECT_EQ(count(html, "<svg "), 4u) << "three pictures and the shared shapes";
  EXPECT_EQ(count(html, "width=\"92\" height=\"92\""), 1u) << "h8 outlined";
  EXPECT_EQ(count(html, "width=\"96\" height=\"96\""), 2u) << "both generals outlined";
  EXPECT_NE(html.find("bad &lt;b&gt;fen&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);

  // An existing report is refused before the run, unless --force.
  write_file(dir / "old.html", "old");
  r = run_cli({"validate", dir / "in.fen", "--html", dir / "old.html"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "") << "refused before reading anything";
  EXPECT_EQ(read_file(dir / "old.html"), "old");
  r = run_cli({"validate", dir / "in.fen", "--variant", "auto", "--html", dir / "old.html", "--force"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(read_file(dir / "old.html"), html);
}

// The table of codes gave every code its chess meaning: a Xiangqi run's RANK_SUM read "a rank does not sum to 8
// squares" above records whose messages said 9 points. Each row now speaks of the variant of its first record.
TEST(RenderCli, HtmlReportCodeTableUsesTheRecordsVariantWords) {
  TempDir dir;
  write_file(dir / "x.fen", "3k5/9/9/9/9/9/9/9/9/4K3 w - - 0 1\n3k5/9/9/9/9/9/9/9/9/9 w - - 0 1\n");
  auto r = run_cli({"validate", dir / "x.fen", "--variant", "xiangqi", "-q", "--html", dir / "x.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::string html = read_file(dir / "x.html");
  EXPECT_NE(html.find("<td class=\"n\">1</td><td>a rank does not sum to 9 points</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td class=\"n\">1</td><td>each side needs exactly one general</td>"),
            std::string::npos);
  EXPECT_EQ(html.find("8 squares"), std::string::npos);
  // A chess run keeps the chess words; in a mixed run the first record with the code decides.
  write_file(dir / "c.fen", "4k3/8/8/8/8/8/8/4K2 w - - 0 1\n3k5/9/9/9/9/9/9/9/9/4K3 w - - 0 1\n");
  r = run_cli({"validate", dir / "c.fen", "--variant", "auto", "-q", "--html", dir / "c.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  html = read_file(dir / "c.html");
  EXPECT_NE(html.find("<td class=\"n\">2</td><td>a rank does not sum to 8 squares</td>"), std::string::npos) << html;
}

TEST(RenderCli, HtmlReportReadsTheColumnInTheFensLineOfAMultiLineCsvRow) {
  // A CSV row whose quoted field holds line breaks is one record, and its column counts in the FEN's line. The
  // report counted it from the row's first line: a rejected position got "No board" and a syntax error's mark
  // fell on the wrong byte.
  TempDir dir;
  const std::string back_rank = "rnbqkbnP/pppppp1p/8/8/8/8/PPPPPPP1/RNBQKBNR b KQq - 0 1";
  write_file(dir / "in.csv", "id,comment,fen\n1,\"multi\nline <b>\"," + back_rank +
                                 "\n2,\"two\r\nlines\",rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n"
                                 "3,\"a comment\nover two lines\"," + back_rank + "\n");
  auto r = run_cli({"validate", dir / "in.csv", "--html", dir / "r.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("in.csv:3:11: PAWN_ON_BACK_RANK"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("in.csv:5:21: BAD_PIECE"), std::string::npos) << r.out;
  std::string html = read_file(dir / "r.html");
  EXPECT_EQ(count(html, "<section class=\"reject\""), 3u);
  EXPECT_EQ(count(html, "width=\"92\" height=\"92\""), 2u) << "both boards drawn, h8 outlined";
  EXPECT_EQ(count(html, "No board"), 1u) << "only the BAD_PIECE record";
  EXPECT_NE(html.find("pppp<tspan fill=\"#e0201b\" font-weight=\"bold\" text-decoration=\"underline\">X</tspan>ppp"),
            std::string::npos);
  EXPECT_NE(html.find("<pre>1,&quot;multi\nline &lt;b&gt;&quot;," + back_rank + "</pre>"), std::string::npos)
      << "the whole row is shown";
}

TEST(RenderCli, HtmlReportKeepsOnlyTheBytesAroundTheColumnOfALongRecord) {
  // Each rejected line was kept and written whole: 40 lines of 1 MiB made a 168 MB report and 300 MB of memory
  // (10,000 of them, the report's limit, 10 GiB). Now 2 KiB around the column, said so, and still drawn.
  TempDir dir;
  const std::string pad(1 << 20, '<');
  const std::string back_rank = "rnbqkbnP/pppppp1p/8/8/8/8/PPPPPPP1/RNBQKBNR b KQq -";
  std::string straddling = back_rank + " c0 \"";  // an e-acute across the 2048th byte
  straddling += std::string(2047 - straddling.size(), '<') + "\xC3\xA9" + pad + "\";";
  write_file(dir / "in.fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1" + std::string(1 << 20, ' ') + "x<b>" + pad + "\n");
  write_file(dir / "in.epd", back_rank + " c0 \"" + pad + "\";\n" + straddling + "\n");
  write_file(dir / "in.jsonl", "{\"fen\": \"" + back_rank + " 0 1\", \"pad\": \"" + pad + "\"}\n");
  auto r = run_cli({"validate", dir / "in.fen", dir / "in.epd", dir / "in.jsonl", "-q", "--html", dir / "r.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("in.fen:1:1048606: TRAILING_TEXT"), std::string::npos) << r.out;
  std::string html = read_file(dir / "r.html");
  EXPECT_LT(html.size(), 100000u);
  EXPECT_EQ(count(html, "<section class=\"reject\""), 4u);
  EXPECT_NE(html.find("<p>The record is 2097185 bytes long: the 2048 bytes around column 1048606 are shown.</p>"),
            std::string::npos);
  EXPECT_NE(html.find("<pre>\xE2\x80\xA6" + std::string(512, ' ') + "x&lt;b&gt;&lt;&lt;"), std::string::npos);
  EXPECT_NE(html.find(">column 1048606</text>"), std::string::npos) << "the record's column, not the kept part's";
  EXPECT_NE(html.find("<tspan fill=\"#e0201b\" font-weight=\"bold\" text-decoration=\"underline\">x</tspan>&lt;b&gt;"),
            std::string::npos);
  EXPECT_EQ(count(html, "bytes long"), 4u);
  EXPECT_EQ(count(html, "width=\"92\" height=\"92\""), 3u) << "the long records' positions drawn, h8 outlined";
  EXPECT_EQ(count(html, "No board"), 1u);
  EXPECT_EQ(html.find("\xEF\xBF\xBD"), std::string::npos) << "cut between characters";
  EXPECT_NE(html.find("&lt;\xE2\x80\xA6</pre>"), std::string::npos) << "the e-acute left out whole";
  // A short record is shown whole, without the note.
  const std::string short_record = back_rank + " c0 \"" + std::string(1900, '<') + "\";";
  write_file(dir / "short.epd", short_record + "\n");
  r = run_cli({"validate", dir / "short.epd", "-q", "--html", dir / "s.html"});
  html = read_file(dir / "s.html");
  EXPECT_EQ(html.find("bytes long"), std::string::npos);
  EXPECT_NE(html.find("<pre>" + back_rank + " c0 &quot;"), std::string::npos);
  EXPECT_EQ(count(html, "&lt;"), 1900u);
}

TEST(RenderCli, HtmlReportDrawsAJsonFenWrittenWithEscapes) {
  // Some JSON writers escape every '/' (PHP's json_encode): validate reads the value, but the report took the raw
  // text and said "No board: this record is not a position" of a position it had just judged.
  TempDir dir;
  write_file(dir / "in.jsonl",
             "{\"fen\": \"rnbqkbnP\\/pppppp1p\\/8\\/8\\/8\\/8\\/PPPPPPP1\\/RNBQKBNR b KQq - 0 1\"}\n"
             "{\"id\": \"a\\\"b\", \"fen\": \"4k3/8/8/8/8/8/8/4K3\\u0020w\\u0020K - 0 1\"}\n"
             "{\"fen\": \"4k3\\/8\\/8\\/8\\/8\\/8\\/8\\/4KX3 w - - 0 1\"}\n");
  auto r = run_cli({"validate", dir / "in.jsonl", "-q", "--html", dir / "r.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("in.jsonl:1:10: PAWN_ON_BACK_RANK"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("in.jsonl:2:24: CASTLING_NO_ROOK"), std::string::npos) << r.out;
  std::string html = read_file(dir / "r.html");
  EXPECT_EQ(count(html, "<section class=\"reject\""), 3u);
  EXPECT_EQ(count(html, "width=\"92\" height=\"92\""), 2u) << "h8, and h1 of the castling right";
  EXPECT_EQ(count(html, "No board"), 1u) << "only the BAD_PIECE record";
}

TEST(RenderCli, HtmlReportDrawsNoPictureForAPgnClockRange) {
  TempDir dir;
  write_file(dir / "g.pgn", "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 65535 1\"]\n\n1. Kd2 Kd7 *\n");
  write_file(dir / "p.fen", "4k3/8/8/8/8/8/8/4K3 w - - 70000 1\n");
  auto r = run_cli({"validate", dir / "g.pgn", dir / "p.fen", "-q", "--html", dir / "r.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::string html = read_file(dir / "r.html");
  EXPECT_EQ(count(html, "<section class=\"reject\""), 2u);
  EXPECT_EQ(count(html, "No board"), 1u) << "only p.fen's record is drawn";
  EXPECT_NE(html.find("<a href=\"#reject-2\">CLOCK_RANGE</a></td><td class=\"n\">1</td><td>clock value"), std::string::npos);
}

// A binary record that decodes to an invalid position was rejected with its bytes in hex as `input`: the report
// drew "No board" for a position fenmill had just judged (and marked). Its input is now the position's FEN; a
// record that does not decode (BAD_RECORD) keeps its hex.
TEST(RenderCli, HtmlReportDrawsAnInvalidBinaryRecord) {
  TempDir dir;
  Position pos;
  ASSERT_TRUE(normalize_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", pos).ok());
  std::uint8_t records[3 * kRecordSize];
  encode_record(pos, records);
  encode_record(pos, records + kRecordSize);
  ASSERT_EQ(records[kRecordSize + 8], 0x53) << "a1 a rook (3), e1 the king (5)";
  records[kRecordSize + 8] = 0x50;  // a1 a white pawn
  encode_record(pos, records + 2 * kRecordSize);
  records[2 * kRecordSize + 8] = 0xFF;  // code 15: no position
  std::string file;
  append_header(file, BinaryVariant::kChess);
  append_block(file, records, 3);
  append_end_block(file, 3);
  write_file(dir / "in.bin", file);
  auto r = run_cli({"validate", dir / "in.bin", "-q", "--json", "--html", dir / "r.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string hex = "1100000000000010ff0b00000000000000000000000000000000000100000000";
  EXPECT_EQ(r.out, "{\"file\":\"" + (dir / "in.bin") +
                       "\",\"line\":2,\"column\":1,\"code\":\"PAWN_ON_BACK_RANK\",\"message\":\"a pawn stands on rank "
                       "1 or 8 (squares: a1)\",\"input\":\"4k3/8/8/8/8/8/8/P3K3 w - - 0 1\"}\n"
                       "{\"file\":\"" + (dir / "in.bin") +
                       "\",\"line\":3,\"column\":1,\"code\":\"BAD_RECORD\",\"message\":\"the binary record does not "
                       "decode to a position (docs/FORMAT.md)\",\"input\":\"" + hex + "\"}\n");
  std::string html = read_file(dir / "r.html");
  EXPECT_EQ(count(html, "<section class=\"reject\""), 2u);
  EXPECT_EQ(count(html, "width=\"92\" height=\"92\""), 1u) << "the board of record 2, a1 outlined";
  EXPECT_EQ(count(html, "No board"), 1u) << "only the BAD_RECORD";
}

TEST(RenderCli, HtmlReportFindsTheFenInCsv) {
  TempDir dir;
  write_file(dir / "in.csv", "id,fen\n1,\"rnbqkbnP/pppppp1p/8/8/8/8/PPPPPPP1/RNBQKBNR b KQq - 0 1\"\n");
  auto r = run_cli({"validate", dir / "in.csv", "--html", dir / "report.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::string html = read_file(dir / "report.html");
  EXPECT_EQ(count(html, "width=\"92\" height=\"92\""), 1u) << "the board of the CSV field, h8 outlined";
  EXPECT_EQ(count(html, "No board"), 0u);
}

// ---------------------------------------------------------------------------------------------------------
// Real renderers: rsvg-convert for the SVGs, headless Chromium for the HTML report.

bool have_program(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

int run_shell(const std::string& command) {
  int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct PngFacts {
  bool is_png = false;
  std::uint32_t width = 0, height = 0;
  std::size_t bytes = 0;
};

PngFacts png_facts(const fs::path& path) {
  PngFacts f;
  if (!fs::exists(path)) return f;
  std::string png = read_file(path);
  f.bytes = png.size();
  f.is_png = png.size() > 24 && png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0 && png.compare(12, 4, "IHDR") == 0;
  auto be32 = [&](std::size_t at) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(png[at]) << 24 | static_cast<unsigned char>(png[at + 1]) << 16 |
                                      static_cast<unsigned char>(png[at + 2]) << 8 | static_cast<unsigned char>(png[at + 3]));
  };
  if (f.is_png) {
    f.width = be32(16);
    f.height = be32(20);
  }
  return f;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A PNG of one colour compresses to almost nothing; a board with pieces does not. The blank control shows
// that the threshold tells them apart.
constexpr std::size_t kNotBlankBytes = 4000;

TEST(RenderPng, EveryGoldenDrawsWithRsvg) {
  if (!have_program("rsvg-convert")) GTEST_SKIP() << "rsvg-convert not installed (scripts/setup.sh: librsvg2-bin)";
  TempDir dir;
  write_file(dir / "blank.svg",
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"360\" height=\"360\" viewBox=\"0 0 930 930\">"
             "<rect width=\"930\" height=\"930\" fill=\"#fff\"/></svg>\n");
  ASSERT_EQ(run_shell("rsvg-convert -w 200 " + shell_quote(dir / "blank.svg") + " -o " + shell_quote(dir / "blank.png")), 0);
  PngFacts blank = png_facts(dir / "blank.png");
  ASSERT_TRUE(blank.is_png);
  EXPECT_LT(blank.bytes, kNotBlankBytes);
  for (const GoldenPicture& g : golden_pictures()) {
    fs::path svg = kGoldenDir / (g.name + ".svg"), png = dir.path() / (g.name + ".png");
    ASSERT_EQ(run_shell("rsvg-convert -w 200 " + shell_quote(svg.string()) + " -o " + shell_quote(png.string())), 0)
        << g.name << ": rsvg-convert rejected the SVG";
    PngFacts f = png_facts(png);
    ASSERT_TRUE(f.is_png) << g.name;
    EXPECT_EQ(f.width, 200u) << g.name;
    std::smatch m;
    std::string text = read_file(svg);
    ASSERT_TRUE(std::regex_search(text, m, std::regex("viewBox=\"0 0 ([0-9]+) ([0-9]+)\"")));
    EXPECT_NEAR(f.height, 200.0 * std::stod(m[2]) / std::stod(m[1]), 1.0) << g.name << ": keeps its shape";
    EXPECT_GT(f.bytes, kNotBlankBytes) << g.name << ": looks blank";
  }
}

TEST(RenderPng, HtmlReportInHeadlessChromium) {
  std::string chromium = have_program("chromium") ? "chromium" : have_program("chromium-browser") ? "chromium-browser" : "";
  if (chromium.empty()) GTEST_SKIP() << "chromium not installed (scripts/setup.sh installs it)";
  TempDir dir;
  write_file(dir / "in.fen", "rnbqkbnP/pppppp1p/8/8/8/8/PPPPPPP1/RNBQKBNR b KQq - 0 1\n" + kStart +
                                 "\nrnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/1C5C1/9/RNBAKABNR w - - 0 1\nbad\n");
  auto r = run_cli({"validate", dir / "in.fen", "--variant", "auto", "--html", dir / "report.html", "-q"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  fs::create_directories(dir.path() / "profile");
  std::string command = "timeout 180 " + chromium +
                        " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
                        " --disable-component-update --disable-sync --user-data-dir=" +
                        shell_quote(dir / "profile") + " --screenshot=" + shell_quote(dir / "shot.png") +
                        " --window-size=1000,800 " + shell_quote("file://" + (dir / "report.html")) + " >" +
                        shell_quote(dir / "chromium.log") + " 2>&1";
  int exit_code = run_shell(command);
  PngFacts f = png_facts(dir.path() / "shot.png");
  ASSERT_TRUE(f.is_png) << "chromium exited " << exit_code << ":\n" << read_file(dir / "chromium.log");
  EXPECT_EQ(f.width, 1000u);
  EXPECT_EQ(f.height, 800u);
  EXPECT_GT(f.bytes, 5 * kNotBlankBytes) << "the report's screenshot looks blank";
}

}  // namespace
}  // namespace fenmill::render
