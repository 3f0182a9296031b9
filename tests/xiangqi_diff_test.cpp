// Differential test against Fairy-Stockfish (Debian package fairy-stockfish, UCI, UCI_Variant xiangqi).
// Fairy-Stockfish reads a FEN without judging it and prints it back ("d": "Fen: ..." and "Checkers: ...").
//   1. The data-set FENs (wukong puzzles + perft, CCPD [FEN] tags) that fenmill can parse: Fairy-Stockfish's
//      FEN must equal fenmill's normalized UCCI FEN, and for the valid ones the pieces checking the side to
//      move must agree with fenmill's attack code, and (side flipped) the side not to move is not in check.
//   2. Real games (Liu Dahua, ICCS moves) replayed move by move in Fairy-Stockfish: every position of a real
//      game must be valid under fenmill's stricter rules, normalize to Fairy-Stockfish's FEN, and agree on
//      checkers. Every 4th game by default; FENMILL_XIANGQI_DIFF_ALL=1 replays all 1125.
//   3. The deliberate differences (docs/XIANGQI.md): positions fenmill rejects that Fairy-Stockfish accepts,
//      and the side letters it reads differently.
// Skipped when fairy-stockfish or ../shared/data is missing. FENs fenmill rejects as syntax errors are never
// sent: Fairy-Stockfish 11.1 crashes on a rank of more than 9 points (the 9 "15k3" puzzles).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "xiangqi/normalize.h"

namespace fenmill::xiangqi {
namespace {

namespace fs = std::filesystem;

const fs::path kXiangqi = fs::path(FENMILL_SHARED_DATA) / "xiangqi";

std::string find_engine() {
  for (const char* p : {"/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish", "/usr/local/bin/fairy-stockfish"})
    if (access(p, X_OK) == 0) return p;
  return "";
}

// Fairy-Stockfish over two pipes, one command and its answer at a time.
class Engine {
 public:
  explicit Engine(const std::string& path) {
    // A dead engine must fail the test, not kill it; restored in the destructor, so that later tests (and
    // their child processes, which inherit an ignored signal) see the default.
    old_sigpipe_ = signal(SIGPIPE, SIG_IGN);
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      signal(SIGPIPE, SIG_DFL);
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      close(to_child[1]);
      close(from_child[0]);
      std::freopen("/dev/null", "w", stderr);
      execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
    send("uci");
    if (!read_until("uciok")) return;
    send("setoption name UCI_Variant value xiangqi");
    send("isready");
    ok_ = read_until("readyok");
  }
  ~Engine() {
    if (pid_ > 0) {
      send("quit");
      close(in_);
      close(out_);
      waitpid(pid_, nullptr, 0);
    }
    signal(SIGPIPE, old_sigpipe_);
  }
  bool ok() const { return ok_; }

  struct Board {
    std::string fen;
    std::set<std::string> checkers;  // Fairy-Stockfish square names (ranks 1-10)
  };
  // "position fen <fen> [moves <move>]" then "d"; false if the engine died.
  bool show(const std::string& position_command, Board& board) {
    send(position_command);
    send("d");
    board = Board{};
    std::string line;
    while (read_line(line)) {
      if (line.rfind("Fen: ", 0) == 0) board.fen = line.substr(5);
      if (line.rfind("Checkers:", 0) == 0) {
        std::istringstream names(line.substr(9));
        for (std::string n; names >> n;) board.checkers.insert(n);
        return true;
      }
    }
    ok_ = false;
    return false;
  }

 private:
  void send(const std::string& command) {
    std::string text = command + "\n";
    if (write(in_, text.data(), text.size()) != static_cast<ssize_t>(text.size())) ok_ = false;
  }
  bool read_line(std::string& line) {
    line.clear();
    for (;;) {
      if (pos_ == end_) {
        ssize_t n = read(out_, buffer_, sizeof buffer_);
        if (n <= 0) return false;
        pos_ = 0;
        end_ = static_cast<std::size_t>(n);
      }
      char c = buffer_[pos_++];
      if (c == '\n') return true;
      line += c;
    }
  }
  bool read_until(const std::string& token) {
    for (std::string line; read_line(line);)
      if (line == token) return true;
    return false;
  }

