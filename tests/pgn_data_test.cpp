// PGN replay against real data (../shared/data; every test skips cleanly without it):
//  * perft on epd/perft.epd and on the 960 Chess960 start positions of epd/FRC_openings.epd;
//  * every PGN file under pgn/: games and positions counted, and the set of positions compared with an
//    independent replay by Debian's pgn-extract (skipped if it is not installed);
//  * the files with variations, followed (ReplayOptions::follow_variations), against pgn-extract's
//    --splitvariants, which writes every variation out as a game of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "fen/normalize.h"
#include "fen/parse.h"
#include "fen/write.h"
#include "pgn/game_reader.h"
#include "pgn/movegen.h"

namespace fenmill {
namespace {

namespace fs = std::filesystem;

const fs::path kData = FENMILL_SHARED_DATA;
constexpr const char* kPgnExtract = "/usr/games/pgn-extract";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    while (!line.empty() && (line.back() == '\r' || line.back() == '\0')) line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

// ---------------------------------------------------------------- perft on real suites

// Each line: a 6-field FEN, then "; D1 20; D2 400; ...". Every depth whose node count is at most
// kMaxNodes is checked (bulk counting keeps that well under a second per million nodes).
TEST(PgnData, PerftSuite) {
  const fs::path path = kData / "epd" / "perft.epd";
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  constexpr std::uint64_t kMaxNodes = 4'000'000;
  std::string text = read_file(path);
  int positions = 0, checks = 0;
  for (std::string_view line : split_lines(text)) {
    std::size_t semi = line.find(';');
    if (line.empty() || semi == std::string_view::npos) continue;
    Position pos;
    ASSERT_TRUE(parse_fen(line.substr(0, semi), pos).ok()) << line;
    ++positions;
    for (std::string_view rest = line.substr(semi + 1); !rest.empty();) {
      std::size_t next = rest.find(';');
      std::string field(rest.substr(0, next));
      rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
      int depth = 0;
      unsigned long long nodes = 0;
      if (std::sscanf(field.c_str(), " D%d %llu", &depth, &nodes) != 2 || nodes > kMaxNodes) continue;
      EXPECT_EQ(perft(pos, depth), nodes) << line << " depth " << depth;
      ++checks;
    }
  }
  EXPECT_GT(positions, 150);
  EXPECT_GT(checks, 500);
}

// The sum of perft(3) over all 960 Chess960 start positions (X-FEN KQkq = outermost rooks), computed
// with fairy-stockfish 11.1 in UCI_Chess960 mode. Castling is possible from depth 3 on in several.
TEST(PgnData, Chess960StartPositions) {
  const fs::path path = kData / "epd" / "FRC_openings.epd";
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  std::string text = read_file(path);
  std::uint64_t total = 0;
  int count = 0;
  for (std::string_view line : split_lines(text)) {
    if (line.empty()) continue;
    Position pos;
    ParseOptions options;
    options.chess960 = true;
    ASSERT_TRUE(parse_fen(line, pos, options).ok()) << line;
    total += perft(pos, 3);
    ++count;
  }
  EXPECT_EQ(count, 960);
  EXPECT_EQ(total, 8224968u);
}

// ---------------------------------------------------------------- every PGN file

// Placement, side, castling, ep (legal policy): the key both replays are compared on.
std::string position_key(Position pos) {
  apply_ep_policy(pos, EpPolicy::kLegal);
  char buf[kMaxFenLength];
  return std::string(buf, write_position_fields(pos, buf, CastlingNotation::kXFen));
}

struct Replayed {
  std::uint64_t games = 0, positions = 0, bad_games = 0;
  std::set<std::string> keys;
  std::map<std::string, int> errors;  // error name -> games
};

Replayed replay_file(std::string_view text, std::size_t chunk_size, const ReplayOptions& options = {}) {
  Replayed r;
  GameReader reader(options);
  std::uint64_t line = 1;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = find_game_start(text.substr(start), std::min(chunk_size, text.size() - start)) + start;
    ReplayCallbacks callbacks;
    auto on_position = [&](const GameInfo&, const PlyInfo&, const Position& pos) { r.keys.insert(position_key(pos)); };
    auto on_error = [&](const GameInfo&, const ReplayError& e) { ++r.errors[std::string(pgn_error_name(e.code))]; };
    callbacks.on_position = on_position;
    callbacks.on_error = on_error;
    ReplayStats stats = reader.replay(text.substr(start, end - start), line, callbacks);
    r.games += stats.games;
    r.positions += stats.positions;
    r.bad_games += stats.bad_games;
    line += static_cast<std::uint64_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(start),
                                                  text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
    start = end;
  }
  return r;
}

struct Extracted {
  std::uint64_t positions = 0;
  std::set<std::string> keys;
  bool ok = false;
};

// pgn-extract writes one EPD line per position of every game it accepts (a blank line after each
// game). --nofauxep and our own ep normalization make the en-passant conventions agree.
Extracted run_pgn_extract(const fs::path& pgn, const std::string& extra_options = "") {
  Extracted x;
  fs::path out = fs::temp_directory_path() / ("fenmill_pgn_extract_" + std::to_string(::getpid()) + ".epd");
  std::string command = std::string(kPgnExtract) + " -s -Wepd --nofauxep --allownullmoves " + extra_options + " -o '" +
                        out.string() + "' '" + pgn.string() + "' 2>/dev/null";
  if (std::system(command.c_str()) != 0 && !fs::exists(out)) return x;
  std::string text = read_file(out);
  fs::remove(out);
  for (std::string_view line : split_lines(text)) {
    if (line.empty()) continue;
    std::size_t end = 0;
    for (int field = 0; field < 4 && end != std::string_view::npos; ++field) end = line.find(' ', end + (field > 0));
    Position pos;
    NormalizeOptions options;
    options.chess960 = true;  // KQkq = outermost rooks, which is also right for standard chess
    NormalizeResult result = normalize_fen(line.substr(0, end), pos, options);
    if (!result.ok()) {
      ADD_FAILURE() << "pgn-extract wrote an invalid position: " << line;
      continue;
    }
    ++x.positions;
    x.keys.insert(position_key(pos));
  }
  x.ok = true;
  return x;
}

// Games per file as counted independently in SOURCES.md (tag-pair sections).
const std::map<std::string, std::uint64_t> kGamesPerFile = {
    {"Carlsen.pgn", 2851},
    {"lichess.pgn", 999},
    {"8moves_v3.pgn", 34700},
    {"eco.pgn", 2014},
    {"TCEC_Cup_10_Final.pgn", 12},
    {"TCEC_Season_10_-_Superfinal.pgn", 100},
    {"TCEC_Season_16_-_Frc_Sufi.pgn", 20},
    {"TCEC_Season_22_-_Grob_10x_Odds.pgn", 1},
    {"TCEC_Season_24_-_Knight_Odds_Bonus.pgn", 9},
    {"mate_in_2.pgn", 166},
    {"mate_in_3.pgn", 375},
    {"utf8-bom.pgn", 2},
    {"kasparov-deep-blue-1997.pgn", 6},
    {"cutechess-fischerrandom.pgn", 4},
    {"antichess-programfox.pgn", 2},
};

// Files where fenmill rejects games or the two replays differ, and why. Every other file must have no
// rejected game and exactly pgn-extract's positions.
struct Expected {
  std::uint64_t bad_games = 0;   // games fenmill rejects
  bool variant_file = false;     // every game is rejected as UNSUPPORTED_VARIANT
  std::size_t only_ours = 0;     // positions fenmill reports and pgn-extract does not
  std::size_t only_theirs = 0;   // and the other way round
  std::int64_t extra_theirs = 0;  // pgn-extract's position count minus fenmill's
};

const std::map<std::string, Expected> kExpected = {
    // Antichess: fenmill rejects both games by their [Variant] tag; pgn-extract rejects them at the
    // first move that is illegal in chess. Both report nothing.
    {"antichess-programfox.pgn", {2, true, 0, 0, 0}},
    // Crazyhouse: fenmill rejects the game by its [Variant] tag. pgn-extract knows no variants and
    // loses its way at every drop ("B@b6"): it drops the game and reports each piece of movetext after
    // a drop as a new game without moves, i.e. the standard start position 42 and 38 times.
    {"knightvuillaume-jannlee-zh-lichess.pgn", {1, true, 0, 1, 42}},
    {"saturs-jannlee-zh-lichess.pgn", {1, true, 0, 1, 38}},
    // Game 1 plays "1... Nxg5" where no knight reaches g5: both reject it. Games "Fork Challenge #8"
    // and "#9" carry variations that cannot be played where they stand ("1... Nxg5 (1. Bxc6+)");
    // pgn-extract replays variations and rejects both games, fenmill skips variations and keeps their
    // legal main lines: 12 positions only fenmill reports.
    {"lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn", {1, false, 12, 0, -12}},
    // Four games have tag values with unescaped quotes ([White ""Mirage""]). fenmill reads the value up
    // to the last quote of the line; pgn-extract loses the tag section and reports 4 extra games that
    // hold only the standard start position (and then replays the real games as well).
    {"mate_in_3.pgn", {0, false, 0, 1, 4}},
};

TEST(PgnData, EveryFileAgreesWithPgnExtract) {
  const fs::path root = kData / "pgn";
  if (!fs::exists(root)) GTEST_SKIP() << "no " << root;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.is_regular_file() && entry.path().extension() == ".pgn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 20u);
  const bool have_pgn_extract = fs::exists(kPgnExtract);
  std::uint64_t total_games = 0, total_positions = 0;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const std::string name = file.filename().string();
    const auto known = kExpected.find(name);
    const Expected expected = known == kExpected.end() ? Expected{} : known->second;
    std::string text = read_file(file);
    Replayed whole = replay_file(text, text.size());
    total_games += whole.games;
    total_positions += whole.positions;
    // Cut into small chunks at find_game_start(): the same games and positions.
    Replayed chunked = replay_file(text, 16 << 10);
    EXPECT_EQ(chunked.games, whole.games);
    EXPECT_EQ(chunked.positions, whole.positions);
    EXPECT_EQ(chunked.bad_games, whole.bad_games);
    EXPECT_TRUE(chunked.keys == whole.keys);
    if (auto it = kGamesPerFile.find(name); it != kGamesPerFile.end()) {
      EXPECT_EQ(whole.games, it->second);
    }
    EXPECT_GT(whole.games, 0u);
    std::string errors;
    for (const auto& [code, n] : whole.errors) errors += code + " x" + std::to_string(n) + " ";
    EXPECT_EQ(whole.bad_games, expected.bad_games) << errors;
    if (expected.variant_file) {
      EXPECT_EQ(whole.errors["UNSUPPORTED_VARIANT"], static_cast<int>(whole.games));
    }

    if (!have_pgn_extract) continue;
    Extracted x = run_pgn_extract(file);
    ASSERT_TRUE(x.ok);
    EXPECT_EQ(static_cast<std::int64_t>(x.positions) - static_cast<std::int64_t>(whole.positions), expected.extra_theirs);
    std::vector<std::string> only_ours, only_theirs;
    std::set_difference(whole.keys.begin(), whole.keys.end(), x.keys.begin(), x.keys.end(), std::back_inserter(only_ours));
    std::set_difference(x.keys.begin(), x.keys.end(), whole.keys.begin(), whole.keys.end(), std::back_inserter(only_theirs));
    EXPECT_EQ(only_ours.size(), expected.only_ours) << "e.g. " << (only_ours.empty() ? "" : only_ours.front());
    EXPECT_EQ(only_theirs.size(), expected.only_theirs) << "e.g. " << (only_theirs.empty() ? "" : only_theirs.front());
  }
  std::printf("[ pgn data ] %zu files, %llu games, %llu positions%s\n", files.size(),
              static_cast<unsigned long long>(total_games), static_cast<unsigned long long>(total_positions),
              have_pgn_extract ? ", compared with pgn-extract" : " (pgn-extract not installed: not compared)");
}

