// The dedup key's material (core/keys.h key_material) is injective at each level: two positions get equal material
// exactly when they hold the same fields at that level. Checked against a frozen copy of the material the key used
// before (the fields as stored, one word each: equal exactly when the fields are), on every position of the shared
// data (FEN, EPD, the puzzle CSV, the PGN games replayed), a mutation of each, and random positions. Set
// FENMILL_KEY_CORPUS to a FEN file to check its positions too. The same for Xiangqi keys (xiangqi/keys.h), on the
// shared data's Xiangqi FEN file, a mutation of each position, and random positions.
#include "core/keys.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fen/normalize.h"
#include "pgn/game_reader.h"
#include "xiangqi/keys.h"
#include "xiangqi/normalize.h"

namespace fenmill {
namespace {

namespace fs = std::filesystem;

constexpr KeyLevel kLevels[] = {KeyLevel::kFull, KeyLevel::kPosition, KeyLevel::kPlacementSide, KeyLevel::kPlacement};

// Frozen copy of the 72-byte material of the key before the 48-byte one: the black board, the six type boards, and
// the state as stored. Every field the level looks at is there whole, so it is equal exactly when those fields are.
using Fields = std::array<std::uint64_t, 9>;
Fields fields_at_level(const Position& pos, KeyLevel level) {
  Fields m;
  m[0] = pos.by_color[kBlack];
  for (int t = 0; t < kPieceTypeCount; ++t) m[1 + t] = pos.by_type[t];
  const bool with_side = level != KeyLevel::kPlacement;
  const bool with_state = level == KeyLevel::kFull || level == KeyLevel::kPosition;
  const bool with_clocks = level == KeyLevel::kFull;
  auto byte = [](std::uint64_t v, int at) { return v << (8 * at); };
  std::uint64_t state = with_state ? byte(pos.castling_rook[0][0], 0) | byte(pos.castling_rook[0][1], 1) |
                                         byte(pos.castling_rook[1][0], 2) | byte(pos.castling_rook[1][1], 3) |
                                         byte(pos.ep_square, 4)
                                   : byte(kNoSquare, 0) | byte(kNoSquare, 1) | byte(kNoSquare, 2) |
                                         byte(kNoSquare, 3) | byte(kNoSquare, 4);
  if (with_side) state |= byte(pos.side_to_move, 5);
  if (with_clocks) state |= byte(pos.halfmove_clock, 6);
  m[7] = state;
  m[8] = (with_clocks ? std::uint64_t{pos.fullmove_number} : 0) | std::uint64_t{static_cast<std::uint8_t>(level)} << 32;
  return m;
}

std::array<std::uint64_t, 6> words(const KeyMaterial& m) {
  std::array<std::uint64_t, 6> w;
  std::copy(std::begin(m.words), std::end(m.words), w.begin());
  return w;
}

// Sorted by one representation, every run of equal ones must be equal in the other: the two partition the positions
// alike. Returns the number of classes (distinct positions at the level).
template <typename P, typename A, typename B>
std::size_t expect_same_partition(const std::vector<P>& all, A first, B second, const char* what) {
  std::vector<std::pair<decltype(first(all[0])), std::uint32_t>> sorted;
  sorted.reserve(all.size());
  for (std::uint32_t i = 0; i < all.size(); ++i) sorted.emplace_back(first(all[i]), i);
  std::sort(sorted.begin(), sorted.end());
  std::size_t classes = 0, mismatches = 0;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i == 0 || sorted[i].first != sorted[i - 1].first) {
      ++classes;
    } else if (second(all[sorted[i].second]) != second(all[sorted[i - 1].second]) && ++mismatches <= 5) {
      ADD_FAILURE() << what << ": positions " << sorted[i - 1].second << " and " << sorted[i].second;
    }
  }
  EXPECT_EQ(mismatches, 0u) << what;
  return classes;
}

void expect_injective(const std::vector<Position>& all) {
  ASSERT_FALSE(all.empty());
  for (KeyLevel level : kLevels) {
    SCOPED_TRACE("level " + std::to_string(static_cast<int>(level)));
    auto material = [level](const Position& p) { return words(key_material(p, level)); };
    auto fields = [level](const Position& p) { return fields_at_level(p, level); };
    std::size_t by_material = expect_same_partition(all, material, fields, "equal material, different fields");
    std::size_t by_fields = expect_same_partition(all, fields, material, "equal fields, different material");
    EXPECT_EQ(by_material, by_fields);
  }
}

