// PGN replay: move generation (perft), make_move state, SAN/UCI parsing, the movetext lexer, game
// splitting and the game reader. Needs no data files; tests/pgn_data_test.cpp runs the real ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fen/normalize.h"
#include "fen/parse.h"
#include "fen/write.h"
#include "pgn/chunk_cutter.h"
#include "pgn/game_reader.h"
#include "pgn/game_skip.h"
#include "pgn/lexer.h"
#include "pgn/make_move.h"
#include "pgn/movegen.h"
#include "pgn/san.h"
#include "pgn/start_position.h"

namespace fenmill {
namespace {

Square sq(std::string_view name) { return make_square(name[0] - 'a', name[1] - '1'); }

Position from_fen(std::string_view fen, bool chess960 = false) {
  Position pos;
  ParseOptions options;
  options.chess960 = chess960;
  ParseResult r = parse_fen(fen, pos, options);
  EXPECT_TRUE(r.ok()) << fen;
  return pos;
}

// Plays moves given as text (any notation parse_move takes); fails the test on the first bad one.
Position play(Position pos, std::initializer_list<std::string_view> moves) {
  for (std::string_view text : moves) {
    Move m;
    PgnError e = parse_move(pos, text, m);
    EXPECT_EQ(e, PgnError::kOk) << text << " in " << to_fen(pos);
    if (e != PgnError::kOk) return pos;
    if (m.kind == MoveKind::kNull)
      make_null_move(pos);
    else
      make_move(pos, m);
  }
  return pos;
}

std::string fen_after(std::string_view start, std::initializer_list<std::string_view> moves, bool chess960 = false) {
  return to_fen(play(from_fen(start, chess960), moves), chess960 ? CastlingNotation::kShredder : CastlingNotation::kXFen);
}

constexpr std::string_view kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr std::string_view kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

// ---------------------------------------------------------------- perft

// The classic perft positions (chessprogramming.org "Perft Results"): every special move and pin.
TEST(PgnPerft, StandardPositions) {
  EXPECT_EQ(perft(from_fen(kStart), 1), 20u);
  EXPECT_EQ(perft(from_fen(kStart), 3), 8902u);
  EXPECT_EQ(perft(from_fen(kStart), 5), 4865609u);
  EXPECT_EQ(perft(from_fen(kKiwipete), 1), 48u);
  EXPECT_EQ(perft(from_fen(kKiwipete), 3), 97862u);
  EXPECT_EQ(perft(from_fen(kKiwipete), 4), 4085603u);
  EXPECT_EQ(perft(from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"), 5), 674624u);  // ep + horizontal pins
  EXPECT_EQ(perft(from_fen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"), 4), 422333u);
  EXPECT_EQ(perft(from_fen("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"), 4), 2103487u);
  EXPECT_EQ(perft(from_fen("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"), 4), 3894594u);
}

// Chess960 counts computed with fairy-stockfish 11.1 (UCI_Chess960, "go perft"); the first six are the
// chessprogramming.org Chess960 perft positions, the rest put rook and king on each other's squares,
// let the castling rook shield the king's destination, or keep the king where it is.
TEST(PgnPerft, Chess960Positions) {
  struct Case {
    std::string_view fen;
    int depth;
    std::uint64_t nodes;
  };
  const Case cases[] = {
      {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 4, 326672},
      {"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 4, 667366},
      {"b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", 4, 273318},
      {"qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", 4, 382958},
      {"1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9", 4, 1171749},
      {"qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9", 4, 824055},
      {"4k3/8/8/8/8/8/8/rRK5 w B - 0 1", 4, 12489},    // O-O-O: king stays on c1, rook leaves b1, a1 checks
      {"4k3/8/8/8/8/8/8/4KR1r w F - 0 1", 4, 13842},   // O-O: rook stays on f1, g1 is attacked
      {"4k3/8/8/8/8/8/8/R5KR w HA - 0 1", 4, 16219}, // O-O: king stays on g1
      {"4k3/8/8/8/8/8/8/RK5R w HA - 0 1", 4, 16052}, // O-O-O: king b1 -> c1 over the rook's path
      {"k7/8/8/8/8/8/8/1R3KR1 w GB - 0 1", 4, 2938},      // O-O: king and rook swap f1/g1
      {"r1k3rR/8/8/8/8/8/8/1RK3r1 w Bg - 0 1", 4, 48580},  // castling rights on both sides, in check
  };
  for (const Case& c : cases) EXPECT_EQ(perft(from_fen(c.fen, true), c.depth), c.nodes) << c.fen;
}

TEST(PgnMoveGen, HorizontalEnPassantPin) {
  // After ...c7-c5 the b5 pawn may not take en passant: both pawns would leave the 5th rank and
  // the rook on h5 would see the king on a5.
  Position pos = from_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 2");
  MoveList list;
  generate_legal_moves(pos, list);
  for (const Move& m : list) EXPECT_NE(m.kind, MoveKind::kEnPassant);
  Move m;
  EXPECT_EQ(parse_move(pos, "bxc6", m), PgnError::kIllegalMove);
  // Without the rook the capture is fine.
  Position free = from_fen("8/8/8/KPp5/8/8/8/7k w - c6 0 2");
  EXPECT_EQ(parse_move(free, "bxc6", m), PgnError::kOk);
  EXPECT_EQ(m.kind, MoveKind::kEnPassant);
}

TEST(PgnMoveGen, EnPassantEvadesPawnCheck) {
  // The d5 pawn gives check after d7-d5; exd6 e.p. removes the checker.
  Position pos = from_fen("8/8/8/3pP3/4K3/8/8/7k w - d6 0 2");
  Move m;
  ASSERT_EQ(parse_move(pos, "exd6", m), PgnError::kOk);
  EXPECT_EQ(m.kind, MoveKind::kEnPassant);
}

TEST(PgnMoveGen, CastlingBlockedOrAttacked) {
  Move m;
  // f1 attacked by the bishop on c4: no O-O; O-O-O fine.
  Position pos = from_fen("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1");
  EXPECT_FALSE(castling_legal(pos, kKingSide, m));
  EXPECT_TRUE(castling_legal(pos, kQueenSide, m));
  // b1 attacked does not matter for O-O-O (only the king's path counts), b1 occupied does.
  EXPECT_FALSE(castling_legal(from_fen("r3k2r/8/8/8/8/8/8/Rb2K2R w KQkq - 0 1"), kQueenSide, m));
  EXPECT_TRUE(castling_legal(from_fen("r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1"), kQueenSide, m));
  // In check: neither.
  Position check = from_fen("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
  EXPECT_FALSE(castling_legal(check, kKingSide, m));
  EXPECT_FALSE(castling_legal(check, kQueenSide, m));
}

// ---------------------------------------------------------------- make_move

TEST(PgnMakeMove, SeedGameStates) {
  // The article's examples (SEEDS.md): the ep square is written after every double push.
  EXPECT_EQ(fen_after(kStart, {"e4"}), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  EXPECT_EQ(fen_after(kStart, {"e4", "e5"}), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
  EXPECT_EQ(fen_after(kStart, {"e4", "e5", "Nf3"}), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  EXPECT_EQ(fen_after(kStart, {"e4", "c5", "Nf3"}), "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  EXPECT_EQ(fen_after(kStart, {"e4", "e6", "e5", "d5"}), "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
  EXPECT_EQ(fen_after(kStart, {"e4", "e6", "e5", "d5", "exd6"}), "rnbqkbnr/ppp2ppp/3Pp3/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
}

TEST(PgnMakeMove, CastlingRights) {
  // Rook moves drop one right, king moves both, a captured rook drops the opponent's.
  EXPECT_EQ(fen_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"Rh2"}), "r3k2r/8/8/8/8/8/7R/R3K3 b Qkq - 1 1");
  EXPECT_EQ(fen_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"Kd1"}), "r3k2r/8/8/8/8/8/8/R2K3R b kq - 1 1");
  EXPECT_EQ(fen_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"Rxa8+"}), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
  EXPECT_EQ(fen_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"O-O", "O-O-O"}), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
  EXPECT_EQ(fen_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 9", {"0-0-0", "0-0"}), "r4rk1/8/8/8/8/8/8/2KR3R w - - 7 10");
}

TEST(PgnMakeMove, Chess960Castling) {
  // King b1 and rook a1: O-O-O puts the king on c1 and the rook on d1.
  EXPECT_EQ(fen_after("4k3/8/8/8/8/8/8/RK5R w HA - 0 1", {"O-O-O"}, true), "4k3/8/8/8/8/8/8/2KR3R b - - 1 1");
  // King g1, rook h1: O-O keeps the king, rook to f1. UCI king-takes-rook means the same.
  EXPECT_EQ(fen_after("4k3/8/8/8/8/8/8/R5KR w HA - 0 1", {"O-O"}, true), "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1");
  EXPECT_EQ(fen_after("4k3/8/8/8/8/8/8/R5KR w HA - 0 1", {"g1h1"}, true), "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1");
  // King f1, rook g1 (adjacent): king to g1, rook to f1, they swap.
  EXPECT_EQ(fen_after("k7/8/8/8/8/8/8/1R3KR1 w GB - 0 1", {"O-O"}, true), "k7/8/8/8/8/8/8/1R3RK1 b - - 1 1");
  // A cutechess Chess960 start (X-FEN KQkq = outermost rooks).
  Position pos = from_fen("nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1", true);
  EXPECT_EQ(pos.castling_rook[kWhite][kKingSide], sq("g1"));
  EXPECT_EQ(pos.castling_rook[kWhite][kQueenSide], sq("d1"));
}

TEST(PgnMakeMove, PromotionAndClocks) {
  EXPECT_EQ(fen_after("8/4P3/8/8/8/8/k7/4K3 w - - 3 40", {"e8=Q"}), "4Q3/8/8/8/8/8/k7/4K3 b - - 0 40");
  EXPECT_EQ(fen_after("3r4/4P3/8/8/8/8/k7/4K3 w - - 3 40", {"exd8N"}), "3N4/8/8/8/8/8/k7/4K3 b - - 0 40");
  EXPECT_EQ(fen_after("8/8/8/8/8/8/k3p3/7K b - - 0 50", {"e1=R+"}), "8/8/8/8/8/8/k7/4r2K w - - 0 51");
  // A null move passes the turn, clears the ep square and counts as a ply.
  EXPECT_EQ(fen_after(kStart, {"e4", "--", "d4", "Z0"}), "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 1 3");
}

// ---------------------------------------------------------------- SAN

struct SanCase {
  std::string_view fen;
  std::string_view text;
  std::string_view uci;  // expected move, or empty with an error
  PgnError error = PgnError::kOk;
};

void check_moves(std::initializer_list<SanCase> cases) {
  for (const SanCase& c : cases) {
    Position pos = from_fen(c.fen);
    Move m;
    PgnError e = parse_move(pos, c.text, m);
    EXPECT_EQ(e, c.error) << c.text << " in " << c.fen << ": " << pgn_error_name(e);
    if (e == PgnError::kOk && c.error == PgnError::kOk) {
      char buf[8];
      EXPECT_EQ(std::string_view(buf, write_uci(m, false, buf)), c.uci) << c.text;
    }
  }
}

TEST(PgnSan, PiecesPawnsAndDisambiguation) {
  constexpr std::string_view kTwoKnights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
  constexpr std::string_view kRooks = "4k3/8/R7/8/8/8/8/R3K3 w - - 0 1";
  constexpr std::string_view kThreeQueens = "4k3/8/8/8/Q6Q/8/8/4K2Q w - - 0 1";
  check_moves({
      {kStart, "e4", "e2e4"},
      {kStart, "Nf3", "g1f3"},
      {kStart, "Nf3+!?", "g1f3"},
      {kStart, "Ng1f3", "g1f3"},  // fully disambiguated / long algebraic
      {kStart, "Ng1-f3", "g1f3"},
      {kStart, "e2-e4", "e2e4"},
      {kStart, "Pe4", "e2e4"},
      {kStart, "e5", "", PgnError::kIllegalMove},
      {kStart, "Nd2", "", PgnError::kIllegalMove},  // own pawn there
      {kStart, "Kf3", "", PgnError::kIllegalMove},
      {kTwoKnights, "Nd2", "", PgnError::kAmbiguousMove},
      {kTwoKnights, "Nbd2", "b1d2"},
      {kTwoKnights, "Nfd2?!", "f1d2"},
      {kTwoKnights, "Ng3", "f1g3"},
      {kRooks, "Ra3", "", PgnError::kAmbiguousMove},
      {kRooks, "R1a3", "a1a3"},
      {kRooks, "R6a3", "a6a3"},
      {kRooks, "Raa3", "", PgnError::kAmbiguousMove},  // both are on the a-file
      {kThreeQueens, "Qh4e1", "", PgnError::kIllegalMove},  // own king there
      {kThreeQueens, "Qe4", "", PgnError::kAmbiguousMove},
      {kThreeQueens, "Qhe4", "", PgnError::kAmbiguousMove},  // h4 and h1 (diagonally) both reach e4
      {kThreeQueens, "Q4e4", "", PgnError::kAmbiguousMove},
      {kThreeQueens, "Qae4", "a4e4"},
      {kThreeQueens, "Qh4e4", "h4e4"},
      {kThreeQueens, "Qg2", "h1g2"},
      {kThreeQueens, "Qh2", "", PgnError::kAmbiguousMove},
      {kThreeQueens, "Qh4h2", "h4h2"},
      // A pinned knight does not make "Nd2" ambiguous.
      {"4k3/8/8/b7/5N2/2N5/8/4K3 w - - 0 1", "Nd5", "f4d5"},
      {"4k3/8/8/b7/5N2/2N5/8/4K3 w - - 0 1", "Ncd5", "", PgnError::kIllegalMove},
  });
}

TEST(PgnSan, CapturesPromotionsAndSuffixes) {
  constexpr std::string_view kCapture = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
  constexpr std::string_view kPromote = "3n3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
  constexpr std::string_view kEp = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
  check_moves({
      {kCapture, "exd5", "e4d5"},
      {kCapture, "e4xd5", "e4d5"},
      {kCapture, "e:d5", "e4d5"},
      {kCapture, "ed5", "e4d5"},     // old style without 'x'
      {kCapture, "exd5!!", "e4d5"},
      {kCapture, "exd5??", "e4d5"},
      {kCapture, "exd5?!", "e4d5"},
      {kCapture, "e4d5", "e4d5"},    // UCI
      {kCapture, "exf5", "", PgnError::kIllegalMove},
      {kCapture, "e5", "e4e5"},
      {kCapture, "fxe5", "", PgnError::kIllegalMove},
      {kEp, "exd6", "e5d6"},
      {kEp, "exd6e.p.", "e5d6"},
      {kEp, "exd6 e.p.", "", PgnError::kBadMoveSyntax},  // the lexer splits it; "e.p." alone is an annotation
      {kPromote, "e8=Q", "e7e8q"},
      {kPromote, "e8Q", "e7e8q"},
      {kPromote, "e8=N+", "e7e8n"},
      {kPromote, "exd8=R#", "e7d8r"},
      {kPromote, "exd8B", "e7d8b"},
      {kPromote, "e7d8q", "e7d8q"},
      {kPromote, "e8", "", PgnError::kMissingPromotion},
      {kPromote, "e8=K", "", PgnError::kBadMoveSyntax},
      {kCapture, "e5=Q", "", PgnError::kIllegalMove},
      {kStart, "N@f3", "", PgnError::kBadMoveSyntax},  // a Crazyhouse drop
      {kStart, "Nf", "", PgnError::kBadMoveSyntax},
      {kStart, "xyz", "", PgnError::kBadMoveSyntax},
      {kStart, "e9", "", PgnError::kBadMoveSyntax},
  });
}

TEST(PgnSan, CastlingAndUci) {
  constexpr std::string_view kCastle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  check_moves({
      {kCastle, "O-O", "e1g1"},
      {kCastle, "O-O+", "e1g1"},
      {kCastle, "0-0", "e1g1"},
      {kCastle, "O-O-O", "e1c1"},
      {kCastle, "0-0-0#", "e1c1"},
      {kCastle, "e1g1", "e1g1"},  // UCI, king to g1
      {kCastle, "e1h1", "e1g1"},  // UCI Chess960 style, king takes rook
      {kCastle, "e1c1", "e1c1"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", "", PgnError::kIllegalMove},
      {"r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1", "O-O", "", PgnError::kIllegalMove},
      {kStart, "g1f3", "g1f3"},
      {kStart, "b1c3", "b1c3"},
      {kStart, "e2e4", "e2e4"},
      {kStart, "e2e5", "", PgnError::kIllegalMove},
      {kStart, "e3e4", "", PgnError::kIllegalMove},
      {kStart, "--", "0000"},
      {kStart, "Z0", "0000"},
      {"4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "--", "", PgnError::kNullMoveInCheck},
  });
  // The square written as the king's destination in Chess960 UCI is the rook.
  Position pos = from_fen("4k3/8/8/8/8/8/8/RK5R w HA - 0 1", true);
  Move m;
  ASSERT_EQ(parse_move(pos, "b1a1", m), PgnError::kOk);
  char buf[8];
  EXPECT_EQ(std::string_view(buf, write_uci(m, true, buf)), "b1a1");
  EXPECT_EQ(std::string_view(buf, write_uci(m, false, buf)), "b1c1");
  // b1c1 is an ordinary king move there.
  ASSERT_EQ(parse_move(pos, "b1c1", m), PgnError::kOk);
  EXPECT_EQ(m.kind, MoveKind::kNormal);
}

TEST(PgnSan, KingTakesOwnRookIsCastling) {
  // SAN with the king onto its own castling rook beside it (chessops reads it so, as UCI's b1a1): castling; the
  // king still has to be able to castle, and a rook without the right is no castle. From afar (Kxh1 from e1) it
  // is no notation any program writes, and chessops rejects it too.
  Position pos = from_fen("rk4rq/8/8/8/8/8/8/RK4RQ w KQkq - 0 1", true);
  Move m;
  char buf[8];
  for (std::string_view text : {"Kxa1", "Ka1", "Kba1", "Kb1xa1+"}) {
    ASSERT_EQ(parse_move(pos, text, m), PgnError::kOk) << text;
    EXPECT_EQ(m.kind, MoveKind::kCastling) << text;
    EXPECT_EQ(std::string_view(buf, write_uci(m, true, buf)), "b1a1") << text;
  }
  EXPECT_EQ(parse_move(pos, "Kxg1", m), PgnError::kIllegalMove);  // O-O: the rook on g8 attacks g1
  EXPECT_EQ(parse_move(pos, "Kcxa1", m), PgnError::kIllegalMove);
  EXPECT_EQ(fen_after("rk4rq/8/8/8/8/8/8/RK4RQ w KQkq - 0 1", {"Kxa1", "Kxa8"}, true), "2kr2rq/8/8/8/8/8/8/2KR2RQ w - - 2 2");
  constexpr std::string_view kCastle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  check_moves({
      {kCastle, "Kxh1", "", PgnError::kIllegalMove},
      {kCastle, "Kxa1", "", PgnError::kIllegalMove},
      {"4k3/8/8/8/8/8/8/5KR1 w K - 0 1", "Kxg1", "f1g1"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "Kxh1", "", PgnError::kIllegalMove},
      {"r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1", "Kxh1", "", PgnError::kIllegalMove},
      {"4k3/8/8/8/8/8/8/4KR2 w - - 0 1", "Kxf1", "", PgnError::kIllegalMove},
  });
}

TEST(PgnSan, ParseFields) {
  SanMove san;
  ASSERT_EQ(parse_san("Nbxd7+", san), PgnError::kOk);
  EXPECT_EQ(san.piece, kKnight);
  EXPECT_EQ(san.from_file, 1);
  EXPECT_EQ(san.from_rank, -1);
  EXPECT_EQ(san.to, sq("d7"));
  EXPECT_TRUE(san.capture);
  ASSERT_EQ(parse_san("g1f3", san), PgnError::kOk);
  EXPECT_EQ(san.piece, kPieceTypeCount);  // coordinates: any piece
  ASSERT_EQ(parse_san("O-O-O", san), PgnError::kOk);
  EXPECT_EQ(san.kind, SanMove::Kind::kCastle);
  EXPECT_EQ(san.castle, kQueenSide);
  EXPECT_EQ(parse_san("", san), PgnError::kBadMoveSyntax);
  EXPECT_EQ(parse_san("+", san), PgnError::kBadMoveSyntax);
  EXPECT_EQ(parse_san("2e4", san), PgnError::kBadMoveSyntax);
}

// ---------------------------------------------------------------- lexer

std::vector<Token> lex_all(std::string_view text) {
  Lexer lexer(text, 1);
  std::vector<Token> tokens;
  for (;;) {
    Token t = lexer.next();
    if (t.kind == TokenKind::kEnd) break;
    tokens.push_back(t);
    if (t.kind == TokenKind::kTagStart) {
      TagPair tag;
      lexer.read_tag(tag);
    }
  }
  return tokens;
}

std::string kinds(std::string_view text) {
  static const char* names[] = {"end", "move", "num", "nag", "ann", "comment", "esc", "(", ")", "result", "tag", "open", "bad"};
  std::string s;
  for (const Token& t : lex_all(text)) {
    if (!s.empty()) s += ' ';
    s += names[static_cast<int>(t.kind)];
    if (t.kind == TokenKind::kMove) {
      s += ':';
      s += t.text;
    }
  }
  return s;
}

TEST(PgnLexer, MoveNumbersAndMoves) {
  EXPECT_EQ(kinds("1. e4 e5 2. Nf3"), "num move:e4 move:e5 num move:Nf3");
  EXPECT_EQ(kinds("1.d4 Nf6 2.Nf3"), "num move:d4 move:Nf6 num move:Nf3");
  EXPECT_EQ(kinds("1...e5 12... Nc6"), "num move:e5 num move:Nc6");
  EXPECT_EQ(kinds("8.\r\nNf3"), "num move:Nf3");
  EXPECT_EQ(kinds("1 e4"), "num move:e4");
  EXPECT_EQ(kinds("O-O 0-0 0-0-0+ --"), "move:O-O move:0-0 move:0-0-0+ move:--");
  EXPECT_EQ(kinds("e4!? e5 ! exd6 e.p."), "move:e4!? move:e5 ann move:exd6 ann");
  EXPECT_EQ(kinds("1. ... e5"), "num ann move:e5");
  EXPECT_EQ(kinds("g1f3 e7e8q"), "move:g1f3 move:e7e8q");
}

TEST(PgnLexer, ResultsNagsVariations) {
  EXPECT_EQ(kinds("1-0"), "result");
  EXPECT_EQ(kinds("0-1 1/2-1/2 *"), "result result result");
  EXPECT_EQ(kinds("1/2 1/2-1/2"), "result result");  // "1/2": not the standard's, but some programs write it
  EXPECT_EQ(kinds("e4 $1 $14 (1. d4 (1. c4)) e5"), "move:e4 nag nag ( num move:d4 ( num move:c4 ) ) move:e5");
  EXPECT_EQ(kinds("$ e4"), "bad move:e4");
  EXPECT_EQ(kinds("e4 <x> e5"), "move:e4 bad move:x bad move:e5");
}

TEST(PgnLexer, CommentsAndEscapes) {
  EXPECT_EQ(kinds("e4 { [%clk 0:01:00] } e5"), "move:e4 comment move:e5");
  EXPECT_EQ(kinds("e4 {multi\nline\n\n[Event \"x\"]\n} e5"), "move:e4 comment move:e5");
  EXPECT_EQ(kinds("e4 ; rest { of line\ne5"), "move:e4 comment move:e5");
  EXPECT_EQ(kinds("%escape e4\ne5 % e6"), "esc move:e5 bad move:e6");
  EXPECT_EQ(kinds("e4 { open"), "move:e4 open");
  // Line numbers follow newlines inside comments.
  std::vector<Token> t = lex_all("e4 {a\nb\r\nc} e5\n\nNf3");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].line, 1u);
  EXPECT_EQ(t[1].line, 1u);
  EXPECT_EQ(t[2].line, 3u);
  EXPECT_EQ(t[3].line, 5u);
}

TEST(PgnLexer, Tags) {
  Lexer lexer("\xEF\xBB\xBF[Event \"A \\\"quoted\\\" name\"]\n[Site \"\"] [Round  \"1\"]\n[Black \"Polg\xE1r\"]\n"
              "[White \"The \"Big\" Open\"]\n[Bad value]\n[Date \"x\"]", 1);
  TagPair tag;
  std::vector<std::pair<std::string, std::string>> seen;
  std::vector<bool> ok;
  for (Token t = lexer.next(); t.kind == TokenKind::kTagStart; t = lexer.next()) {
    ok.push_back(lexer.read_tag(tag));
    seen.emplace_back(ok.back() ? std::string(tag.name) : "", ok.back() ? std::string(tag.value) : "");
  }
  ASSERT_EQ(seen.size(), 7u);
  EXPECT_EQ(seen[0].second, "A \\\"quoted\\\" name");
  char buf[64];
  EXPECT_EQ(std::string_view(buf, unescape_tag_value(seen[0].second, buf)), "A \"quoted\" name");
  EXPECT_EQ(seen[1], (std::pair<std::string, std::string>{"Site", ""}));
  EXPECT_EQ(seen[2], (std::pair<std::string, std::string>{"Round", "1"}));
  EXPECT_EQ(seen[3].second, "Polg\xE1r");  // Latin-1 byte kept as is
  EXPECT_EQ(seen[4].second, "The \"Big\" Open");
  EXPECT_FALSE(ok[5]);
  EXPECT_TRUE(ok[6]);
  EXPECT_EQ(seen[6].first, "Date");
}

// ---------------------------------------------------------------- game splitting

// Where the reader starts the next game at a line start from `from` on, as PgnGameSkip ends a game: between games
// (after a result that ended one outside comments and variations, or before any game), or before a tag after a game's
// movetext began; find_last_game_end() cuts a prefix ending one byte into such a line at its start (after a game,
// "*\n", for the start: it takes that for a game's).
std::size_t next_game_line(std::string_view pgn, std::size_t from) {
  const std::string after_game = "*\n" + std::string(pgn);
  for (std::size_t line = std::max<std::size_t>(from, 1); line < pgn.size(); ++line)
    if (pgn[line - 1] == '\n' && find_last_game_end(std::string_view(after_game).substr(0, line + 3)) == line + 2)
      return line;
  return pgn.size();
}

// PgnGameSkip fed `text` in pieces of `piece` bytes: the bytes it takes for the game.
std::size_t skip_end(std::string_view text, std::size_t piece, std::size_t from = 1) {
  PgnGameSkip skip(from);
  std::size_t taken = 0;
  for (std::size_t at = 0; at < text.size() && !skip.found(); at += piece) taken += skip.scan(text.substr(at, piece));
  return taken;
}

// Reading past a game too large to read ends where the reader starts the next game at a line start (from the same
// offset on): after a finished game (so a game without tags is read), or at a tag line after the game's movetext
// began, which ends a game without a result as the reader reads it ("glued" after the move e41-0, "line comment" after
// a ';' comment hiding the result); however the game's bytes are handed to it; and counts the lines on the way.
TEST(PgnSplit, GameSkipEndsWhereTheReaderStartsTheNextGame) {
  const std::string pgn =
      "[Event \"a\"]\n\n[Site \"chessbase blank line\"]\n\n1. e4 {comment\n\n[Event \"inside\"]\n} e5 1-0\n\n"
      "[Event \"b\"]\r\n\r\n1. e4 1/2-1/2   \r\n\r\n[Event \"c\"]\n\n1. d4 e41-0\n[Event \"glued\"]\n\n1. c4 ; 1-0\n"
      "[Event \"line comment\"]\n%1-0\n[Event \"escape\"]\n1. e4 {x} 0-1\n[Event \"d\"]\n\n1. Nf3 (1. e4) *\n\n"
      "[Event \"e\"]\n\n*\n1. e4 e5 1-0\n\n1. d4 (1. c4 1-0\n) *\n1. Nc3 e41-0\n1. b3 1-0. 1. g3\n1. f3 e4*\n"
      "{a} 1. a3 {b\n[c]\n} 0-1 {d\n1-0\n[e]\n}\n; f\n  1. h3 *\n";
  // The oracle: lines that start a game (a game without tags after a result; a result in a variation, in a comment or
  // glued to a move ends none; `1-0.` and `e4*` end one), and lines that do not.
  for (const std::string_view next : {"[Event \"b\"]", "[Event \"glued\"]", "1. e4 e5 1-0", "1. Nc3", "{a} 1. a3",
                                      "; f", "  1. h3"}) {
    const std::size_t line = pgn.find(next);
    EXPECT_EQ(next_game_line(pgn, line), line) << next;
  }
  for (const std::string_view inside : {"[Event \"inside\"]", "1. e4 1/2-1/2", ") *", "1. b3", "1. f3", "[c]", "1-0\n[e]", "[e]"}) {
    const std::size_t line = pgn.find(inside);
    EXPECT_GT(next_game_line(pgn, line), line) << inside;
  }
  for (std::size_t from = 1; from <= pgn.size(); ++from) {
    const std::size_t expected = next_game_line(pgn, from);
    for (std::size_t piece : {std::size_t{1}, std::size_t{7}, pgn.size()}) {
      PgnGameSkip skip(from);
      std::size_t taken = 0;
      for (std::size_t at = 0; at < pgn.size() && !skip.found(); at += piece)
        taken += skip.scan(std::string_view(pgn).substr(at, piece));
      ASSERT_EQ(taken, expected) << from << " " << piece;
      EXPECT_EQ(skip.found(), expected < pgn.size());
      const std::string_view game = std::string_view(pgn).substr(0, taken);
      EXPECT_EQ(skip.lines(), static_cast<std::uint64_t>(std::count(game.begin(), game.end(), '\n')) +
                                  (!game.empty() && game.back() != '\n'));
      EXPECT_EQ(skip.first_line_bytes(), std::min<std::size_t>(game.find('\n'), game.size()));
    }
  }
  // Lines of comments alone after a finished game (pgn-extract's eco.pgn opens with one) leave it finished: the game
  // after them starts where the reader starts it, though find_game_start() does not cut there; a line inside a
  // comment starts none.
  const std::string commented = "[Event \"x\"]\n\n1. e4 *\n\n{ a comment\nover lines }\n; a line comment\n%escape\n\n"
                                "[Event \"y\"]\n\n*\n";
  EXPECT_EQ(skip_end(commented, 1), commented.find("{ a comment"));  // an empty line starts no game: the next line does
  EXPECT_EQ(skip_end(commented, 1, commented.find("over lines")), commented.find("; a line"));
  EXPECT_EQ(skip_end(commented, 1, commented.find("%escape") + 1), commented.find("[Event \"y\"]"));
  // A tag line after movetext ends the game, result or not (a comment after the result on its line, none, one hidden
  // in a ';' comment, a tag pair and moves on one line); a tag line in the tag section, after comments and '%' lines
  // alone, does not. (The game before a game too large to read was read past with it: neither written nor counted.)
  for (const std::string& movetext : {std::string("\n1. e4 * {c}"), std::string("\n1. e4 e5"), std::string("\n1. e4 ; 1-0"),
                                      std::string(" 1. e4"), std::string("\n1. e4 {a\n[b]\n}\n{c}\n%d")}) {
    PgnGameSkip moves(1);
    const std::string text = "[Event \"x\"]" + movetext + "\n[Event \"y\"]\n\n*\n";
    EXPECT_EQ(moves.scan(text), text.find("[Event \"y\"]")) << movetext;
  }
  for (const std::string& tags : {std::string("\n{c}\n%d\n; e"), std::string(" {c} ; d"), std::string(" [Site \"s\"]")}) {
    PgnGameSkip in_tags(1);
    const std::string text = "[Event \"x\"]" + tags + "\n[Site \"y\"]\n\n*\n";
    EXPECT_EQ(in_tags.scan(text), text.size()) << tags;
  }
  // The game read past starts between games: when it starts with lines of comments alone (a huge comment or '%' line
  // between two games), the game with tags after them is the next game, not part of the one read past.
  // A byte-order mark at a line's start is blank to the reader, also before a '%' line (files joined by `cat`).
  for (const std::string& between : {std::string("%escape\n"), std::string("; comment\n"), std::string("{a\nb}\n\n"),
                                     std::string("\xEF\xBB\xBF%escape\n"), std::string("\xEF\xBB\xBF\n")}) {
    PgnGameSkip after_comments(1);
    const std::string text = between + "[Event \"y\"]\n\n*\n";
    EXPECT_EQ(after_comments.scan(text), between.size()) << between;
    EXPECT_TRUE(after_comments.found()) << between;
  }
  // A line opening with a byte-order mark after a finished game starts the next one (files joined by `cat`), not one
  // after a line of moves.
  for (const std::string& before : {std::string("1. e4 1-0\n"), std::string("1. e4\n")}) {
    PgnGameSkip bom(1);
    const std::string text = "[Event \"x\"]\n\n" + before + "\xEF\xBB\xBF[Event \"y\"]\n\n*\n";
    EXPECT_EQ(bom.scan(text), before.find("1-0") != std::string::npos ? text.find("\xEF") : text.size()) << before;
  }
  // A brace in a ';' comment or on a '%' line is comment text, which opens no {} comment: the next game is found.
  for (const std::string& line : {std::string("1. e4 ; :-{\n1... e5 1-0\n"), std::string("1. e4 e5\n%{\n1-0\n")}) {
    PgnGameSkip escaped(1);
    const std::string text = "[Event \"x\"]\n\n" + line + "\n[Event \"y\"]\n\n*\n";
    EXPECT_EQ(escaped.scan(text), text.find("[Event \"y\"]")) << line;
    EXPECT_TRUE(escaped.found()) << line;
  }
  // A brace in a tag pair is its text, as read_tag() reads it (a value's, one after unescaped quotes, a broken tag's up
  // to its ']' or the line's end); one after the tag pair opens a comment, which hides the tag line inside it. However
  // the bytes come: a tag line held across pieces, and one past kMaxTagText (its first bytes lexed, the rest streamed).
  const std::string pad(70000, 'p');
  for (const std::string& tags :
       {std::string("[Annotator \":-{\"]\n"), std::string("[Annotator \"\\\"{\"] [Site \"x\"]\n"),
        std::string("[Event \"The \"{Big\" Open\"]\n"), std::string("[Bad {value]\n"), std::string("[Event \"a\" {x\n"),
        "[Event \"" + pad + "{\"]\n", "[Event \"x\"] ; \"" + pad + "{\n",
        std::string("[Event \"x\"] {open\n1-0\n[Event \"inside\"]\n}\n"),
        std::string("[Bad value] {open\n1-0\n[Event \"inside\"]\n}\n"),
        "[Event \"x\"] {" + pad + "\n1-0\n[Event \"inside\"]\n}\n"}) {
    const std::string text = "[Event \"x\"]\n" + tags + "\n1. e4 1-0\n\n[Event \"y\"]\n\n*\n";
    const std::size_t expected = text.find("[Event \"y\"]");
    for (std::size_t piece : {std::size_t{1}, std::size_t{3}, text.size()}) {
      PgnGameSkip tagged(1);
      std::size_t taken = 0;
      for (std::size_t at = 0; at < text.size() && !tagged.found(); at += piece)
        taken += tagged.scan(std::string_view(text).substr(at, piece));
      EXPECT_EQ(taken, expected) << tags.substr(0, 40) << " " << piece;
      EXPECT_TRUE(tagged.found()) << tags.substr(0, 40) << " " << piece;
    }
  }
}

TEST(PgnSplit, FindGameStart) {
  const std::string pgn =
      "[Event \"a\"]\n"                // 0
      "\n"
      "[Site \"chessbase blank line\"]\n"
      "\n"
      "1. e4 {comment\n"
      "\n"
      "[Event \"inside a comment\"]\n"
      "} e5 1-0\n"
      "\n"
      "[Event \"b\"]\n"
      "[Site \"x\"]\n"
      "\n"
      "1. d4 *\n";
  std::size_t second = pgn.find("[Event \"b\"]");
  EXPECT_EQ(find_game_start(pgn, 0), 0u);
  for (std::size_t from = 1; from <= second; ++from) EXPECT_EQ(find_game_start(pgn, from), second) << from;
  for (std::size_t from = second + 1; from <= pgn.size(); ++from) EXPECT_EQ(find_game_start(pgn, from), pgn.size()) << from;
  // CRLF and a comment brace in a tag value.
  const std::string crlf = "[Event \"{\"]\r\n\r\n1. e4 1-0\r\n\r\n[Event \"c\"]\r\n\r\n*\r\n";
  EXPECT_EQ(find_game_start(crlf, 1), crlf.size());  // the stray '{' hides the start: a later cut, never a wrong one
  const std::string plain = "[Event \"b\"]\r\n\r\n1. e4 1-0\r\n\r\n[Event \"c\"]\r\n\r\n*\r\n";
  EXPECT_EQ(find_game_start(plain, 1), plain.find("[Event \"c\"]"));
  // Draws both ways: "1/2-1/2" is read whole, not as a "1/2" glued to "1/2-".
  for (std::string_view draw : {"1/2-1/2", "1/2"}) {
    const std::string drawn = "[Event \"b\"]\n\n1. e4 " + std::string(draw) + "\n\n[Event \"c\"]\n\n*\n";
    EXPECT_EQ(find_game_start(drawn, 1), drawn.find("[Event \"c\"]")) << draw;
  }
}

// A line that starts inside a {} comment opened on a line before ends a game with its result after the '}', whatever
// the comment holds ('[', ';', a '%' first): find_game_start() and PgnGameSkip both start the next game after it,
// however the bytes come, and the reader reads two games there. (Both took the comment's '[' or ';' for one outside
// it: after a game too large to read, the next game was read past with it, neither written nor counted.) A '{' that
// opens no comment (in a tag value, a ';' comment, on a '%' line) leaves the line outside: its ';' still hides the
// result, and the tag section goes on.
TEST(PgnSplit, ALineEndingACommentFromLinesBeforeEndsTheGame) {
  for (const std::string& movetext :
       {std::string("1. e4 {see\nsee [1] } 1-0"), std::string("1. e4 {a ;\nsee ; b } 0-1"),
        std::string("1. e4 {a\n%b } *"), std::string("1. e4 {a\nb {c\n[d] } 1/2-1/2"),
        std::string("1. e4 {a\n[b]\n} e5 (1... c5 {x\n[y]}) 1-0"), std::string("{a\n\xEF\xBB\xBF[b] } 1. e4 1-0"),
        std::string("[Annotator \":-{\"]\n{a\n[b] } 1-0"), std::string("1. e4 {a\n[b]\n[c] } 1-0")}) {
    const std::string text = "[Event \"x\"]\n\n" + movetext + "\n\n[Event \"y\"]\n\n1. d4 *\n";
    const std::size_t next = text.find("[Event \"y\"]");
    EXPECT_EQ(find_game_start(text, 1), next) << movetext;
    for (std::size_t piece : {std::size_t{1}, std::size_t{5}, text.size()})
      EXPECT_EQ(skip_end(text, piece), next) << movetext;
    std::size_t games = 0;
    replay_games(text, 1, [](const GameInfo&, const PlyInfo&, const Position&) {}, [](const GameInfo&, const ReplayError&) {},
                 [&](const GameInfo&, const GameEnd&) { ++games; });
    EXPECT_EQ(games, 2u) << movetext;
  }
  for (const std::string& tags : {std::string("[Annotator \":-{\"]\n; } 1-0\n"), std::string("; :-{\n; } 1-0\n"),
                                  std::string("%{\n%} 1-0\n"), std::string("[A \"{\"]\n[B \"x\"] ; } 1-0\n")}) {
    const std::string text = "[Event \"x\"]\n" + tags + "[Site \"y\"]\n\n1. d4 *\n";
    EXPECT_EQ(find_game_start(text, 1), text.size()) << tags;
    EXPECT_EQ(skip_end(text, 1), text.size()) << tags;
  }
}

TEST(PgnSplit, FindLastGameEndWithoutTags) {
  // Cut after a result that ends a game, at the start of the next line.
  const std::string two = "1. e4 e5 1-0\n\n1. d4 d5 *  \r\n1. c4";
  EXPECT_EQ(find_last_game_end(two), two.find("1. c4"));
  const std::string draws = "1. e4 1/2\n1. d4 1/2-1/2\n1. c4";
  EXPECT_EQ(find_last_game_end(draws), draws.find("1. c4"));
  EXPECT_EQ(find_last_game_end(std::string_view(draws).substr(0, draws.find("1. d4"))), draws.find("1. d4"));
  EXPECT_EQ(find_last_game_end(std::string_view(two).substr(0, two.find("*") + 1)), two.find("1. d4"))
      << "the '*' may still be followed by a move on its line";
  // Comments and '%' lines after a result belong to no game: the cut may come after them.
  for (std::string_view with_comment : {"1. e4 1-0 {a}\n", "1. e4 * ; note\n", "1. e4 0-1\n%x\n{a\nb} \n"})
    EXPECT_EQ(find_last_game_end(with_comment), with_comment.size()) << with_comment;
  // Not a game end: inside a variation, inside a comment, in a move, followed by more on its line.
  for (std::string_view no_cut : {"1. e4 (1. d4 1-0\n) e5\n", "1. e4 {1-0\n} e5\n", "1. e4 ; 1-0\ne5\n",
                                  "1. e4 1-0x\ne5\n", "1. e4 1-0 {a}", "1. e4 1-0", "1. e4 1-0 1. d4\n",
                                  "1. e4 {\n1-0\n", "[Event \"1-0\n\"]\n"})
    EXPECT_EQ(find_last_game_end(no_cut), 0u) << no_cut;
  // A tag line after a game's movetext began ends the game, result or not, as the reader ends it; not one in the tag
  // section (after tags and comments alone) nor one begun mid-line.
  for (std::string_view tag_cut : {"[Event \"a\"]\n\n1. e4\n\n[Event \"b\"]\n\n1. d4", "1. e4 (1. d4\n{c}\n[Event \"b\"]",
                                   "[Event \"a\"]\n1. e4 1-0 (\n[Event \"b\"]"})
    EXPECT_EQ(find_last_game_end(tag_cut), tag_cut.find("[Event \"b\"]")) << tag_cut;
  for (std::string_view no_cut : {"[Event \"a\"]\n{c}\n%x\n[Site \"b\"]\n", "[Event \"a\"]\n1. e4 [Event \"b\"]\n"})
    EXPECT_EQ(find_last_game_end(no_cut), 0u) << no_cut;
  // A ')' too many does not make depth negative; a tag ends a game and its variations, like the reader.
  const std::string unbalanced = "1. e4 ) 1-0\n1. e4 ( [Event \"x\"]\n1. d4 1/2-1/2\n";
  EXPECT_EQ(find_last_game_end(unbalanced), unbalanced.size());
  EXPECT_EQ(find_last_game_end(std::string_view(unbalanced).substr(0, unbalanced.find('('))), unbalanced.find("1. e4 ("));
}

TEST(PgnSplit, ChunkCutterTargetsAndWindows) {
  const std::string game = "[Event \"e\"]\n\n1. e4 *\n\n";  // 22 bytes
  const std::string three = game + game + game;
  EXPECT_EQ(PgnChunkCutter(30).cut(three), 44u) << "the first game start at or past the target";
  EXPECT_EQ(PgnChunkCutter(30).cut(std::string_view(three).substr(0, 29)), 0u) << "a start before the target: read on";
  // Past the target without a start past it: the last finished game in a window of the target size.
  EXPECT_EQ(PgnChunkCutter(30).cut(std::string_view(three).substr(0, 40)), 22u);
  // Without tags the same; a window without a finished game doubles before the next try.
  const std::string tagless = "1. e4 e5 2. Nf3 1-0\n1. d4 *\n1. c4 *\n";  // games end at 20, 28 and 36
  PgnChunkCutter cutter(8);
  EXPECT_EQ(cutter.cut(std::string_view(tagless).substr(0, 7)), 0u) << "shorter than the window";
  EXPECT_EQ(cutter.cut(std::string_view(tagless).substr(0, 12)), 0u) << "no game end in 8 bytes: window 16";
  EXPECT_EQ(cutter.cut(std::string_view(tagless).substr(0, 28)), 0u) << "none in 16 bytes: window 32";
  EXPECT_EQ(cutter.cut(std::string_view(tagless).substr(0, 30)), 0u) << "shorter than the window";
  EXPECT_EQ(cutter.cut(tagless), 28u) << "the last game end in 32 bytes";
  cutter.dropped(28);
  EXPECT_EQ(cutter.cut(std::string_view(tagless).substr(28)), 8u) << "the window is back to the target";
}

// The cut is looked for from the target on (not game by game from the buffer's start), knowing only that the buffer
// starts outside any comment: a tag line inside a {} comment that began before the target, or right after a game
// that is not finished, is no cut; a game starting at the target is.
TEST(PgnSplit, ChunkCutterLooksFromTheTargetOn) {
  const std::string game = "[Event \"e\"]\n\n1. e4 {a comment} e5 *\n\n";
  const std::size_t g = game.size();  // the games start at 0, g, 2g, ...
  std::string games;
  for (int i = 0; i < 10; ++i) games += game;
  EXPECT_EQ(PgnChunkCutter(5 * g + 3).cut(games), 6 * g) << "the first game start at or past the target";
  EXPECT_EQ(PgnChunkCutter(6 * g).cut(games), 6 * g) << "a game starting at the target";
  EXPECT_EQ(PgnChunkCutter(6 * g + 1).cut(games), 7 * g);
  // A comment open across the target, holding lines that look like tags; the next game starts after it.
  const std::string commented = game + "[Event \"c\"]\n\n1. e4 {a long\n[Event \"not a game\"]\n\n[Site \"x\"]\n} e5 *\n\n" + game;
  const std::size_t last = commented.size() - g;
  for (std::size_t target : {g + 1, commented.find("[Event \"not"), commented.find("[Site"), last})
    EXPECT_EQ(PgnChunkCutter(target).cut(commented), last) << target;
  // A tag line after a game without a result continues it (a tag section may not start there).
  const std::string unfinished = game + "[Event \"u\"]\n\n1. e4 e5\n[Site \"x\"]\n\n2. Nf3 *\n\n" + game;
  EXPECT_EQ(PgnChunkCutter(g + 1).cut(unfinished), unfinished.size() - g);
  // The buffer grows: the answer comes once a game start past the target is in it.
  PgnChunkCutter grown(2 * g + 1);
  EXPECT_EQ(grown.cut(std::string_view(games).substr(0, 2 * g)), 0u) << "shorter than the target: read on";
  EXPECT_EQ(grown.cut(std::string_view(games).substr(0, 3 * g + 5)), 3 * g);
  grown.dropped(3 * g);
  EXPECT_EQ(grown.cut(std::string_view(games).substr(3 * g)), 3 * g) << "the next chunk: from its own target";
}

// ---------------------------------------------------------------- game reader

struct Collected {
  std::vector<std::string> fens;
  std::vector<std::string> errors;  // "game:line:ply:NAME:token"
  std::vector<std::string> ends;    // "game:result:plies"
  std::vector<std::uint64_t> lines;
  ReplayStats stats;
};

// Each position as "game:ply FEN" ("game:ply/depth FEN" when variations are followed); errors and ends as
// replay() reports them.
Collected replay_with(std::string_view pgn, std::uint64_t first_line, const ReplayOptions& options) {
  Collected c;
  c.stats = replay_games(
      pgn, first_line,
      [&](const GameInfo& game, const PlyInfo& ply, const Position& pos) {
        std::string label = std::to_string(game.index) + ":" + std::to_string(ply.ply);
        if (options.follow_variations) label += "/" + std::to_string(ply.variation_depth);
        c.fens.push_back(label + " " + to_fen(pos, game.chess960 ? CastlingNotation::kShredder : CastlingNotation::kXFen));
        c.lines.push_back(ply.line);
      },
      [&](const GameInfo& game, const ReplayError& e) {
        c.errors.push_back(std::to_string(game.index) + ":" + std::to_string(e.line) + ":" + std::to_string(e.ply) + ":" +
                           std::string(pgn_error_name(e.code)) + ":" + std::string(e.token));
      },
      [&](const GameInfo& game, const GameEnd& end) {
        c.ends.push_back(std::to_string(game.index) + ":" + std::string(end.result) + ":" + std::to_string(end.plies));
      },
      options);
  return c;
}

Collected replay(std::string_view pgn, std::uint64_t first_line = 1, bool keep_partial_games = false) {
  ReplayOptions options;
  options.keep_partial_games = keep_partial_games;
  return replay_with(pgn, first_line, options);
}

TEST(PgnReader, TwoGamesPositionsAndTags) {
  std::string_view pgn =
      "[Event \"First\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 1-0\n\n"
      "[Event \"Second\"]\n\n1.d4 {x} d5 (1... Nf6 2. c4) 2.c4 $1 *\n";
  std::vector<std::string> events;
  ReplayStats stats = replay_games(
      pgn, 1,
      [&](const GameInfo& game, const PlyInfo& ply, const Position&) {
        if (ply.ply != 0) return;
        std::string event;
        for (std::string_view name : {"Event", "White"}) {
          if (!event.empty()) event += '/';
          event += game.find_tag(name) ? game.find_tag(name)->value : std::string_view("-");
        }
        events.push_back(event);
      },
      [&](const GameInfo&, const ReplayError&) { ADD_FAILURE(); });
  EXPECT_EQ(events, (std::vector<std::string>{"First/A", "Second/-"}));
  EXPECT_EQ(stats.games, 2u);
  EXPECT_EQ(stats.positions, 8u);
  Collected c = replay(pgn);
  EXPECT_EQ(c.fens[3], "0:3 rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  EXPECT_EQ(c.fens[7], "1:3 rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3 0 2");
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0:1-0:3", "1:*:3"}));
  EXPECT_EQ(c.lines, (std::vector<std::uint64_t>{1, 4, 4, 4, 6, 8, 8, 8}));
}

// "0000" (UCI) and "@@@@" are null moves like "--" and "Z0": they pass the turn. "0000" used to be read as a
// move number and dropped, so every later move was played by the wrong side.
TEST(PgnReader, NullMoveTokensPassTheTurn) {
  for (std::string_view null_move : {"--", "Z0", "0000", "@@@@"}) {
    Collected c = replay("[Event \"x\"]\n\n1. e4 " + std::string(null_move) + " 2. e5 *\n");
    EXPECT_TRUE(c.errors.empty()) << null_move;
    ASSERT_EQ(c.fens.size(), 4u) << null_move;
    EXPECT_EQ(c.fens[2], "0:2 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2") << null_move;
    EXPECT_EQ(c.fens[3], "0:3 rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2") << null_move;
  }
}

// A '%' escape line or a comment between tags belongs to the tag section: the [FEN] after it still sets up
// the game (it used to start a game of its own, from the standard position), and no cut falls there. Also a '%' line
// after a byte-order mark (an escape line to the lexer) that ends like a result: it was taken for a game's end, and
// cut there the game's halves were two games, so the output depended on the chunk size.
TEST(PgnReader, EscapeLinesAndCommentsBetweenTagsKeepOneGame) {
  for (std::string_view between : {"% exported by tool\n", "{note}\n", "; note\n", "{two\nlines}\n", "% 1-0\n",
                                   "\xEF\xBB\xBF% exported 1-0\n"}) {
    const std::string pgn = "[Event \"Ev\"]\n" + std::string(between) +
                            "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 *\n";
    Collected c = replay(pgn);
    EXPECT_TRUE(c.errors.empty()) << between;
    EXPECT_EQ(c.fens, (std::vector<std::string>{"0:0 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
                                                "0:1 4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"}))
        << between;
    EXPECT_EQ(find_game_start(pgn, 1), pgn.size()) << between;
  }
}

// A tag that starts mid-line ("Nb[Event ...]") opens a tag section the next '[' line continues, so that line is
// not a place to cut (found by tests/fuzz/pgn_fuzz.cpp: the two halves replayed apart reported a game more).
TEST(PgnReader, NoCutAfterATagThatStartedMidLine) {
  const std::string pgn = "1. e4 e5 2. Nb[Event \"x\"]\n[White \"A\"]\n\n1. d4 *\n";
  EXPECT_EQ(find_game_start(pgn, 1), pgn.size());
  const std::string fine = "1. e4 { [%clk 0:01] } e5 {[%clk 0:02]} 1-0\n\n[Event \"y\"]\n";
  EXPECT_EQ(find_game_start(fine, 1), fine.find("[Event"));
}

TEST(PgnReader, ErrorsSkipToNextGame) {
  std::string_view pgn =
      "[Event \"bad move\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n"
      "[Event \"ambiguous\"]\n[FEN \"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1\"]\n\n1. Nd2 *\n\n"
      "[Event \"ok\"]\n\n1. e4 *\n";
  // By default a game with an error reports no positions.
  Collected c = replay(pgn, 10);
  EXPECT_EQ(c.errors, (std::vector<std::string>{"0:12:3:ILLEGAL_MOVE:Ke3", "1:17:1:AMBIGUOUS_MOVE:Nd2"}));
  EXPECT_EQ(c.stats.games, 3u);
  EXPECT_EQ(c.stats.bad_games, 2u);
  EXPECT_EQ(c.stats.positions, 2u);
  EXPECT_EQ(c.fens, (std::vector<std::string>{"2:0 " + std::string(kStart),
                                              "2:1 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"}));
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0:1-0:2", "1:*:0", "2:*:1"}));
  // keep_partial_games: the positions before the error are reported too.
  Collected partial = replay(pgn, 10, true);
  EXPECT_EQ(partial.errors, c.errors);
  EXPECT_EQ(partial.stats.positions, 3u + 1u + 2u);
  EXPECT_EQ(partial.fens.size(), 6u);
  EXPECT_EQ(partial.fens[2], "0:2 rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
}

TEST(PgnReader, VariantsAndFen) {
  std::string_view pgn =
      "[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. N@f3 *\n\n"
      "[Variant \"Antichess\"]\n\n1. e3 b5 2. Bxb5 *\n\n"
      "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n\n"
      "[Variant \"fischerandom\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/RK5R w KQ - 0 1\"]\n\n1. O-O-O *\n\n"
      "[Variant \"Standard\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n1... Kd7 2. e4 *\n";
  Collected c = replay(pgn);
  ASSERT_EQ(c.errors.size(), 3u);
  EXPECT_EQ(c.errors[0], "0:1:0:UNSUPPORTED_VARIANT:Crazyhouse");
  EXPECT_EQ(c.errors[1], "1:5:0:UNSUPPORTED_VARIANT:Antichess");
  EXPECT_EQ(c.errors[2], "2:10:0:BAD_FEN:8/8/8/8/8/8/8/8 w - - 0 1");
  EXPECT_EQ(c.fens, (std::vector<std::string>{
                        "3:0 4k3/8/8/8/8/8/8/RK5R w HA - 0 1",
                        "3:1 4k3/8/8/8/8/8/8/2KR3R b - - 1 1",
                        "4:0 4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
                        "4:1 8/3k4/8/8/8/8/4P3/4K3 w - - 1 2",
                        "4:2 8/3k4/8/8/4P3/8/8/4K3 b - e3 0 2",
                    }));
}

TEST(PgnReader, LayoutQuirks) {
  // BOM, CRLF, a blank line inside the tags, a move number at the end of a line, a ';' comment,
  // a '%' line, a game without tags, a comment before the first game and between games.
  std::string_view pgn =
      "\xEF\xBB\xBF{file comment\n[not a tag]}\r\n"
      "[Event \"A\"]\r\n\r\n[Site \"B\"]\r\n\r\n1. e4 e5 2.\r\nNf3 ; comment ) (\r\n%escaped ) line\r\nNc6 1/2-1/2\r\n"
      "{between}\r\n\r\n"
      "1. d4 d5 *\r\n"
      "\r\n[Event \"no result\"]\r\n\r\n1. c4\r\n"
      "[Event \"empty\"]\r\n";
  Collected c = replay(pgn);
  EXPECT_TRUE(c.errors.empty()) << c.errors[0];
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0:1/2-1/2:4", "1:*:2", "2::1", "3::0"}));
  EXPECT_EQ(c.stats.positions, 5u + 3u + 2u + 1u);
  EXPECT_EQ(c.lines[0], 3u);  // the game starts at its [Event] line
  EXPECT_EQ(c.lines[3], 8u);  // Nf3 after the bare "2." at the end of line 7
}

// Files joined by `cat`, the second opening with a BOM and a '%' line: the '%' line is an escape line. It used to
// be a game of its own, rejected (BAD_TOKEN '%'), and every later game's number one too high.
TEST(PgnReader, AnEscapeLineAfterAByteOrderMarkIsSkipped) {
  Collected c = replay("[Event \"a\"]\n\n1. e4 *\n\xEF\xBB\xBF% written by x\r\n[Event \"b\"]\n\n1. d4 *\n"
                       "\xEF\xBB\xBF%\n1. c4 *\n");
  EXPECT_TRUE(c.errors.empty()) << c.errors[0];
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0:*:1", "1:*:1", "2:*:1"}));
  // Not at a line's start, a '%' is still no token.
  c = replay("1. e4 \xEF\xBB\xBF% e5 *\n");
  ASSERT_EQ(c.errors.size(), 1u);
}

// "1/2" for a draw ends the game like "1/2-1/2" (pgn-extract reads it so too); it used to reject the game as a
// bad move.
TEST(PgnReader, ADrawWrittenOneHalfEndsTheGame) {
  Collected c = replay("[Event \"a\"]\n\n1. e4 e5 1/2\n\n[Event \"b\"]\n\n1. d4 1/2-1/2\n1. c4 1/2\n");
  EXPECT_TRUE(c.errors.empty());
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0:1/2:2", "1:1/2-1/2:1", "2:1/2:1"}));
}

TEST(PgnReader, GamesWithTagsOnly) {
  // No movetext and no result: the next [Event] starts the next game (a blank line between tags does not).
  Collected c = replay("[Event \"A\"]\n\n[Site \"x\"]\n\n[Event \"B\"]\n[Site \"y\"]\n[Event \"C\"]\n\n1. e4 *\n");
  EXPECT_TRUE(c.errors.empty());
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0::0", "1::0", "2:*:1"}));
  EXPECT_EQ(c.lines, (std::vector<std::uint64_t>{1, 5, 7, 9}));
}

TEST(PgnReader, MalformedMovetext) {
  Collected c = replay("[Event \"x\"]\n\n1. e4 ) e5 *\n\n[Event \"y\"]\n\n1. e4 (1. d4 *\n\n[Event \"z\"]\n\n1. e4 {open\n");
  EXPECT_EQ(c.errors, (std::vector<std::string>{"0:3:2:UNBALANCED_VARIATION:)", "1:7:2:UNBALANCED_VARIATION:(",
                                                "2:11:2:UNTERMINATED_COMMENT:{"}));
  Collected bad = replay("[Event \"x\"]\n\n1. e4 e5 2. Nf3 \xC2\xBD-\xC2\xBD\n");
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_EQ(bad.errors[0], "0:3:4:BAD_TOKEN:\xC2\xBD");  // the whole character, not its first byte (a lone \xC2: below)
  Collected tag = replay("[Event x]\n\n1. e4 *\n\n[Event \"fine\"]\n\n1. d4 *\n");
  EXPECT_EQ(tag.errors, (std::vector<std::string>{"0:1:0:BAD_TAG:[Event x]"}));
  EXPECT_EQ(tag.stats.positions, 2u);
}

// Replays `pgn` in the pieces `cut` marks (cut(rest) is the length of the next piece, 0 for all of it), each with
// the line number it starts at, and checks that the pieces give the whole file's positions in order. Returns the
// number of games the pieces read.
std::uint64_t expect_pieces_replay_like_whole(const std::string& pgn,
                                              const std::function<std::size_t(std::string_view)>& cut) {
  Collected whole = replay(pgn);
  EXPECT_TRUE(whole.errors.empty());
  std::vector<std::string> pieces;
  std::size_t start = 0;
  std::uint64_t line = 1, games = 0;
  while (start < pgn.size()) {
    std::size_t end = start + cut(std::string_view(pgn).substr(start));
    if (end == start) end = pgn.size();
    Collected part = replay(std::string_view(pgn).substr(start, end - start), line);
    games += part.stats.games;
    for (const std::string& f : part.fens) pieces.push_back(f.substr(f.find(' ')));
    for (std::size_t i = start; i < end; ++i) line += pgn[i] == '\n';
    start = end;
  }
  EXPECT_EQ(pieces.size(), whole.fens.size());
  for (std::size_t i = 0; i < std::min(pieces.size(), whole.fens.size()); ++i)
    EXPECT_EQ(pieces[i], whole.fens[i].substr(whole.fens[i].find(' '))) << i;
  EXPECT_EQ(games, whole.stats.games);
  return games;
}

TEST(PgnReader, ChunksCutAtGameStartsGiveTheSamePositions) {
  std::string pgn;
  for (int i = 0; i < 50; ++i)
    pgn += "[Event \"" + std::to_string(i) + "\"]\n\n1. e4 {a\n\n[b]} e5 2. Nf3 Nc6 3. Bb5 a6 " + (i % 2 ? "1-0" : "*") + "\n\n";
  EXPECT_EQ(expect_pieces_replay_like_whole(pgn, [](std::string_view rest) { return find_game_start(rest, 97); }), 50u);
}

TEST(PgnReader, ChunksCutAtTaglessGameEndsGiveTheSamePositions) {
  std::string pgn;
  for (int i = 0; i < 40; ++i)
    pgn += std::string("1. e4 {a\n1-0\n} e5 (2. d4 1-0\n) 2. Nf3 Nc6 3. Bb5 a6 ") + (i % 3 ? i % 3 == 1 ? "1-0" : "1/2" : "*") + "\n\n";
  // As chunk_feed.cpp cuts: the last game end within a window that ends mid-game.
  EXPECT_EQ(expect_pieces_replay_like_whole(pgn, [](std::string_view rest) { return find_last_game_end(rest.substr(0, 150)); }),
            40u);
}

// ---------------------------------------------------------------- variations (ReplayOptions::follow_variations)

Collected replay_following(std::string_view pgn, bool keep_partial_games = false) {
  ReplayOptions options;
  options.follow_variations = true;
  options.keep_partial_games = keep_partial_games;
  return replay_with(pgn, 1, options);
}

std::string at(std::string_view prefix, std::initializer_list<std::string_view> moves) {
  return std::string(prefix) + " " + fen_after(kStart, moves);
}

// A variation replacing a black move, one nested in it, a second one after the main line moved on, and
// '(' ')' inside a {} and a ';' comment that must not count. Expected positions come from play(), not the reader.
constexpr std::string_view kNested =
    "[Event \"v\"]\n\n"
    "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) 2... d6) 2. Nf3 {a (b) c} Nc6 ; d) (\n"
    "(2... d6 3. d4) 3. Bb5 1-0\n";

TEST(PgnVariations, NestedVariationsInFileOrder) {
  Collected c = replay_following(kNested);
  EXPECT_TRUE(c.errors.empty()) << c.errors[0];
  EXPECT_EQ(c.fens, (std::vector<std::string>{
                        at("0:0/0", {}),
                        at("0:1/0", {"e4"}),
                        at("0:2/0", {"e4", "e5"}),
                        at("0:2/1", {"e4", "c5"}),
                        at("0:3/1", {"e4", "c5", "Nf3"}),
                        at("0:3/2", {"e4", "c5", "Nc3"}),
                        at("0:4/2", {"e4", "c5", "Nc3", "Nc6"}),
                        at("0:4/1", {"e4", "c5", "Nf3", "d6"}),
                        at("0:3/0", {"e4", "e5", "Nf3"}),
                        at("0:4/0", {"e4", "e5", "Nf3", "Nc6"}),
                        at("0:4/1", {"e4", "e5", "Nf3", "d6"}),
                        at("0:5/1", {"e4", "e5", "Nf3", "d6", "d4"}),
                        at("0:5/0", {"e4", "e5", "Nf3", "Nc6", "Bb5"}),
                    }));
  EXPECT_EQ(c.lines, (std::vector<std::uint64_t>{1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4}));
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0:1-0:5"}));  // the main line's plies
  EXPECT_EQ(c.stats.positions, 13u);
}

TEST(PgnVariations, SkippedByDefaultAsBefore) {
  Collected c = replay(kNested);
  EXPECT_TRUE(c.errors.empty());
  EXPECT_EQ(c.fens, (std::vector<std::string>{
                        "0:0 " + fen_after(kStart, {}),
                        "0:1 " + fen_after(kStart, {"e4"}),
                        "0:2 " + fen_after(kStart, {"e4", "e5"}),
                        "0:3 " + fen_after(kStart, {"e4", "e5", "Nf3"}),
                        "0:4 " + fen_after(kStart, {"e4", "e5", "Nf3", "Nc6"}),
                        "0:5 " + fen_after(kStart, {"e4", "e5", "Nf3", "Nc6", "Bb5"}),
                    }));
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0:1-0:5"}));
  // Every reported position is on the main line, at depth 0.
  std::vector<std::uint32_t> depths;
  replay_games(
      kNested, 1, [&](const GameInfo&, const PlyInfo& ply, const Position&) { depths.push_back(ply.variation_depth); },
      [&](const GameInfo&, const ReplayError&) { ADD_FAILURE(); });
  EXPECT_EQ(depths, std::vector<std::uint32_t>(6, 0));
}

TEST(PgnVariations, AfterTheFirstMoveAndSeveralAlternatives) {
  // "(1. d4 d5)" replaces 1. e4 from the start position; "(1... c5) (1... e6)" are two alternatives to 1... e5.
  Collected c = replay_following("1. e4 (1. d4 d5) 1... e5 (1... c5) (1... e6 2. d4) 2. Nf3 *\n");
  EXPECT_TRUE(c.errors.empty()) << c.errors[0];
  EXPECT_EQ(c.fens, (std::vector<std::string>{
                        at("0:0/0", {}),
                        at("0:1/0", {"e4"}),
                        at("0:1/1", {"d4"}),
                        at("0:2/1", {"d4", "d5"}),
                        at("0:2/0", {"e4", "e5"}),
                        at("0:2/1", {"e4", "c5"}),
                        at("0:2/1", {"e4", "e6"}),
                        at("0:3/1", {"e4", "e6", "d4"}),
                        at("0:3/0", {"e4", "e5", "Nf3"}),
                    }));
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0:*:3"}));
  // An empty variation reports nothing and changes nothing.
  Collected empty = replay_following("1. e4 () e5 *\n");
  EXPECT_TRUE(empty.errors.empty());
  EXPECT_EQ(empty.fens.size(), 3u);
  EXPECT_EQ(empty.fens[2], at("0:2/0", {"e4", "e5"}));
}

TEST(PgnVariations, FromAFenTag) {
  // Black to move first: the variation replaces 1... Kd7 from the [FEN] position.
  const std::string_view start = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
  Collected c = replay_following("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n1... Kd7 (1... Kf7 2. e4) 2. e4 *\n");
  EXPECT_TRUE(c.errors.empty()) << c.errors[0];
  EXPECT_EQ(c.fens, (std::vector<std::string>{
                        "0:0/0 " + fen_after(start, {}),
                        "0:1/0 " + fen_after(start, {"Kd7"}),
                        "0:1/1 " + fen_after(start, {"Kf7"}),
                        "0:2/1 " + fen_after(start, {"Kf7", "e4"}),
                        "0:2/0 " + fen_after(start, {"Kd7", "e4"}),
                    }));
}

TEST(PgnVariations, AVariationWithNoMoveToReplaceIsAnError) {
  std::string_view pgn =
      "[Event \"start\"]\n\n(1. d4) 1. e4 *\n\n"
      "[Event \"nested at once\"]\n\n1. e4 ((1. d4)) e5 *\n\n"
      "[Event \"ok\"]\n\n1. e4 (1. d4) *\n";
  Collected c = replay_following(pgn);
  EXPECT_EQ(c.errors, (std::vector<std::string>{"0:3:1:UNBALANCED_VARIATION:(", "1:7:1:UNBALANCED_VARIATION:("}));
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0:*:0", "1:*:1", "2:*:1"}));
  EXPECT_EQ(c.fens, (std::vector<std::string>{at("2:0/0", {}), at("2:1/0", {"e4"}), at("2:1/1", {"d4"})}));
  // Skipped, the same games are fine.
  Collected skipped = replay(pgn);
  EXPECT_TRUE(skipped.errors.empty());
  EXPECT_EQ(skipped.stats.positions, 2u + 3u + 2u);
}

TEST(PgnVariations, AnErrorInAFollowedVariationRejectsTheGame) {
  std::string_view pgn =
      "[Event \"illegal\"]\n\n1. e4 e5 (1... Nf3 2. d4) 2. Nf3 *\n\n"
      "[Event \"deep\"]\n\n1. d4 d5 2. c4 (2. Nf3 Nf6 (2... Bg4 3. Ke3)) 2... e6 *\n\n"
      "[Event \"bad char\"]\n\n1. e4 (1. d4 \xC2) *\n\n"
      "[Event \"open\"]\n\n1. e4 (1. d4\n\n"
      "[Event \"ok\"]\n\n1. c4 (1. Nf3) *\n";
  Collected c = replay_following(pgn);
  EXPECT_EQ(c.errors, (std::vector<std::string>{"0:3:2:ILLEGAL_MOVE:Nf3", "1:7:5:ILLEGAL_MOVE:Ke3",
                                                "2:11:2:BAD_TOKEN:\xC2", "3:15:2:UNBALANCED_VARIATION:("}));
  EXPECT_EQ(c.stats.bad_games, 4u);
  // GameEnd::plies counts the main line only, also when the error is in a variation.
  EXPECT_EQ(c.ends, (std::vector<std::string>{"0:*:2", "1:*:3", "2:*:1", "3::1", "4:*:1"}));
  EXPECT_EQ(c.fens, (std::vector<std::string>{at("4:0/0", {}), at("4:1/0", {"c4"}), at("4:1/1", {"Nf3"})}));
  // keep_partial_games: the positions played before the error, variations included.
  Collected partial = replay_following(pgn, true);
  EXPECT_EQ(partial.errors, c.errors);
  ASSERT_GE(partial.fens.size(), 3u);
  EXPECT_EQ(partial.fens[0], at("0:0/0", {}));
  EXPECT_EQ(partial.fens[2], at("0:2/0", {"e4", "e5"}));
  EXPECT_EQ(partial.fens[3], at("1:0/0", {}));
  // Not followed, the variations are not checked: only "open" is rejected.
  Collected skipped = replay(pgn);
  EXPECT_EQ(skipped.errors, (std::vector<std::string>{"3:15:2:UNBALANCED_VARIATION:("}));
  EXPECT_EQ(skipped.ends, (std::vector<std::string>{"0:*:3", "1:*:4", "2:*:1", "3::1", "4:*:1"}));
}

TEST(PgnVariations, TheReaderIsReusedAcrossChunks) {
  // The variation stack left by a game that ends inside a variation must not leak into the next chunk.
  ReplayOptions options;
  options.follow_variations = true;
  GameReader reader(options);
  std::vector<std::string> fens;
  auto on_position = [&](const GameInfo&, const PlyInfo& ply, const Position& pos) {
    fens.push_back(std::to_string(ply.ply) + "/" + std::to_string(ply.variation_depth) + " " + to_fen(pos));
  };
  auto on_error = [&](const GameInfo&, const ReplayError&) {};
  ReplayCallbacks callbacks{on_position, on_error, {}};
  reader.replay("[Event \"a\"]\n\n1. e4 e5 (1... c5 (1... e6\n", 1, callbacks);
  EXPECT_TRUE(fens.empty());
  reader.replay("[Event \"b\"]\n\n1. d4 (1. c4) d5 *\n", 5, callbacks);
  EXPECT_EQ(fens, (std::vector<std::string>{at("0/0", {}), at("1/0", {"d4"}), at("1/1", {"c4"}), at("2/0", {"d4", "d5"})}));
}

TEST(PgnReader, FicsWildVariantsReplayFromTheirFen) {
  // FICS's wild variants are chess rules from the position the [FEN] tag gives (wild/8: pawns on ranks 4 and 5).
  std::string_view pgn =
      "[Variant \"wild/8\"]\n[FEN \"rnbqkbnr/8/8/pppppppp/PPPPPPPP/8/8/RNBQKBNR w KQkq - 0 1\"]\n\n1. Nf3 *\n\n"
      "[Variant \"wild/0\"]\n\n1. e4 *\n\n"  // no [FEN]: the start position is unknown
      "[Variant \"Wild/1\"]\n[FEN \"rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w HAha - 0 1\"]\n\n1. e4 *\n\n"
      "[Variant \"Classical\"]\n\n1. e4 *\n";
  Collected c = replay(pgn);
  EXPECT_EQ(c.errors, (std::vector<std::string>{"1:6:0:UNSUPPORTED_VARIANT:wild/0", "2:10:0:UNSUPPORTED_VARIANT:Wild/1"}));
  EXPECT_EQ(c.fens, (std::vector<std::string>{
                        "0:0 rnbqkbnr/8/8/pppppppp/PPPPPPPP/8/8/RNBQKBNR w KQkq - 0 1",
                        "0:1 rnbqkbnr/8/8/pppppppp/PPPPPPPP/5N2/8/RNBQKB1R b KQkq - 1 1",
                        "3:0 " + std::string(kStart),
                        "3:1 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                    }));
}

TEST(PgnReader, ASecondFenOrVariantTagRejectsTheGame) {
  // Which of two [FEN] tags holds is a guess (fenmill took the first, chessops takes the last): the game is rejected
  // at the second, as JSON Lines rejects a line naming its FEN field twice. Other tags may repeat.
  std::string_view pgn =
      "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[FEN \"4k3/8/8/8/8/8/3P4/4K3 w - - 0 1\"]\n\n1. d4 *\n\n"
      "[Variant \"Standard\"]\n[variant \"Chess960\"]\n\n1. e4 *\n\n"
      "[Annotator \"a\"]\n[Annotator \"b\"]\n\n1. e4 *\n";
  Collected c = replay(pgn);
  EXPECT_EQ(c.errors, (std::vector<std::string>{"0:2:0:DUPLICATE_TAG:[FEN \"4k3/8/8/8/8/8/3P4/4K3 w - - 0 1\"]",
                                                "1:7:0:DUPLICATE_TAG:[variant \"Chess960\"]"}));
  EXPECT_EQ(c.fens, (std::vector<std::string>{"2:0 " + std::string(kStart),
                                              "2:1 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"}));
}

TEST(PgnErrors, EveryCodeIsDocumented) {
  std::ifstream in(std::string(FENMILL_SOURCE_DIR) + "/docs/ERRORS.md");
  ASSERT_TRUE(in) << "docs/ERRORS.md is missing";
  std::stringstream doc;
  doc << in.rdbuf();
  for (int i = 1; i < kPgnErrorCount; ++i) {
    std::string row = "| `" + std::string(pgn_error_name(static_cast<PgnError>(i))) + "` |";
    EXPECT_NE(doc.str().find(row), std::string::npos) << row << " missing from docs/ERRORS.md";
  }
}

TEST(PgnReader, AGameHoldingMorePositionsThanTheBoundIsRejected) {
  // Positions are held until the game ends; past max_held_positions the game is GAME_TOO_LARGE (at the move
  // that would pass it) and writes none, the next game is read as usual. Variations count too.
  ReplayOptions options;
  options.max_held_positions = 4;
  options.follow_variations = true;
  Collected c = replay_with("1. e4 e5 2. Nf3 *\n\n1. e4 e5 2. Nf3 Nc6 *\n\n1. e4 (1. d4 d5) e5 *\n\n1. d4 *\n", 1, options);
  EXPECT_EQ(c.errors, (std::vector<std::string>{"1:3:4:GAME_TOO_LARGE:Nc6", "2:5:2:GAME_TOO_LARGE:e5"}));
  EXPECT_EQ(c.fens, (std::vector<std::string>{at("0:0/0", {}), at("0:1/0", {"e4"}), at("0:2/0", {"e4", "e5"}),
                                              at("0:3/0", {"e4", "e5", "Nf3"}), at("3:0/0", {}), at("3:1/0", {"d4"})}));
}

TEST(PgnStartPosition, Variants) {
  EXPECT_EQ(classify_variant(""), PgnVariant::kStandard);
  EXPECT_EQ(classify_variant("Standard"), PgnVariant::kStandard);
  EXPECT_EQ(classify_variant("From Position"), PgnVariant::kStandard);
  EXPECT_EQ(classify_variant("classical"), PgnVariant::kStandard);
  EXPECT_EQ(classify_variant("wild/8a"), PgnVariant::kWild);
  EXPECT_EQ(classify_variant("wild/9"), PgnVariant::kUnsupported);
  EXPECT_EQ(classify_variant("fischerandom"), PgnVariant::kChess960);
  EXPECT_EQ(classify_variant("Chess960"), PgnVariant::kChess960);
  EXPECT_EQ(classify_variant("chess960"), PgnVariant::kChess960);
  EXPECT_EQ(classify_variant("Crazyhouse"), PgnVariant::kUnsupported);
  EXPECT_EQ(classify_variant("Antichess"), PgnVariant::kUnsupported);
  EXPECT_EQ(to_fen(standard_start_position()), kStart);
}

}  // namespace
}  // namespace fenmill