  sighandler_t old_sigpipe_ = SIG_DFL;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  bool ok_ = false;
  char buffer_[65536];
  std::size_t pos_ = 0, end_ = 0;
};

// Fairy-Stockfish names ranks 1-10; fenmill (and ICCS) 0-9.
std::string engine_square(Square s) {
  std::string name(1, static_cast<char>('a' + file_of(s)));
  name += std::to_string(rank_of(s) + 1);  // appended, not `+`: GCC 12 warns falsely (-Wrestrict) on the sum
  return name;
}
std::set<std::string> engine_squares(Bitboard b) {
  std::set<std::string> names;
  for (; b; b &= b - 1) names.insert(engine_square(lsb(b)));
  return names;
}
std::string engine_move(const std::string& iccs) {
  return iccs.substr(0, 1) + std::to_string(iccs[1] - '0' + 1) + iccs.substr(2, 1) + std::to_string(iccs[3] - '0' + 1);
}

std::vector<std::string> data_set_fens() {
  std::vector<std::string> fens;
  auto add_lines = [&](const fs::path& path, bool tags_only, bool perft) {
    std::ifstream in(path, std::ios::binary);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (tags_only) {
        if (line.rfind("[FEN \"", 0) == 0) fens.push_back(line.substr(6, line.find('"', 6) - 6));
      } else if (!line.empty() && (!perft || (line[0] != ' ' && line.find('/') != std::string::npos))) {
        fens.push_back(line);
      }
    }
  };
  add_lines(kXiangqi / "wukong/puzzles_verified.fen", false, false);
  add_lines(kXiangqi / "wukong/xiangqi_perft.txt", false, true);
  for (const char* f : {"ccpd_computer_games.pgn", "ccpd_endgame.pgn", "ccpd_opening.pgn", "ccpd_world_cup.pgn"})
    add_lines(kXiangqi / "ccpd" / f, true, false);
  return fens;
}

class XiangqiDiff : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_path_ = find_engine();
    if (engine_path_.empty()) GTEST_SKIP() << "fairy-stockfish is not installed";
  }
  std::string engine_path_;
};

TEST_F(XiangqiDiff, DataSetFens) {
  if (!fs::exists(kXiangqi)) GTEST_SKIP() << "no " << kXiangqi;
  Engine engine(engine_path_);
  ASSERT_TRUE(engine.ok());
  std::map<std::string, int> outcome;
  for (const std::string& fen : data_set_fens()) {
    SCOPED_TRACE(fen);
    Position pos;
    NormalizeResult r = normalize_fen(fen, pos);
    if (is_syntax_error(r.code)) {
      ++outcome["fenmill syntax error, not sent: " + std::string(error_name(r.code))];
      continue;
    }
    Engine::Board board;
    ASSERT_TRUE(engine.show("position fen " + fen, board));
    // The same reading of the text, valid or not.
    EXPECT_EQ(board.fen, to_fen(pos, Letters::kUcci));
    if (!r.ok()) {
      ++outcome["Fairy-Stockfish accepts, fenmill rejects: " + std::string(error_name(r.code))];
      continue;
    }
    ++outcome["both accept"];
    EXPECT_EQ(board.checkers, engine_squares(checkers_of(pos, ~pos.side_to_move)));
    // With the side flipped, Fairy-Stockfish must see the side fenmill says is not in check as not in check.
    Position flipped = pos;
    flipped.side_to_move = ~pos.side_to_move;
    ASSERT_TRUE(engine.show("position fen " + to_fen(flipped), board));
    EXPECT_TRUE(board.checkers.empty()) << "fenmill accepted a position whose side not to move is in check";
  }
  const std::map<std::string, int> expected = {
      {"both accept", 3420 + 2 + 208 + 244 + 954 + 1389},
      {"fenmill syntax error, not sent: BAD_PIECE", 9},
      {"Fairy-Stockfish accepts, fenmill rejects: MISSING_KING", 5},
      {"Fairy-Stockfish accepts, fenmill rejects: XQ_ADVISOR_POINT", 1},
      {"Fairy-Stockfish accepts, fenmill rejects: XQ_ELEPHANT_POINT", 1},
  };
  EXPECT_EQ(outcome, expected);
}