// ---------------------------------------------------------------- followed variations

// Two independent checks of follow_variations on every file where following changes anything:
//  (a) pgn-extract --splitvariants -Wepd: pgn-extract cuts each variation out as a game of its own (the
//      moves before it, then the variation) and replays it with its own move generator;
//  (b) pgn-extract --splitvariants writes those games as PGN, which fenmill replays with variations skipped:
//      pgn-extract's cutting against our branching (which position a '(' goes back to).
// Both must give exactly the positions we report when following. Sets are compared, not counts: a split game
// repeats the positions before its variation.
struct SplitExpected {
  std::uint64_t more_bad_games = 0;  // games rejected when following and not when skipping
  std::size_t only_ours = 0, only_theirs = 0;
};

// Files where following rejects games or the sets differ, and why. Every other file must agree exactly.
const std::map<std::string, SplitExpected> kSplitExpected = {
    // "Fork Challenge #8" (Black to move) reads "1... Nxg5 (1. Bxc6+) (1. Nxc6) 2. Bxg5 f6": the two variations
    // are White moves that belong to challenge #9's position, and "#9" answers 1. Bxc6+ with "(1... Nxg5)",
    // which no black knight can play. Followed, both games are rejected (ILLEGAL_MOVE), like pgn-extract does
    // without --splitvariants. With it, pgn-extract reports the same failures but still writes 2 split
    // games: #8 as "1... Nc6" (its misreading of "(1. Nxc6)" as a black move), #9 as its "3... Bxc2 4. Nxh8"
    // line. Those 2 + 8 positions are only theirs.
    {"lichess_study_lichess-practice-the-fork_by_arex_2017.01.29.pgn", {2, 0, 10}},
};

