// Soundness of the validator: no position reachable by legal play may be rejected. tests/diff/random_playouts.mjs
// plays random legal games with chessops (standard and Chess960 starts), biased toward double and discovered
// checks, en-passant captures, castling, promotions and bare endings, the corners of IMPOSSIBLE_CHECK,
// EP_ILLEGAL_PUSH and TOO_MANY_PROMOTED; `fenmill validate` must accept all ~200,000 positions. The corpus's
// counts are printed and held to minimums, so a change to the script cannot quietly make the test weak.
// FENMILL_PLAYOUT_POSITIONS and FENMILL_PLAYOUT_SEED run a longer or different corpus (minimums scale with it).
// Skipped when node or chessops (`npm ci --prefix tests/diff`) is missing, like the differential test.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.h"
#include "node_reference.h"
#include "summary_json.h"

namespace fenmill::cli_test {
namespace {

namespace fs = std::filesystem;

using node_reference::reference_missing;
using node_reference::run_node_script;

// "name=count name=count ..." as the script prints it.
std::map<std::string, long> parse_counts(const std::vector<std::string>& lines) {
  std::map<std::string, long> counts;
  for (const std::string& line : lines) {
    std::istringstream in(line);
    for (std::string pair; in >> pair;)
      if (std::size_t eq = pair.find('='); eq != std::string::npos) counts[pair.substr(0, eq)] = std::stol(pair.substr(eq + 1));
  }
  return counts;
}

long env_number(const char* name, long fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::stol(value) : fallback;
}

TEST(ReachablePositions, LegalPlayIsNeverRejected) {
  if (std::string why = reference_missing("to play the games"); !why.empty()) GTEST_SKIP() << why;
  constexpr long kDefaultPositions = 200000;
  const long positions = env_number("FENMILL_PLAYOUT_POSITIONS", kDefaultPositions);
  const long seed = env_number("FENMILL_PLAYOUT_SEED", 0x36c0ffee);

  TempDir tmp;
  const std::string standard = tmp / "standard.fen", chess960 = tmp / "chess960.fen";
  const std::vector<std::string> args = {std::to_string(positions), standard, chess960, std::to_string(seed)};
  std::vector<std::string> out;
  std::map<std::string, long> counts;
  if (run_node_script("random_playouts.mjs", args, out)) counts = parse_counts(out);
  ASSERT_GE(counts["positions"], positions)
      << "the playout script failed: " << node_reference::node_command("random_playouts.mjs", args);

  long validated = 0;
  // Standard games in the default mode (KQkq with the king on e1/e8 names the corner rooks); Chess960 games with
  // --chess960, since chessops writes their rights as X-FEN (K/Q: the outermost rook).
  for (const auto& [file, extra] : {std::pair{standard, ""}, std::pair{chess960, "--chess960"}}) {
    std::vector<std::string> args = {"validate", "-q", "--summary", file + ".summary.json", file};
    if (*extra) args.push_back(extra);
    CliResult r = run_cli(args);
    const std::string summary = read_file(file + ".summary.json");
    const std::vector<std::string> lines = split_lines(read_file(file));
    EXPECT_EQ(json_number(summary, "records"), lines.size()) << file;
    validated += static_cast<long>(json_number(summary, "valid"));
    if (r.exit_code == 0 && r.out.empty()) continue;
    // Each report line is FILE:LINE:COLUMN: CODE: message; show the move that led there.
    const std::vector<std::string> hows = split_lines(read_file(file + ".how"));
    std::string shown;
    int n = 0;
    for (const std::string& report : split_lines(r.out)) {
      if (++n > 10) break;
      std::size_t line = report.starts_with(file + ":") ? std::stoul(report.substr(file.size() + 1)) : 0;
      shown += "  " + (line >= 1 && line <= lines.size() ? lines[line - 1] : "?") + "\n    line " + report.substr(file.size() + 1) +
               "\n    reached by (kinds, move, position before): " + (line >= 1 && line <= hows.size() ? hows[line - 1] : "?") +
               "\n";
    }
    ADD_FAILURE() << "fenmill validate " << extra << " " << fs::path(file).filename().string()
                  << " rejected positions reached by legal play (exit " << r.exit_code
                  << "; first 10):\n" << shown << r.err;
  }
  EXPECT_EQ(validated, counts["positions"]);

  std::printf("reachable positions: %ld validated (%ld games, %ld of them Chess960)\n", validated, counts["games"],
              counts["chess960_games"]);
  for (const auto& [name, count] : counts) std::printf("%9ld  %s\n", count, name.c_str());

  // The seeded default corpus holds about twice each of these (FENMILL_PLAYOUT_* scale the floor).
  const double scale = static_cast<double>(positions) / kDefaultPositions;
  const std::map<std::string, long> minimums = {
      {"chess960_games", 200},         {"checks", 20000},
      {"contact_checks", 5000},        {"discovered_checks", 2500},
      {"double_checks", 2000},         {"double_checks_by_promotion", 60},
      {"double_checks_by_ep", 4},      {"ep_captures", 1200},
      {"ep_captures_with_check", 60},  {"ep_squares_written", 3500},
      {"ep_squares_with_check", 35},   {"castlings_a_side", 400},
      {"castlings_h_side", 400},       {"castlings_with_check", 8},
      {"promotions_q", 1500},          {"promotions_r", 1300},
      {"promotions_b", 1200},          {"promotions_n", 1200},
      {"capture_promotions", 2500},    {"promotions_with_check", 2000},
      {"few_pieces", 20000},           {"lone_king_vs_2_queens", 80},
  };
  for (const auto& [name, minimum] : minimums)
    EXPECT_GE(counts[name], static_cast<long>(minimum * scale)) << name << ": the corpus has become too weak";
}

}  // namespace
}  // namespace fenmill::cli_test