// Keeps the position's invariants (each occupied square one type and one colour); not necessarily legal.
void put(Position& pos, Color c, PieceType t, Square s) {
  pos.remove(s);
  pos.put(c, t, s);
}

// One random change: a piece moved, retyped or recoloured, a square emptied or filled, or a state field changed.
Position mutated(Position pos, std::mt19937_64& rng) {
  auto square = [&] { return static_cast<Square>(rng() % 64); };
  const Bitboard occupied = pos.occupied();
  Square from = square();
  if (occupied) {  // an occupied square, at random
    Bitboard b = occupied;
    for (int k = static_cast<int>(rng() % popcount(occupied)); k > 0; --k) b &= b - 1;
    from = lsb(b);
  }
  switch (rng() % 10) {
    case 0: {  // move a piece
      if (!(occupied >> from & 1)) break;
      PieceType t = pos.type_on(from);
      Color c = pos.color_on(from);
      pos.remove(from);
      put(pos, c, t, square());
      break;
    }
    case 1:  // retype a piece
      if (occupied >> from & 1) put(pos, pos.color_on(from), PieceType(rng() % kPieceTypeCount), from);
      break;
    case 2:  // recolour a piece
      if (occupied >> from & 1) put(pos, ~pos.color_on(from), pos.type_on(from), from);
      break;
    case 3: pos.remove(from); break;
    case 4: put(pos, Color(rng() % 2), PieceType(rng() % kPieceTypeCount), square()); break;
    case 5: pos.castling_rook[rng() % 2][rng() % 2] = rng() % 3 ? square() : kNoSquare; break;
    case 6: pos.ep_square = rng() % 3 ? square() : kNoSquare; break;
    case 7: pos.side_to_move = ~pos.side_to_move; break;
    case 8: pos.halfmove_clock = static_cast<std::uint16_t>(rng() % 2 ? rng() % 4 : rng()); break;
    case 9: pos.fullmove_number = static_cast<std::uint32_t>(rng() % 2 ? rng() % 4 + 1 : rng()); break;
  }
  return pos;
}

Position random_position(std::mt19937_64& rng) {
  Position pos;
  pos.clear();
  for (int n = static_cast<int>(rng() % 40); n > 0; --n)
    put(pos, Color(rng() % 2), PieceType(rng() % kPieceTypeCount), static_cast<Square>(rng() % 64));
  for (auto& side : pos.castling_rook)
    for (Square& s : side) s = rng() % 4 ? kNoSquare : static_cast<Square>(rng() % 64);
  pos.ep_square = rng() % 4 ? kNoSquare : static_cast<Square>(rng() % 64);
  pos.side_to_move = Color(rng() % 2);
  pos.halfmove_clock = static_cast<std::uint16_t>(rng() % 3);
  pos.fullmove_number = static_cast<std::uint32_t>(rng() % 3 + 1);
  return pos;
}

// Accepted FEN/EPD records of a file (a CSV file: its second column), ep squares as written.
void add_fen_file(const fs::path& path, bool csv, std::vector<Position>& out) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string_view fen = line;
    if (csv) {
      std::size_t comma = fen.find(',');
      if (comma == std::string_view::npos) continue;
      fen = fen.substr(comma + 1);
      fen = fen.substr(0, fen.find(','));
    }
    NormalizeOptions options;
    options.ep = EpPolicy::kKeep;
    options.allow_operations = true;
    Position pos;
    if (normalize_fen(fen, pos, options).ok()) {
      out.push_back(pos);
      continue;
    }
    options.chess960 = true;
    if (normalize_fen(fen, pos, options).ok()) out.push_back(pos);
  }
}

void add_pgn_file(const fs::path& path, std::vector<Position>& out) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  GameReader reader(ReplayOptions{});
  auto on_position = [&](const GameInfo&, const PlyInfo&, const Position& pos) { out.push_back(pos); };
  auto on_error = [](const GameInfo&, const ReplayError&) {};
  reader.replay(text.str(), 1, ReplayCallbacks{on_position, on_error, {}});
}

// Each position, then one mutation of it (which may equal it at some levels: the interesting pairs), then random
// positions.
void add_mutations_and_random(std::vector<Position>& all, std::size_t random_count) {
  std::mt19937_64 rng(2024);
  const std::size_t n = all.size();
  for (std::size_t i = 0; i < n; ++i) all.push_back(mutated(all[i], rng));
  for (std::size_t i = 0; i < random_count; ++i) {
    all.push_back(random_position(rng));
    all.push_back(mutated(all.back(), rng));
  }
}

