// Polyglot Zobrist keys against the book format's published vectors, and the 128-bit dedup key levels.
#include "core/keys.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "fen/normalize.h"

namespace fenmill {
namespace {

Position from_fen(std::string_view fen, EpPolicy ep = EpPolicy::kKeep, bool chess960 = false) {
  Position pos;
  NormalizeOptions options;
  options.ep = ep;
  options.chess960 = chess960;
  NormalizeResult r = normalize_fen(fen, pos, options);
  EXPECT_TRUE(r.ok()) << fen << ": " << error_name(r.code);
  return pos;
}

struct PolyglotVector {
  const char* moves;
  const char* fen;
  std::uint64_t key;
};

// The test positions published with the Polyglot book format.
constexpr PolyglotVector kPolyglotVectors[] = {
    {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cull},
    {"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196ull},
    {"e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0ull},
    {"e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4ull},
    {"e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78ull},
    {"... f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 1 3", 0x652a607ca3f242c1ull},
    {"... e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 2 4", 0x00fdd303c946bdd9ull},
    {"a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
     0x3c8123ea7b067637ull},
    {"... c2c4 b4c3 a1a3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 1 4", 0x5c3f9b829b279560ull},
};

TEST(PolyglotKey, PublishedVectors) {
  for (const PolyglotVector& v : kPolyglotVectors) {
    EXPECT_EQ(polyglot_key(from_fen(v.fen)), v.key) << v.moves;
  }
}

TEST(PolyglotKey, TableEndsAreTheKnownConstants) {
  EXPECT_EQ(kPolyglotRandom[0], 0x9D39247E33776D41ull);
  EXPECT_EQ(kPolyglotRandom[768], 0x31D71DCE64B2C310ull);  // white short castling
  EXPECT_EQ(kPolyglotRandom[780], 0xF8D626AAAF278509ull);  // white to move
}

TEST(PolyglotKey, EpCountsOnlyWhenAPawnCanCapture) {
  // After 1.e4 no black pawn attacks e3: the key is that of the same position without the ep square.
  EXPECT_EQ(polyglot_key(from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")),
            polyglot_key(from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")));
  // After 3...f5 the e5 pawn attacks f6: the ep file is part of the key.
  std::uint64_t with = polyglot_key(from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"));
  std::uint64_t without = polyglot_key(from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"));
  EXPECT_EQ(with ^ without, kPolyglotRandom[772 + 5]);
}

TEST(PolyglotKey, Chess960RightsMapBySide) {
  // King on b1/b8, rooks on a and h: the a-rook is queen-side ("long"), the h-rook king-side ("short").
  const char* placement = "rkbqnbnr/pppppppp/8/8/8/8/PPPPPPPP/RKBQNBNR w ";
  std::uint64_t none = polyglot_key(from_fen(std::string(placement) + "- - 0 1", EpPolicy::kKeep, true));
  std::uint64_t all = polyglot_key(from_fen(std::string(placement) + "KQkq - 0 1", EpPolicy::kKeep, true));
  std::uint64_t white_short = polyglot_key(from_fen(std::string(placement) + "H - 0 1", EpPolicy::kKeep, true));
  std::uint64_t black_long = polyglot_key(from_fen(std::string(placement) + "a - 0 1", EpPolicy::kKeep, true));
  EXPECT_EQ(all ^ none, kPolyglotRandom[768] ^ kPolyglotRandom[769] ^ kPolyglotRandom[770] ^ kPolyglotRandom[771]);
  EXPECT_EQ(white_short ^ none, kPolyglotRandom[768]);
  EXPECT_EQ(black_long ^ none, kPolyglotRandom[771]);
}

// --- dedup keys ---

constexpr KeyLevel kLevels[] = {KeyLevel::kFull, KeyLevel::kPosition, KeyLevel::kPlacementSide, KeyLevel::kPlacement};

// Which levels should tell a and b apart, as a bit per level (kFull = bit 0).
void expect_levels_differ(const Position& a, const Position& b, unsigned differ_mask) {
  for (int i = 0; i < 4; ++i) {
    bool differ = (differ_mask >> i) & 1;
    EXPECT_EQ(dedup_key(a, kLevels[i]) != dedup_key(b, kLevels[i]), differ) << "level " << i;
  }
}

TEST(DedupKey, ClocksMatterOnlyAtFull) {
  expect_levels_differ(from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
                       from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30"), 0b0001);
  expect_levels_differ(from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 1"),
                       from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 6 1"), 0b0001);
  // Every byte of both clocks counts (the key packs them into words: a lost high byte would merge these).
  expect_levels_differ(from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 300"),
                       from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 261 300"), 0b0001);
  expect_levels_differ(from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 300"),
                       from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 65836"), 0b0001);
}

TEST(DedupKey, CastlingAndEpMatterDownToPosition) {
  expect_levels_differ(from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
                       from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1"), 0b0011);
  expect_levels_differ(from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
                       from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"), 0b0011);
}

TEST(DedupKey, LegalEpPolicyMakesUselessEpSquaresVanish) {
  // "e3" after 1.e4 and "-": equal kPosition keys once the caller applied EpPolicy::kLegal.
  Position written = from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", EpPolicy::kLegal);
  Position plain = from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", EpPolicy::kLegal);
  EXPECT_EQ(dedup_key(written, KeyLevel::kPosition), dedup_key(plain, KeyLevel::kPosition));
  Position kept = from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", EpPolicy::kKeep);
  EXPECT_NE(dedup_key(kept, KeyLevel::kPosition), dedup_key(plain, KeyLevel::kPosition));
}

TEST(DedupKey, SideMattersDownToPlacementSide) {
  expect_levels_differ(from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1"), 0b0111);
}

TEST(DedupKey, PlacementAlwaysMatters) {
  expect_levels_differ(from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), from_fen("4k3/8/8/8/8/8/8/3K4 w - - 0 1"), 0b1111);
  // Same squares, colours swapped: the key must see colours, not only occupancy and types.
  expect_levels_differ(from_fen("4k3/8/8/8/8/8/3pP3/4K3 w - - 0 1"), from_fen("4k3/8/8/8/8/8/3Pp3/4K3 w - - 0 1"),
                       0b1111);
}

TEST(DedupKey, LevelsNeverShareKeys) {
  Position pos = from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");  // here every level sees the same fields
  std::unordered_set<Key128, Key128Hash> keys;
  for (KeyLevel level : kLevels) keys.insert(dedup_key(pos, level));
  EXPECT_EQ(keys.size(), 4u);
}

TEST(DedupKey, IgnoresPaddingBytes) {
  Position a, b;
  std::memset(&a, 0x00, sizeof a);
  std::memset(&b, 0xA5, sizeof b);
  a = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 9");
  Position tmp = a;
  std::memcpy(&b.by_color, &tmp.by_color, sizeof tmp.by_color);
  std::memcpy(&b.by_type, &tmp.by_type, sizeof tmp.by_type);
  std::memcpy(&b.castling_rook, &tmp.castling_rook, sizeof tmp.castling_rook);
  b.ep_square = tmp.ep_square;
  b.side_to_move = tmp.side_to_move;
  b.halfmove_clock = tmp.halfmove_clock;
  b.fullmove_number = tmp.fullmove_number;
  for (KeyLevel level : kLevels) EXPECT_EQ(dedup_key(a, level), dedup_key(b, level));
}

// Distinct keys at kPosition <=> distinct 4-field FEN text, over a real file.
TEST(DedupKey, MatchesDistinctPositionFieldsOnRealData) {
  std::filesystem::path path = std::filesystem::path(FENMILL_SHARED_DATA) / "fen/not_in_check.fen";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not available";
  std::ifstream in(path);
  std::string line;
  std::unordered_map<Key128, std::string, Key128Hash> seen;
  std::unordered_set<std::string> distinct_fields;
  std::size_t positions = 0;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    Position pos;
    NormalizeOptions options;
    options.allow_operations = true;
    ASSERT_TRUE(normalize_fen(line, pos, options).ok()) << line;
    char buf[kMaxFenLength];
    std::string fields(buf, write_position_fields(pos, buf, CastlingNotation::kXFen));
    distinct_fields.insert(fields);
    auto [it, inserted] = seen.emplace(dedup_key(pos, KeyLevel::kPosition), fields);
    if (!inserted) {
      EXPECT_EQ(it->second, fields) << "two different positions share a 128-bit key";
    }
    ++positions;
  }
  EXPECT_GT(positions, 1000u);
  EXPECT_EQ(seen.size(), distinct_fields.size());
}

}  // namespace
}  // namespace fenmill
