// The 32-byte record and the block file: exact bytes, round trips over real data, and rejection of
// malformed or corrupted input.
#include "formats/binary_record.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "fen/normalize.h"
#include "formats/binary_file.h"

namespace fenmill {
namespace {

using Record = std::array<std::uint8_t, kRecordSize>;

Position from_fen(std::string_view fen, bool chess960 = false) {
  Position pos;
  NormalizeOptions options;
  options.ep = EpPolicy::kKeep;
  options.chess960 = chess960;
  NormalizeResult r = normalize_fen(fen, pos, options);
  EXPECT_TRUE(r.ok()) << fen << ": " << error_name(r.code);
  return pos;
}

Record encode(const Position& pos) {
  Record r;
  encode_record(pos, r.data());
  return r;
}

// Encodes, decodes, re-encodes; the position and the bytes must survive.
void expect_round_trip(const Position& pos, std::string_view source) {
  Record r = encode(pos);
  Position back;
  ASSERT_TRUE(decode_record(r.data(), back)) << source;
  EXPECT_EQ(to_fen(back), to_fen(pos)) << source;
  EXPECT_TRUE(back == pos) << source;
  EXPECT_EQ(encode(back), r) << source;
}

TEST(BinaryRecord, StartPositionBytes) {
  // The example in docs/FORMAT.md.
  const Record expected = {0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF,   // occupancy
                           0x1C, 0x42, 0x25, 0xC1, 0x00, 0x00, 0x00, 0x00,   // R N B Q K B N R, P x8
                           0x66, 0x66, 0x66, 0x66, 0x7D, 0xA8, 0x8B, 0xD7,   // p x8, r n b q k b n r
                           0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00};  // w, 0, 1, reserved
  EXPECT_EQ(encode(from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")), expected);
}

TEST(BinaryRecord, SideAndClockBytes) {
  Record r = encode(from_fen("4k3/8/8/8/8/8/8/4K3 b - - 65535 1000000"));
  EXPECT_EQ(r[24], 1);
  EXPECT_EQ(r[25], 0xFF);
  EXPECT_EQ(r[26], 0xFF);
  EXPECT_EQ(r[27] | r[28] << 8 | r[29] << 16 | r[30] << 24, 1000000);
  EXPECT_EQ(r[31], 0);
}

TEST(BinaryRecord, EpPawnCode) {
  // 1.e4 (ep e3 kept as written): the e4 pawn carries code 14.
  Record r = encode(from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
  // Pieces in square order: a1..h1 (8), a2..d2, f2..h2 (7), then e4 as the 16th piece (index 15).
  EXPECT_EQ(r[8 + 15 / 2] >> 4, kCodeEpPawn);
  Record plain = encode(from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
  EXPECT_EQ(plain[8 + 15 / 2] >> 4, kCodeWhitePawn);
}

TEST(BinaryRecord, RoundTripsSpecialCases) {
  const char* fens[] = {
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  // black pawn just pushed
      "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",  // white pawn just pushed
      "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1",
      "4k3/8/8/8/8/8/8/4K3 w - - 65535 1000000",
      "8/8/8/8/8/8/8/K6k b - - 0 1",                                     // no castling, 2 pieces
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",           // 32 pieces, no rights
  };
  for (const char* fen : fens) expect_round_trip(from_fen(fen), fen);
  // Chess960: king on f1 with two rooks on its king side (X-FEN names the inner one by file). Black's rights
  // mirror White's (CASTLING_MISMATCH otherwise).
  const char* frc[] = {
      "1r3k2/1p6/8/8/8/8/8/1R3KRR w GQq - 0 1",
      "1r3kr1/1p6/8/8/8/8/8/1R3KRR w Ggq - 0 1",
      "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
      "1r3k1r/8/8/8/8/8/8/1R3K1R b Kq - 5 20",
  };
  for (const char* fen : frc) expect_round_trip(from_fen(fen, true), fen);
}

// Reads the first 4 fields (plus clocks if present) of every line and round-trips the position.
void round_trip_file(const char* relative, bool chess960, std::size_t min_positions) {
  std::filesystem::path path = std::filesystem::path(FENMILL_SHARED_DATA) / relative;
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not available";
  std::ifstream in(path);
  std::string line;
  std::size_t positions = 0, with_ep = 0, with_castling = 0;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    Position pos;
    NormalizeOptions options;
    options.ep = EpPolicy::kKeep;
    options.chess960 = chess960;
    options.allow_operations = true;
    NormalizeResult r = normalize_fen(line, pos, options);
    ASSERT_TRUE(r.ok()) << line << ": " << error_name(r.code);
    expect_round_trip(pos, line);
    ++positions;
    with_ep += pos.ep_square != kNoSquare;
    with_castling += pos.has_castling();
  }
  EXPECT_GE(positions, min_positions);
  std::cout << relative << ": " << positions << " positions, " << with_ep << " with ep, " << with_castling
            << " with castling rights\n";
}

TEST(BinaryRecord, RoundTripsNoob3Moves) { round_trip_file("epd/noob_3moves.epd", false, 150000); }
TEST(BinaryRecord, RoundTripsNotInCheck) { round_trip_file("fen/not_in_check.fen", false, 60000); }
TEST(BinaryRecord, RoundTripsChess960Starts) { round_trip_file("epd/FRC_openings.epd", true, 960); }

// --- malformed records ---

// Builds a record by hand: pieces as (square, code), in any order.
Record make_record(std::vector<std::pair<int, int>> pieces, bool black = false, std::uint16_t half = 0,
                   std::uint32_t full = 1) {
  std::sort(pieces.begin(), pieces.end());
  Record r{};
  std::uint64_t occ = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    occ |= 1ull << pieces[i].first;
    r[8 + i / 2] |= static_cast<std::uint8_t>(pieces[i].second << (4 * (i & 1)));
  }
  for (int i = 0; i < 8; ++i) r[i] = static_cast<std::uint8_t>(occ >> (8 * i));
  r[24] = black ? 1 : 0;
  r[25] = static_cast<std::uint8_t>(half);
  r[26] = static_cast<std::uint8_t>(half >> 8);
  for (int i = 0; i < 4; ++i) r[27 + i] = static_cast<std::uint8_t>(full >> (8 * i));
  return r;
}

constexpr int kWK = 5, kBK = 11, kWR = 3, kWP = 0, kBP = 6;
constexpr int a1 = 0, e1 = 4, h1 = 7, f1 = 5, e4 = 28, e3 = 20, e2 = 12, d5 = 35, e8 = 60, a8 = 56, h8 = 63, a2 = 8;

bool decodes(const Record& r) {
  Position pos;
  return decode_record(r.data(), pos);
}

TEST(BinaryRecord, HandBuiltRecordDecodes) {
  Record r = make_record({{e1, kWK}, {e8, kBK}, {h1, 12}, {a1, 12}, {e4, 14}}, true, 0, 7);
  Position pos;
  ASSERT_TRUE(decode_record(r.data(), pos));
  EXPECT_EQ(to_fen(pos), "4k3/8/8/8/4P3/8/8/R3K2R b KQ e3 0 7");
}

TEST(BinaryRecord, RejectsMalformedRecords) {
  const std::vector<std::pair<int, int>> kings = {{e1, kWK}, {e8, kBK}};
  auto with = [&](std::vector<std::pair<int, int>> extra) {
    extra.insert(extra.end(), kings.begin(), kings.end());
    return extra;
  };
  EXPECT_TRUE(decodes(make_record(kings)));

  Record r = make_record(kings);
  r[24] = 2;  // reserved flag bit
  EXPECT_FALSE(decodes(r));
  r = make_record(kings);
  r[31] = 1;  // reserved byte
  EXPECT_FALSE(decodes(r));
  r = make_record(kings);
  r[9] = 0x10;  // a nibble past the last piece
  EXPECT_FALSE(decodes(r));
  r = make_record(kings);
  r[0] |= 0xFF;
  r[1] = r[2] = r[3] = r[4] = r[5] = r[6] = r[7] = 0xFF;  // 64 pieces
  EXPECT_FALSE(decodes(r));
  EXPECT_FALSE(decodes(make_record(with({{a2, 15}}))));           // code 15
  EXPECT_FALSE(decodes(make_record(kings, false, 0, 0)));         // fullmove 0
  EXPECT_FALSE(decodes(make_record(kings, false, 0, 1000001)));   // fullmove out of range
  EXPECT_TRUE(decodes(make_record(kings, false, 65535, 1000000)));

  // En passant pawn.
  EXPECT_TRUE(decodes(make_record(with({{e4, 14}}), true)));
  EXPECT_FALSE(decodes(make_record(with({{e4, 14}}), false)));           // white to move: not a black pawn's rank
  EXPECT_FALSE(decodes(make_record(with({{e3, 14}}), true)));            // wrong rank
  EXPECT_FALSE(decodes(make_record(with({{e4, 14}, {e3, kBP}}), true)));  // passed square occupied
  EXPECT_FALSE(decodes(make_record(with({{e4, 14}, {e2, kWR}}), true)));  // origin square occupied
  EXPECT_FALSE(decodes(make_record(with({{e4, 14}, {28 + 2, 14}}), true)));  // two ep pawns
  EXPECT_TRUE(decodes(make_record(with({{d5, 14}}), false)));            // black pawn on rank 5
  EXPECT_FALSE(decodes(make_record(with({{d5, 14}}), true)));

  // Castling rooks.
  EXPECT_TRUE(decodes(make_record(with({{a1, 12}, {h1, 12}, {a8, 13}, {h8, 13}}))));
  EXPECT_FALSE(decodes(make_record(with({{h1, 12}, {f1, 12}}))));        // two on the king side
  EXPECT_FALSE(decodes(make_record(with({{a2, 12}}))));                  // off the back rank
  EXPECT_FALSE(decodes(make_record(with({{a1, 13}}))));                  // black castling rook on rank 1
  EXPECT_FALSE(decodes(make_record({{e1 + 8, kWK}, {e8, kBK}, {a1, 12}})));  // king off the back rank
  EXPECT_FALSE(decodes(make_record({{e8, kBK}, {a1, 12}})));                  // no white king
  EXPECT_FALSE(decodes(make_record({{e1, kWK}, {f1, kWK}, {e8, kBK}, {a1, 12}})));  // two white kings
  EXPECT_TRUE(decodes(make_record(with({{a1, kWR}, {h1, kWP + 3}}))));   // plain rooks need no king check
}

// The PDEP/PEXT codec and the portable one: the same bytes for every position (real ones from the repo's sample,
// and random boards with castling rooks, ep squares and more than 32 pieces), the same verdict and position for
// every record (those bytes, with bits flipped, and random bytes).
TEST(BinaryRecord, TheBmi2CodecAgreesWithThePortableOne) {
  if (!binary_record_bmi2_pays_off()) GTEST_SKIP() << "no fast PDEP/PEXT on this CPU";
  std::vector<Position> positions;
  std::ifstream demo(std::string(FENMILL_SOURCE_DIR) + "/tests/data/demo.fen");
  NormalizeOptions keep;
  keep.ep = EpPolicy::kKeep;
  for (std::string line; std::getline(demo, line);) {
    Position pos;
    if (normalize_fen(line, pos, keep).ok()) positions.push_back(pos);
  }
  ASSERT_GT(positions.size(), 4000u);
  std::mt19937_64 rng(77);
  for (int i = 0; i < 20000; ++i) {  // any board: up to 64 pieces, rights and ep square wherever
    Position pos;
    pos.clear();
    const int pieces = static_cast<int>(rng() % 65);
    for (int k = 0; k < pieces; ++k) {
      const Square s = static_cast<Square>(rng() % 64);
      if (pos.occupied() & square_bb(s)) continue;
      pos.by_color[rng() % 2] |= square_bb(s);
      pos.by_type[rng() % kPieceTypeCount] |= square_bb(s);
    }
    for (int c = 0; c < 2; ++c)
      for (int side = 0; side < 2; ++side)
        if (rng() % 2) pos.castling_rook[c][side] = static_cast<Square>(rng() % 64);
    if (rng() % 2) pos.ep_square = static_cast<Square>(rng() % 64);
    pos.side_to_move = rng() % 2 ? kBlack : kWhite;
    pos.halfmove_clock = static_cast<std::uint16_t>(rng());
    pos.fullmove_number = 1 + static_cast<std::uint32_t>(rng() % 1000000);
    positions.push_back(pos);
  }
  auto same_decoding = [](const Record& r) {
    Position a, b;
    const bool ok = decode_record_portable(r.data(), a);
    EXPECT_EQ(decode_record_bmi2(r.data(), b), ok);
    if (ok) {
      EXPECT_TRUE(a == b);
    }
  };
  for (const Position& pos : positions) {
    Record portable, bmi2;
    encode_record_portable(pos, portable.data());
    encode_record_bmi2(pos, bmi2.data());
    ASSERT_EQ(bmi2, portable) << to_fen(pos);
    same_decoding(portable);
    for (int flip = 0; flip < 4; ++flip) {
      Record r = portable;
      r[rng() % kRecordSize] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      same_decoding(r);
    }
  }
  for (int i = 0; i < 100000; ++i) {
    Record r;
    for (auto& b : r) b = static_cast<std::uint8_t>(rng());
    r[31] = 0, r[24] &= 1;  // past the header checks more often
    same_decoding(r);
  }
}

// A second king off the back rank leaves the castling rook's side clear: the record decodes (FORMAT.md: exactly one
// king of its colour on that rank), and validate() rejects the position for its kings, as it does the same FEN. It
// was BAD_RECORD, "does not decode to a position", which hid what is wrong with it.
TEST(BinaryRecord, CastlingRookWithASecondKingOffTheBackRankDecodes) {
  constexpr int e5 = 36;
  const Record r = make_record({{e1, kWK}, {e5, kWK}, {e8, kBK}, {h1, 12}});
  Position pos;
  ASSERT_TRUE(decode_record(r.data(), pos));
  EXPECT_EQ(to_fen(pos), "4k3/8/8/4K3/8/8/8/4K2R w K - 0 1");
  EXPECT_EQ(encode(pos), r);
  EXPECT_EQ(validate(pos).code, ErrorCode::kTooManyKings);
  Position from_text;
  EXPECT_EQ(normalize_fen(to_fen(pos), from_text).code, ErrorCode::kTooManyKings);
}

TEST(BinaryRecord, RandomBytesNeverCrashAndAreUsuallyRejected) {
  std::mt19937_64 rng(12345);
  int accepted = 0;
  constexpr int kTrials = 200000;
  for (int i = 0; i < kTrials; ++i) {
    Record r;
    for (auto& b : r) b = static_cast<std::uint8_t>(rng());
    Position pos;
    if (decode_record(r.data(), pos)) {
      ++accepted;
      EXPECT_EQ(encode(pos), r) << "an accepted record must re-encode to itself";
    }
  }
  EXPECT_LT(accepted, kTrials / 1000);
}

TEST(BinaryRecord, CorruptedRecordsDecodeCanonicallyOrNotAtAll) {
  std::mt19937_64 rng(99);
  const Position sources[] = {
      from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
      from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
      from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", true),
  };
  int rejected = 0, trials = 0;
  for (const Position& source : sources) {
    const Record clean = encode(source);
    for (int i = 0; i < 20000; ++i, ++trials) {
      Record r = clean;
      int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) r[rng() % kRecordSize] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      Position pos;
      if (!decode_record(r.data(), pos)) {
        ++rejected;
        continue;
      }
      EXPECT_EQ(encode(pos), r);
    }
  }
  EXPECT_GT(rejected, 0);
  std::cout << "corrupted records rejected: " << rejected << " / " << trials << "\n";
}

// --- the block file ---

std::vector<Position> sample_positions(std::size_t n) {
  const Position base[] = {
      from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
      from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
      from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", true),
      from_fen("4k3/8/8/8/8/8/8/4K3 b - - 12 40"),
  };
  std::vector<Position> out;
  for (std::size_t i = 0; i < n; ++i) {
    Position p = base[i % 4];
    p.fullmove_number = static_cast<std::uint32_t>(1 + i);  // every record different
    out.push_back(p);
  }
  return out;
}

TEST(BinaryFile, HeaderAndBlockLayout) {
  std::string out;
  append_header(out, BinaryVariant::kChess);
  ASSERT_EQ(out.size(), kFileHeaderSize);
  EXPECT_EQ(out.substr(0, 8), "FENMILLB");
  EXPECT_EQ(out.substr(8), std::string("\x01\x00\x00\x00\x20\x00\x01\x00", 8));  // flags: end block
  Record r = encode(from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  append_block(out, r.data(), 1);
  ASSERT_EQ(out.size(), kFileHeaderSize + kBlockHeaderSize + kRecordSize);
  EXPECT_EQ(out.substr(16, 8), std::string("\x01\x00\x00\x00\x00\x00\x00\x00", 8));
  std::uint64_t sum = 0;
  for (int i = 0; i < 8; ++i) sum |= std::uint64_t(static_cast<std::uint8_t>(out[24 + i])) << (8 * i);
  EXPECT_EQ(sum, block_checksum(r.data(), kRecordSize));
  EXPECT_EQ(std::memcmp(out.data() + 32, r.data(), kRecordSize), 0);
  append_end_block(out, 1);
  EXPECT_EQ(out.substr(kFileHeaderSize + kBlockHeaderSize + kRecordSize),
            std::string("\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00", 16));
}

TEST(BinaryFile, AppendBlockSplitsAt4096) {
  std::vector<std::uint8_t> records(5000 * kRecordSize, 0);
  std::string out;
  append_block(out, records.data(), 5000);
  EXPECT_EQ(out.size(), 2 * kBlockHeaderSize + 5000 * kRecordSize);
  EXPECT_EQ(static_cast<std::uint8_t>(out[0]) | static_cast<std::uint8_t>(out[1]) << 8, 4096);
  std::size_t second = kBlockHeaderSize + 4096 * kRecordSize;
  EXPECT_EQ(static_cast<std::uint8_t>(out[second]) | static_cast<std::uint8_t>(out[second + 1]) << 8, 904);
  std::string empty;
  append_block(empty, records.data(), 0);
  EXPECT_TRUE(empty.empty());
}

TEST(BinaryFile, WriterAndReaderRoundTrip) {
  std::vector<Position> positions = sample_positions(9000);
  std::string file;
  BinaryWriter writer(file);
  for (const Position& p : positions) writer.add(p);
  writer.finish();
  EXPECT_EQ(writer.records_added(), 9000u);

  BinaryReader reader(file);
  ASSERT_EQ(reader.read_header(), BinaryStatus::kOk);
  EXPECT_EQ(reader.header().variant, BinaryVariant::kChess);
  std::size_t i = 0, blocks = 0;
  BinaryBlock block;
  BinaryStatus status;
  while ((status = reader.next_block(block)) == BinaryStatus::kOk) {
    ++blocks;
    for (std::uint32_t k = 0; k < block.count; ++k, ++i) {
      Position p;
      ASSERT_TRUE(decode_record(block.records + k * kRecordSize, p));
      ASSERT_TRUE(p == positions[i]) << i;
    }
  }
  EXPECT_EQ(status, BinaryStatus::kEnd);
  EXPECT_EQ(i, positions.size());
  EXPECT_EQ(blocks, 3u);  // 4096 + 4096 + 808
}

TEST(BinaryFile, HeaderOnlyFileIsEmpty) {
  std::string file;
  BinaryWriter writer(file);
  writer.finish();
  BinaryReader reader(file);
  BinaryBlock block;
  EXPECT_EQ(reader.next_block(block), BinaryStatus::kEnd);  // reads the header on the way
}

std::string sample_file() {
  std::string file;
  BinaryWriter writer(file);
  for (const Position& p : sample_positions(9000)) writer.add(p);
  writer.finish();
  return file;
}

// Walks the file; returns the first failing status and the block it names.
BinaryStatus first_error(const std::string& file, std::uint64_t& block_index, std::size_t& offset) {
  BinaryReader reader(file);
  BinaryBlock block;
  BinaryStatus status;
  while ((status = reader.next_block(block)) == BinaryStatus::kOk) {
  }
  block_index = reader.block_index();
  offset = reader.block_offset();
  return status;
}

TEST(BinaryFile, FlippedByteNamesTheCorruptBlock) {
  const std::string clean = sample_file();
  const std::size_t block_bytes = kBlockHeaderSize + 4096 * kRecordSize;
  std::uint64_t index;
  std::size_t offset;
  ASSERT_EQ(first_error(clean, index, offset), BinaryStatus::kEnd);

  // Every byte of block 1's records, its checksum and its count.
  const std::size_t block1 = kFileHeaderSize + block_bytes;
  for (std::size_t at : {block1 + 20, block1 + kBlockHeaderSize, block1 + kBlockHeaderSize + 1000, block1 + block_bytes - 1}) {
    std::string file = clean;
    file[at] ^= 0x04;
    EXPECT_EQ(first_error(file, index, offset), BinaryStatus::kBadChecksum) << at;
    EXPECT_EQ(index, 1u);
    EXPECT_EQ(offset, block1);
  }
  // Flip every single byte of a small file: the reader always notices, except that the header has no
  // checksum, so a flip there may only change a field (variant 0 <-> 1), which the caller then sees.
  std::string small;
  append_header(small, BinaryVariant::kChess);
  Record r = encode(from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  append_block(small, r.data(), 1);
  append_block(small, r.data(), 1);
  append_end_block(small, 2);
  for (std::size_t at = 0; at < small.size(); ++at) {
    std::string file = small;
    file[at] ^= 0x01;
    BinaryStatus status = first_error(file, index, offset);
    if (status == BinaryStatus::kEnd) {
      BinaryReader reader(file);
      ASSERT_EQ(reader.read_header(), BinaryStatus::kOk);
      EXPECT_NE(reader.header().variant, BinaryVariant::kChess) << "flip at byte " << at << " went unnoticed";
      continue;
    }
    if (at >= kFileHeaderSize) {
      EXPECT_EQ(index, (at - kFileHeaderSize) / (kBlockHeaderSize + kRecordSize)) << at;
    }
  }
}

TEST(BinaryFile, HeaderAndBlockErrors) {
  const std::string clean = sample_file();
  std::uint64_t index;
  std::size_t offset;
  auto status_after = [&](auto edit) {
    std::string file = clean;
    edit(file);
    return first_error(file, index, offset);
  };
  EXPECT_EQ(status_after([](std::string& f) { f.resize(10); }), BinaryStatus::kTruncatedHeader);
  EXPECT_EQ(status_after([](std::string& f) { f[7] = '\0'; }), BinaryStatus::kBadMagic);
  EXPECT_EQ(status_after([](std::string& f) { f[8] = 2; }), BinaryStatus::kBadVersion);
  EXPECT_EQ(status_after([](std::string& f) { f[10] = 7; }), BinaryStatus::kBadVariant);
  EXPECT_EQ(status_after([](std::string& f) { f[12] = 31; }), BinaryStatus::kBadRecordSize);
  EXPECT_EQ(status_after([](std::string& f) { f[10] = 1; }), BinaryStatus::kBadRecordSize);  // Xiangqi, 32-byte records
  EXPECT_NE(status_after([](std::string& f) { f[10] = 1, f[12] = 36; }), BinaryStatus::kBadRecordSize);  // (the blocks fail)
  EXPECT_EQ(status_after([](std::string& f) { f[14] = 3; }), BinaryStatus::kBadFlags);
  // Blocks 0-2, then the end block (block 3, total 9000) closes the file.
  const std::size_t end_at = clean.size() - kBlockHeaderSize;
  EXPECT_EQ(status_after([](std::string& f) { f.pop_back(); }), BinaryStatus::kTruncatedBlock);
  EXPECT_EQ(index, 3u);
  EXPECT_EQ(offset, end_at);
  // A streaming reader learns from a truncated block how many bytes the whole block takes.
  BinaryBlock block;
  const auto* first = reinterpret_cast<const std::uint8_t*>(clean.data()) + kFileHeaderSize;
  EXPECT_EQ(parse_block(first, 5, kRecordSize, block, true), BinaryStatus::kTruncatedBlock);
  EXPECT_EQ(block.bytes, kBlockHeaderSize);
  EXPECT_EQ(parse_block(first, kBlockHeaderSize + 100, kRecordSize, block, true), BinaryStatus::kTruncatedBlock);
  EXPECT_EQ(block.bytes, kBlockHeaderSize + 4096 * kRecordSize);
  EXPECT_EQ(status_after([&](std::string& f) { f.resize(end_at); }), BinaryStatus::kMissingEndBlock);  // cut at a block boundary
  EXPECT_EQ(index, 3u);
  EXPECT_EQ(status_after([&](std::string& f) { f.erase(end_at - (kBlockHeaderSize + 808 * kRecordSize), kBlockHeaderSize + 808 * kRecordSize); }),
            BinaryStatus::kBadEndBlock);  // a whole block lost
  EXPECT_EQ(index, 2u);
  EXPECT_EQ(status_after([](std::string& f) { f[f.size() - 8] ^= 1; }), BinaryStatus::kBadEndBlock);
  EXPECT_EQ(status_after([](std::string& f) { f.append("\x01\x00\x00", 3); }), BinaryStatus::kDataAfterEnd);
  EXPECT_EQ(status_after([&](std::string& f) { f.append(f.substr(end_at)); }), BinaryStatus::kDataAfterEnd);
  EXPECT_EQ(status_after([](std::string& f) { f[16] = f[17] = 0; }), BinaryStatus::kBadEndBlock);  // count 0: an early end
  EXPECT_EQ(index, 0u);
  // A file without the end-block flag (fenmill before 2026-12-01) ends at its last block, and count 0 is an error.
  EXPECT_EQ(status_after([&](std::string& f) { f[14] = 0, f.resize(end_at); }), BinaryStatus::kEnd);
  EXPECT_EQ(status_after([](std::string& f) { f[14] = 0; }), BinaryStatus::kBadBlockCount);
  EXPECT_EQ(index, 3u);
  EXPECT_EQ(status_after([](std::string& f) { f[14] = 0, f[16] = f[17] = 0; }), BinaryStatus::kBadBlockCount);
  EXPECT_EQ(index, 0u);
  EXPECT_EQ(status_after([](std::string& f) { f[17] = 0x20; }), BinaryStatus::kBadBlockCount);  // 8192
  EXPECT_EQ(status_after([](std::string& f) { f[20] = 1; }), BinaryStatus::kBadBlockReserved);
  for (int s = 0; s <= static_cast<int>(BinaryStatus::kDataAfterEnd); ++s) {
    EXPECT_FALSE(binary_status_name(BinaryStatus(s)).empty());
    EXPECT_FALSE(binary_status_message(BinaryStatus(s)).empty());
  }
}

}  // namespace
}  // namespace fenmill