TEST(KeyMaterial, InjectiveOnRandomPositionsAndMutations) {
  std::vector<Position> all;
  add_mutations_and_random(all, 200000);
  expect_injective(all);
}

// A hand-made pair per field: the material tells them apart exactly where the level looks.
TEST(KeyMaterial, EveryTypeOnEverySquareIsDistinct) {
  std::vector<Position> all;
  Position empty;
  empty.clear();
  all.push_back(empty);
  for (int s = 0; s < 64; ++s)
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < kPieceTypeCount; ++t) {
        Position pos = empty;
        pos.put(Color(c), PieceType(t), static_cast<Square>(s));
        all.push_back(pos);
      }
  for (KeyLevel level : kLevels) {
    std::vector<std::array<std::uint64_t, 6>> materials;
    for (const Position& pos : all) materials.push_back(words(key_material(pos, level)));
    std::sort(materials.begin(), materials.end());
    EXPECT_EQ(std::unique(materials.begin(), materials.end()) - materials.begin(), 1 + 64 * 2 * kPieceTypeCount);
  }
}

TEST(KeyMaterial, InjectiveOnSharedData) {
  const fs::path data = FENMILL_SHARED_DATA;
  if (!fs::exists(data)) GTEST_SKIP() << data << " not available";
  std::vector<Position> all;
  for (const char* dir : {"fen", "epd"})
    for (const fs::directory_entry& e : fs::directory_iterator(data / dir)) add_fen_file(e.path(), false, all);
  if (fs::exists(data / "csv/lichess_db_puzzle.csv")) add_fen_file(data / "csv/lichess_db_puzzle.csv", true, all);
  const std::size_t fen_positions = all.size();
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(data / "pgn"))
    if (e.is_regular_file() && e.path().extension() == ".pgn") add_pgn_file(e.path(), all);
  EXPECT_GT(fen_positions, 200000u);
  EXPECT_GT(all.size() - fen_positions, 500000u);
  add_mutations_and_random(all, 0);
  expect_injective(all);
}

TEST(KeyMaterial, InjectiveOnCorpus) {
  const char* corpus = std::getenv("FENMILL_KEY_CORPUS");
  if (!corpus) GTEST_SKIP() << "FENMILL_KEY_CORPUS not set";
  std::vector<Position> all;
  add_fen_file(corpus, false, all);
  EXPECT_FALSE(all.empty());
  add_mutations_and_random(all, 0);
  expect_injective(all);
}

// --- Xiangqi ---

// Frozen copy of the 144-byte material of the Xiangqi key before the 80-byte one: every field the level looks at,
// whole.
using XiangqiFields = std::array<std::uint64_t, 18>;
XiangqiFields xiangqi_fields_at_level(const xiangqi::Position& pos, KeyLevel level) {
  XiangqiFields m{};
  m[0] = xiangqi::low64(pos.by_color[xiangqi::kBlack]);
  m[1] = xiangqi::high64(pos.by_color[xiangqi::kBlack]);
  for (int t = 0; t < xiangqi::kPieceTypeCount; ++t) {
    m[2 + 2 * t] = xiangqi::low64(pos.by_type[t]);
    m[3 + 2 * t] = xiangqi::high64(pos.by_type[t]);
  }
  const bool with_side = level != KeyLevel::kPlacement;
  const bool with_clocks = level == KeyLevel::kFull;
  m[16] = (with_clocks ? std::uint64_t{pos.fullmove_number} | std::uint64_t{pos.halfmove_clock} << 32 : 0) |
          (with_side ? std::uint64_t{pos.side_to_move} << 48 : 0) | std::uint64_t{static_cast<std::uint8_t>(level)} << 56;
  m[17] = 0x5158;
  return m;
}

std::array<std::uint64_t, 10> xiangqi_words(const xiangqi::KeyMaterial& m) {
  std::array<std::uint64_t, 10> w;
  std::copy(std::begin(m.words), std::end(m.words), w.begin());
  return w;
}