TEST_F(XiangqiDiff, RealGamesReplayed) {
  const fs::path games_file = kXiangqi / "Liu_Dahua_1125_UCI_games.pgn";
  if (!fs::exists(games_file)) GTEST_SKIP() << "no " << games_file;
  const char* all = std::getenv("FENMILL_XIANGQI_DIFF_ALL");
  const int stride = all && *all == '1' ? 1 : 4;
  Engine engine(engine_path_);
  ASSERT_TRUE(engine.ok());
  std::ifstream in(games_file, std::ios::binary);
  int game = 0, positions = 0, in_check = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("1.", 0) != 0) continue;  // each game's movetext is one line
    if (game++ % stride) continue;
    std::istringstream tokens(line);
    Engine::Board board;
    ASSERT_TRUE(engine.show("position startpos", board));
    for (std::string token;;) {
      SCOPED_TRACE("game " + std::to_string(game) + ": " + board.fen);
      Position pos;
      NormalizeResult r = normalize_fen(board.fen, pos);
      ASSERT_TRUE(r.ok()) << "a position of a real game rejected: " << error_name(r.code);
      EXPECT_EQ(to_fen(pos), board.fen);
      Bitboard checkers = checkers_of(pos, ~pos.side_to_move);
      EXPECT_EQ(board.checkers, engine_squares(checkers));
      in_check += checkers != 0;
      ++positions;
      do {
        if (!(tokens >> token)) token.clear();
      } while (!token.empty() && token.back() == '.');  // move numbers "12."
      if (token.empty()) break;
      std::string before = board.fen;
      ASSERT_TRUE(engine.show("position fen " + before + " moves " + engine_move(token), board));
      // An illegal move leaves the position (and the side to move) unchanged.
      ASSERT_NE(board.fen, before) << "Fairy-Stockfish refused move " << token;
    }
  }
  EXPECT_EQ(game, 1125);
  // Every 4th game: 282 games; all 1125 games give 102446 positions, 4658 with the side to move in check.
  if (stride == 1) {
    EXPECT_EQ(positions, 102446);
    EXPECT_EQ(in_check, 4658);
  }
  EXPECT_GT(in_check, 0);
  std::cout << "[ replayed  ] " << (game + stride - 1) / stride << " games, " << positions << " positions, "
            << in_check << " with the side to move in check\n";
}

TEST_F(XiangqiDiff, DeliberateDifferences) {
  Engine engine(engine_path_);
  ASSERT_TRUE(engine.ok());
  // Positions fenmill rejects; Fairy-Stockfish takes them as they are (it validates no Xiangqi rule).
  const std::pair<const char*, const char*> rejected[] = {
      {"k8/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "XQ_GENERAL_PALACE"},
      {"3k5/9/9/PPPPPP3/9/9/9/9/9/4K4 w - - 0 1", "XQ_TOO_MANY_SOLDIERS"},
      {"3k5/9/9/9/9/9/9/9/9/RRR1K4 w - - 0 1", "XQ_TOO_MANY_PIECES"},
      {"3k5/9/9/9/9/9/9/4A4/9/4K4 w - - 0 1", "XQ_ADVISOR_POINT"},
      {"3k5/9/9/9/9/9/9/9/4B4/4K4 w - - 0 1", "XQ_ELEPHANT_POINT"},
      {"3k5/9/9/9/9/9/9/P8/9/4K4 w - - 0 1", "XQ_SOLDIER_BEHIND"},
      {"3k5/9/9/9/9/9/1P7/9/9/4K4 w - - 0 1", "XQ_SOLDIER_FILE"},
      {"3k5/9/9/9/9/P8/P8/9/9/4K4 w - - 0 1", "XQ_SOLDIER_STACKED"},
      {"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "XQ_GENERALS_FACING"},
      {"3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", "OPPOSITE_CHECK"},
      {"9/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "MISSING_KING"},
      {"3kk4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "TOO_MANY_KINGS"},
  };
  for (const auto& [fen, code] : rejected) {
    SCOPED_TRACE(fen);
    Position pos;
    EXPECT_EQ(error_name(normalize_fen(fen, pos).code), code);
    Engine::Board board;
    ASSERT_TRUE(engine.show(std::string("position fen ") + fen, board));
    EXPECT_EQ(board.fen, fen) << "Fairy-Stockfish accepts it unchanged";
  }
  // Side letters: fenmill reads 'r' as Red and a missing side as Red; Fairy-Stockfish reads anything but 'w'
  // (a missing field included) as Black.
  const std::string start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
  for (const std::string& text : {start + " r - - 0 1", start}) {
    SCOPED_TRACE(text);
    Position pos;
    ASSERT_TRUE(normalize_fen(text, pos).ok());
    EXPECT_EQ(to_fen(pos), start + " w - - 0 1");
    Engine::Board board;
    ASSERT_TRUE(engine.show("position fen " + text, board));
    EXPECT_EQ(board.fen, start + " b - - 0 1");
  }
}

}  // namespace
}  // namespace fenmill::xiangqi
