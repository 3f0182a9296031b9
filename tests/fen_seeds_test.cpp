// The FEN facts the project started from (the encyclopedia article on FEN and the image-to-FEN guide):
// every example position normalizes to the expected text, and every "common mistake" is rejected with the
// expected code. The FENs are written out here; the source documents are not part of the repository.
#include <gtest/gtest.h>

#include <string>

#include "fen/normalize.h"
#include "fen/write.h"

namespace fenmill {
namespace {

std::string normalized(const char* fen, EpPolicy ep = EpPolicy::kLegal) {
  Position pos;
  NormalizeOptions o;
  o.ep = ep;
  NormalizeResult r = normalize_fen(fen, pos, o);
  if (!r.ok()) return "ERROR " + std::string(error_name(r.code));
  return to_fen(pos);
}

struct Example {
  const char* name;
  const char* fen;
  const char* legal;  // normalized with the default policy (ep square only when a capture is legal)
  const char* keep;   // normalized with EpPolicy::kKeep (as written)
};

const Example kExamples[] = {
    {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
    // The standard writes e3 after every double push; no black pawn can take, so the legal policy drops it.
    {"1.e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
    {"1...e5", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
     "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
     "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"},
    {"2.Nf3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
     "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
     "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"},
    {"Morphy 1858, after move 17", "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 17",
     "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 17",
     "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 17"},
    {"1.e4 c5 2.Nf3", "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
     "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
     "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"},
    // 1.e4 e6 2.e5 d5: exd6 e.p. is legal, so every policy keeps d6.
    {"1.e4 e6 2.e5 d5", "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
     "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
     "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"},
};

TEST(FenSeeds, ExamplesNormalize) {
  for (const Example& e : kExamples) {
    SCOPED_TRACE(e.name);
    EXPECT_EQ(normalized(e.fen), e.legal);
    EXPECT_EQ(normalized(e.fen, EpPolicy::kKeep), e.keep);
    EXPECT_EQ(normalized(e.legal), e.legal) << "idempotent";
    EXPECT_EQ(normalized(e.keep, EpPolicy::kKeep), e.keep) << "idempotent";
  }
  // Pseudo-legal sits between the two: the French d6 stays, the 1.e4 e3 goes (nothing attacks it).
  EXPECT_EQ(normalized("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", EpPolicy::kPseudo),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(normalized("rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", EpPolicy::kPseudo),
            "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
}

// "An image shows only the placement": a placement-only record is completed as White to move, no castling,
// no ep, clocks 0 1, and reported as completed.
TEST(FenSeeds, PlacementFromAnImage) {
  Position pos;
  NormalizeResult r = normalize_fen("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R", pos);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.completed());
  EXPECT_EQ(to_fen(pos), "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w - - 0 1");
  // With the side from the caption.
  r = normalize_fen("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b", pos);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(to_fen(pos), "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b - - 0 1");
}

struct Mistake {
  const char* what;
  const char* fen;
  const char* code;
  std::uint8_t hints = kHintNone;
};

const Mistake kMistakes[] = {
    {"a rank of 7 squares (pp1pppp)", "rnbqkbnr/pp1pppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", "RANK_SUM"},
    {"a rank of 9 squares", "rnbqkbnr/pp1ppppp/8/2p6/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", "RANK_SUM"},
    {"only 7 ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "RANK_COUNT"},
    {"board flipped: written from rank 1", "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr w KQkq - 0 1", "CASTLING_NO_KING",
     kHintFlipped},
    {"colours swapped", "RNBQKBNR/PPPPPPPP/8/8/4p3/8/pppp1ppp/rnbqkbnr b KQkq - 0 1", "CASTLING_NO_KING", kHintFlipped},
    {"a king missing", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "MISSING_KING"},
    {"two white kings", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "TOO_MANY_KINGS"},
    {"the side not to move is in check", "rnbqkbnr/ppppp1pp/8/7Q/8/4P3/PPPP1PPP/RNB1KBNR w KQkq - 0 1",
     "OPPOSITE_CHECK"},
    {"a pawn on rank 1", "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/PNBQKBNR w Kkq - 0 1", "PAWN_ON_BACK_RANK"},
    {"a pawn on rank 8", "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "PAWN_ON_BACK_RANK"},
    {"K without a rook on h1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "CASTLING_NO_ROOK"},
    {"q without a rook on a8", "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "CASTLING_NO_ROOK"},
    {"K without the king on e1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQkq - 0 1", "CASTLING_NO_KING"},
    {"ep on the wrong rank (White to move needs rank 6)",
     "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e5 0 2", "EP_WRONG_RANK"},
    {"ep on rank 3 with White to move", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 2",
     "EP_WRONG_RANK"},
    {"ep not behind a pawn that just advanced", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1",
     "EP_NO_PAWN"},
    {"ep square named as the pawn's square", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
     "EP_WRONG_RANK"},
    {"nine pawns", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", "TOO_MANY_PAWNS"},
    {"a misread bishop: two light-squared bishops and 8 pawns",
     "rnbqkbnr/pppppppp/8/8/8/3B4/PPPPPPPP/RN1QKBNR w KQkq - 0 1", "TOO_MANY_PROMOTED"},
    {"a third knight and all 8 pawns", "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "TOO_MANY_PIECES"},
    {"a second queen and all 8 pawns", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBQR w KQkq - 0 1", "TOO_MANY_PROMOTED"},
};

// A flipped or colour-swapped board with nothing else wrong looks like a legal position; it is accepted,
// and position_hints() is the only sign (see fen_errors_test.cpp).
TEST(FenSeeds, CommonMistakesAreRejected) {
  for (const Mistake& m : kMistakes) {
    SCOPED_TRACE(m.what);
    Position pos;
    NormalizeResult r = normalize_fen(m.fen, pos);
    EXPECT_EQ(error_name(r.code), m.code) << m.fen;
    EXPECT_EQ(r.hints, m.hints) << m.fen;
  }
}

}  // namespace
}  // namespace fenmill