void expect_xiangqi_injective(const std::vector<xiangqi::Position>& all) {
  ASSERT_FALSE(all.empty());
  for (KeyLevel level : kLevels) {
    SCOPED_TRACE("level " + std::to_string(static_cast<int>(level)));
    auto material = [level](const xiangqi::Position& p) { return xiangqi_words(xiangqi::key_material(p, level)); };
    auto fields = [level](const xiangqi::Position& p) { return xiangqi_fields_at_level(p, level); };
    std::size_t by_material = expect_same_partition(all, material, fields, "equal material, different fields");
    std::size_t by_fields = expect_same_partition(all, fields, material, "equal fields, different material");
    EXPECT_EQ(by_material, by_fields);
  }
}

void put(xiangqi::Position& pos, xiangqi::Color c, xiangqi::PieceType t, xiangqi::Square s) {
  const xiangqi::Bitboard keep = ~xiangqi::square_bb(s);
  for (auto& b : pos.by_color) b &= keep;
  for (auto& b : pos.by_type) b &= keep;
  pos.put(c, t, s);
}

xiangqi::Position mutated(xiangqi::Position pos, std::mt19937_64& rng) {
  auto point = [&] { return static_cast<xiangqi::Square>(rng() % 90); };
  const xiangqi::Square s = point();
  const bool occupied = (pos.occupied() & xiangqi::square_bb(s)) != 0;
  switch (rng() % 7) {
    case 0: put(pos, xiangqi::Color(rng() % 2), xiangqi::PieceType(rng() % xiangqi::kPieceTypeCount), s); break;
    case 1:
      if (occupied) put(pos, pos.color_on(s), xiangqi::PieceType(rng() % xiangqi::kPieceTypeCount), s);
      break;
    case 2:
      if (occupied) put(pos, xiangqi::Color(pos.color_on(s) ^ 1), pos.type_on(s), s);
      break;
    case 3:
      if (occupied) {  // move the piece
        const xiangqi::PieceType t = pos.type_on(s);
        const xiangqi::Color c = pos.color_on(s);
        const xiangqi::Bitboard keep = ~xiangqi::square_bb(s);
        for (auto& b : pos.by_color) b &= keep;
        for (auto& b : pos.by_type) b &= keep;
        put(pos, c, t, point());
      }
      break;
    case 4: pos.side_to_move = xiangqi::Color(pos.side_to_move ^ 1); break;
    case 5: pos.halfmove_clock = static_cast<std::uint16_t>(rng() % 2 ? rng() % 4 : rng()); break;
    case 6: pos.fullmove_number = static_cast<std::uint32_t>(rng() % 2 ? rng() % 4 + 1 : rng()); break;
  }
  return pos;
}

void add_xiangqi_mutations_and_random(std::vector<xiangqi::Position>& all, std::size_t random_count) {
  std::mt19937_64 rng(2025);
  const std::size_t n = all.size();
  for (std::size_t i = 0; i < n; ++i) all.push_back(mutated(all[i], rng));
  for (std::size_t i = 0; i < random_count; ++i) {
    xiangqi::Position pos;
    pos.clear();
    for (int k = static_cast<int>(rng() % 40); k > 0; --k)
      put(pos, xiangqi::Color(rng() % 2), xiangqi::PieceType(rng() % xiangqi::kPieceTypeCount),
          static_cast<xiangqi::Square>(rng() % 90));
    pos.side_to_move = xiangqi::Color(rng() % 2);
    pos.halfmove_clock = static_cast<std::uint16_t>(rng() % 3);
    pos.fullmove_number = static_cast<std::uint32_t>(rng() % 3 + 1);
    all.push_back(pos);
    all.push_back(mutated(pos, rng));
  }
}

TEST(XiangqiKeyMaterial, InjectiveOnRandomPositionsAndMutations) {
  std::vector<xiangqi::Position> all;
  add_xiangqi_mutations_and_random(all, 200000);
  expect_xiangqi_injective(all);
}

TEST(XiangqiKeyMaterial, InjectiveOnSharedData) {
  const fs::path path = fs::path(FENMILL_SHARED_DATA) / "xiangqi/wukong/puzzles_verified.fen";
  if (!fs::exists(path)) GTEST_SKIP() << path << " not available";
  std::vector<xiangqi::Position> all;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    xiangqi::Position pos;
    if (xiangqi::normalize_fen(line, pos).ok()) all.push_back(pos);
  }
  EXPECT_GT(all.size(), 1000u);
  add_xiangqi_mutations_and_random(all, 0);
  expect_xiangqi_injective(all);
}

}  // namespace
}  // namespace fenmill