TEST(PgnData, FollowedVariationsAgreeWithPgnExtractSplitVariants) {
  const fs::path root = kData / "pgn";
  if (!fs::exists(root)) GTEST_SKIP() << "no " << root;
  if (!fs::exists(kPgnExtract)) GTEST_SKIP() << "pgn-extract is not installed";
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.is_regular_file() && entry.path().extension() == ".pgn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ReplayOptions follow;
  follow.follow_variations = true;
  int compared = 0;
  std::uint64_t variation_positions = 0;
  for (const fs::path& file : files) {
    const std::string name = file.filename().string();
    std::string text = read_file(file);
    Replayed skipped = replay_file(text, text.size());
    Replayed followed = replay_file(text, text.size(), follow);
    if (followed.keys == skipped.keys && followed.bad_games == skipped.bad_games) continue;  // no variations to follow
    SCOPED_TRACE(file.string());
    ++compared;
    variation_positions += followed.positions - std::min(followed.positions, skipped.positions);
    Replayed chunked = replay_file(text, 4 << 10, follow);
    EXPECT_TRUE(chunked.keys == followed.keys);
    EXPECT_EQ(chunked.bad_games, followed.bad_games);

    const auto known = kSplitExpected.find(name);
    const SplitExpected expected = known == kSplitExpected.end() ? SplitExpected{} : known->second;
    EXPECT_EQ(followed.bad_games - skipped.bad_games, expected.more_bad_games);
    auto compare = [&](const std::set<std::string>& theirs, const char* what) {
      SCOPED_TRACE(what);
      std::vector<std::string> only_ours, only_theirs;
      std::set_difference(followed.keys.begin(), followed.keys.end(), theirs.begin(), theirs.end(), std::back_inserter(only_ours));
      std::set_difference(theirs.begin(), theirs.end(), followed.keys.begin(), followed.keys.end(), std::back_inserter(only_theirs));
      EXPECT_EQ(only_ours.size(), expected.only_ours) << "e.g. " << (only_ours.empty() ? "" : only_ours.front());
      EXPECT_EQ(only_theirs.size(), expected.only_theirs) << "e.g. " << (only_theirs.empty() ? "" : only_theirs.front());
    };
    Extracted x = run_pgn_extract(file, "--splitvariants");
    ASSERT_TRUE(x.ok);
    compare(x.keys, "(a) pgn-extract --splitvariants -Wepd");

    fs::path split = fs::temp_directory_path() / ("fenmill_split_" + std::to_string(::getpid()) + ".pgn");
    std::string command = std::string(kPgnExtract) + " -s --splitvariants -o '" + split.string() + "' '" + file.string() +
                          "' 2>/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    std::string split_text = read_file(split);
    fs::remove(split);
    Replayed split_replayed = replay_file(split_text, split_text.size());
    EXPECT_EQ(split_replayed.bad_games, 0u);
    EXPECT_GE(split_replayed.games, followed.games - followed.bad_games);  // a game of its own per accepted line at least
    compare(split_replayed.keys, "(b) pgn-extract --splitvariants, replayed by fenmill without variations");
  }
  EXPECT_GE(compared, 3) << "files with variations under " << root;
  std::printf("[ pgn data ] %d files with variations, %llu more positions when followed, compared with pgn-extract --splitvariants\n",
              compared, static_cast<unsigned long long>(variation_positions));
}

}  // namespace
}  // namespace fenmill
