// Memory stays bounded by threads x chunk size, not by the input (the pipeline issue: "a 2 GB input must not
// need more than ~200 MB"): each run's peak RSS, measured by wait4(), stays under 100 MB for inputs larger
// than that. Holding the input, the output or dedup --count's kept records in memory would exceed it. Skipped under AddressSanitizer, whose shadow memory and
// quarantine change what RSS means.
#include <gtest/gtest.h>
#include <zstd.h>

#include <string>
#include <vector>

#include "cli_util.h"
#include "core/address_sanitizer.h"
#include "formats/binary_file.h"
#include "formats/binary_record.h"
#include "generated_positions.h"
#include "start_position_block.h"

namespace fenmill::cli_test {
namespace {

namespace fs = std::filesystem;

constexpr long kBoundKb = 100 * 1024;  // 100 MB: measured 30-45 MB for normalize on 2 threads
constexpr int kCopies = 600;           // of tests/data/demo.fen (280 kB): 170 MB, 3 M lines, 3,860 distinct

// The tests are built as fenmill is: an ASan test binary runs an ASan fenmill.
bool under_address_sanitizer() { return FENMILL_ADDRESS_SANITIZER; }

std::string demo_fen() { return read_file(fs::path(FENMILL_SOURCE_DIR) / "tests" / "data" / "demo.fen"); }

// kCopies of `text`, after `header`, as `path`.
void write_copies(const fs::path& path, const std::string& text, const std::string& header = {}) {
  std::ofstream big(path, std::ios::binary);
  big << header;
  for (int i = 0; i < kCopies; ++i) big.write(text.data(), static_cast<std::streamsize>(text.size()));
}

TEST(CliMemory, PeakRssDoesNotGrowWithTheInput) {
  if (under_address_sanitizer()) GTEST_SKIP() << "RSS under AddressSanitizer is not the program's";
  TempDir tmp;
  const std::string demo = demo_fen();
  write_copies(tmp / "big.fen", demo);
  // The same bytes as concatenated zstd frames: the streamed (in-order) reader instead of the workers' pread.
  std::string frame(ZSTD_compressBound(demo.size()), '\0');
  frame.resize(ZSTD_compress(frame.data(), frame.size(), demo.data(), demo.size(), 1));
  {
    std::ofstream zst(tmp / "big.fen.zst", std::ios::binary);
    for (int i = 0; i < kCopies; ++i) zst.write(frame.data(), static_cast<std::streamsize>(frame.size()));
  }
  ASSERT_GT(fs::file_size(tmp / "big.fen"), std::uintmax_t{kBoundKb} * 1024 * 16 / 10) << "input well past the bound";

  for (const char* input : {"big.fen", "big.fen.zst"}) {
    for (std::vector<std::string> args : {std::vector<std::string>{"normalize"}, {"dedup"}, {"dedup", "--count"}}) {
      args.insert(args.end(), {"-q", "--threads", "2", tmp / input, "-o", tmp / "out.fen", "--force"});
      CliResult r = run_cli(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_LT(r.max_rss_kb, kBoundKb) << input << " " << args[0] << (args.size() > 1 ? " " + args[1] : "");
      EXPECT_GT(fs::file_size(tmp / "out.fen"), 0u);
    }
  }
}

// --mmap maps a whole file, and every page of it read counted towards RSS until the end of the run: 175 MB for the
// 170 MB FEN file, as much for CSV and PGN (whose bytes are copied into the reader's carry first). Each piece's
// pages now go once its records are written (FEN) or it has been copied (CSV, PGN).
TEST(CliMemory, AMappedFileIsLetGoAsItIsRead) {
  if (under_address_sanitizer()) GTEST_SKIP() << "RSS under AddressSanitizer is not the program's";
  TempDir tmp;
  const std::string demo = demo_fen();
  write_copies(tmp / "big.fen", demo);
  write_copies(tmp / "big.csv", demo, "fen\n");
  // The demo's positions as PGN games: a FEN tag each, no moves.
  std::string games;
  for (const std::string& line : split_lines(demo))
    if (line.find('"') == std::string::npos) games += "[FEN \"" + line + "\"]\n\n*\n\n";
  write_copies(tmp / "big.pgn", games);
  for (const char* input : {"big.fen", "big.csv", "big.pgn"}) {
    ASSERT_GT(fs::file_size(tmp / input), std::uintmax_t{kBoundKb} * 1024 * 16 / 10) << input;
    CliResult r = run_cli({"normalize", "-q", "--mmap", "--threads", "2", tmp / input, "-o", tmp / "out.fen", "--force"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_LT(r.max_rss_kb, kBoundKb) << input;
    EXPECT_GT(fs::file_size(tmp / "out.fen"), std::uintmax_t{kBoundKb} * 1024) << input;
  }
}

// A .bin file was mapped whole whatever --mmap said, and every mapped page it read counted towards RSS: reading a
// 170 MB file took ~180 MB. Without --mmap it is read block by block, as README.md says of every input but
// FEN/EPD files.
TEST(CliMemory, BinaryInputIsReadNotMapped) {
  if (under_address_sanitizer()) GTEST_SKIP() << "RSS under AddressSanitizer is not the program's";
  TempDir tmp;
  const std::string block = start_position_block();
  constexpr std::uint64_t kBlocks = 1300;  // 170 MB
  {
    std::string header, end;
    append_header(header, BinaryVariant::kChess);
    append_end_block(end, kBlocks * kMaxBlockRecords);
    std::ofstream bin(tmp / "big.bin", std::ios::binary);
    bin << header;
    for (std::uint64_t i = 0; i < kBlocks; ++i) bin << block;
    bin << end;
  }
  ASSERT_GT(fs::file_size(tmp / "big.bin"), std::uintmax_t{kBoundKb} * 1024 * 16 / 10) << "input well past the bound";
  // With --mmap the file is mapped and its blocks copied out of the mapping: the pages copied go (it took 180 MB).
  for (std::vector<std::string> args : {std::vector<std::string>{"normalize"}, {"stats"}, {"normalize", "--mmap"}}) {
    args.insert(args.end(), {"-q", "--threads", "2", tmp / "big.bin", "-o", "/dev/null"});
    CliResult r = run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_LT(r.max_rss_kb, kBoundKb) << args[0] << " " << args[1];
  }
}

// PGN without tags has no tag line to cut chunks at; the feed cuts after a finished game instead. Kept as one
// chunk, this 20 MB input took ~400 MB (and ~900 MB for 40 MB when one tag line came first).
// Under an address-space limit (`ulimit -v`, set on some shared machines) a run works as long as what it uses
// fits: the dedup tables reserved 64 GiB of address space each, so every run, normalize too, failed with
// "std::bad_alloc" under any limit. Past the limit the error says "out of memory" and nothing is published.
TEST(CliMemory, AddressSpaceLimitIsMetOrReportedAsOutOfMemory) {
  if (under_address_sanitizer()) GTEST_SKIP() << "AddressSanitizer needs terabytes of address space";
  TempDir tmp;
  const std::string demo = (fs::path(FENMILL_SOURCE_DIR) / "tests" / "data" / "demo.fen").string();
  auto limited = [&](const std::string& args) {
    const std::string command = "ulimit -v 300000 && '" FENMILL_BINARY "' " + args + " 2> '" + (tmp / "err") + "'";
    int status = std::system(("sh -c \"" + command + "\"").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"normalize"}, {"dedup"}, {"dedup", "--count"}, {"stats"}}) {
    const std::string words = command.size() == 1 ? command[0] : command[0] + " " + command[1];
    EXPECT_EQ(limited(words + " -q '" + demo + "' -o '" + (tmp / "limited.out") + "' --force"), 0)
        << words << ": " << read_file(tmp / "err");
    if (command[0] == "stats") continue;  // its report holds the run's seconds
    std::vector<std::string> args = command;
    args.insert(args.end(), {"-q", demo});
    CliResult free_run = run_cli(args);
    EXPECT_TRUE(read_file(tmp / "limited.out") == free_run.out) << words;
  }
  // Far too little to start: a worker thread or a buffer is refused, said as such (not "pthread_create has failed").
  const std::string tiny = "ulimit -v 20000 && '" FENMILL_BINARY "' normalize -q --threads 2 '" + demo + "' -o '" +
                           (tmp / "tiny.out") + "' 2> '" + (tmp / "err") + "'";
  const int tiny_status = std::system(("sh -c \"" + tiny + "\"").c_str());
  EXPECT_TRUE(WIFEXITED(tiny_status) && WEXITSTATUS(tiny_status) == 2);
  const std::string tiny_err = read_file(tmp / "err");
  EXPECT_TRUE(tiny_err.find("fenmill: error: out of memory") == 0 ||
              tiny_err.find("fenmill: error: could not start a worker thread") == 0) << tiny_err;
  EXPECT_FALSE(fs::exists(tmp / "tiny.out"));
  // 1 GiB chunks from standard input do not fit in 300 MB.
  EXPECT_EQ(limited("normalize -q --chunk-size 1073741824 - -o '" + (tmp / "big.out") + "' < '" + demo + "'"), 2);
  // normalize keeps nothing per position: the message does not send the user looking at dedup's table.
  EXPECT_EQ(read_file(tmp / "err"),
            "fenmill: error: out of memory (fewer --threads or a smaller --chunk-size need less)\n");
  EXPECT_FALSE(fs::exists(tmp / "big.out"));
  EXPECT_EQ(limited("dedup -q --chunk-size 1073741824 - -o '" + (tmp / "big.out") + "' < '" + demo + "'"), 2);
  EXPECT_EQ(read_file(tmp / "err"),
            "fenmill: error: out of memory (dedup and stats keep 11-23 bytes per distinct position; fewer --threads or "
            "a smaller --chunk-size need less)\n");
  EXPECT_FALSE(fs::exists(tmp / "big.out"));
  // dedup --count keeps a first-seen ordinal and a count per position besides dedup's slot: its own figure.
  EXPECT_EQ(limited("dedup -q --count --chunk-size 1073741824 - -o '" + (tmp / "big.out") + "' < '" + demo + "'"), 2);
  EXPECT_EQ(read_file(tmp / "err"),
            "fenmill: error: out of memory (dedup --count keeps 21-38 bytes per distinct position; fewer --threads or "
            "a smaller --chunk-size need less)\n");
  EXPECT_FALSE(fs::exists(tmp / "big.out"));
}

TEST(CliMemory, PgnWithoutTagsIsCutIntoChunks) {
  if (under_address_sanitizer()) GTEST_SKIP() << "RSS under AddressSanitizer is not the program's";
  TempDir tmp;
  const std::string game =
      "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5\n"
      "10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8\n"
      "17. Rd8# 1-0\n\n";
  {
    std::ofstream pgn(tmp / "tagless.pgn", std::ios::binary);
    pgn << game << "[Event \"a tag early on must not stop the cutting\"]\n\n";
    for (int i = 1; i < 100000; ++i) pgn << game;
  }
  CliResult r = run_cli({"dedup", "-q", "--threads", "2", tmp / "tagless.pgn", "--summary", tmp / "s.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(r.max_rss_kb, kBoundKb);
  EXPECT_EQ(split_lines(r.out).size(), 34u) << "the start and 33 plies";
  EXPECT_NE(read_file(tmp / "s.json").find("\"records\": 3400000, \"valid\": 3400000, \"invalid\": 0"), std::string::npos)
      << read_file(tmp / "s.json");
}

// dedup --count keeps every distinct record until the counts are known: with ~70 k valid, distinct EPD records of
// ~1.9 kB each (130 MB of kept text), holding them in memory would pass the bound; the table itself is ~5 MB.
TEST(CliMemory, CountKeepsItsRecordsOnDisk) {
  if (under_address_sanitizer()) GTEST_SKIP() << "RSS under AddressSanitizer is not the program's";
  TempDir tmp;
  const std::string comment = " c0 \"" + std::string(1800, 'c') + "\";\n";
  {
    std::ofstream epd(tmp / "long.epd", std::ios::binary);
    for (const std::string& placement : kings_and_knight_placements()) epd << placement << " w - -" << comment;
  }
  ASSERT_GT(fs::file_size(tmp / "long.epd"), std::uintmax_t{kBoundKb} * 1024);
  CliResult r = run_cli({"dedup", "-q", "--count", "--to", "epd", "--threads", "2", tmp / "long.epd", "-o", tmp / "out.epd"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(r.max_rss_kb, kBoundKb);
  EXPECT_GT(fs::file_size(tmp / "out.epd"), std::uintmax_t{kBoundKb} * 1024) << "the kept records are all there";
}


TEST(CliMemory, AStreamedLineIsNotHeldWhole) {
  // A 200 MiB line (a file without line breaks, as an old Mac file's CR-only ends make one) read from zstd frames
  // is one LINE_TOO_LONG reject, read past: it was held whole, 2x with its copy in the reject.
  if (under_address_sanitizer()) GTEST_SKIP() << "RSS under AddressSanitizer is not the program's";
  TempDir tmp;
  const std::string block(1 << 20, 'a');
  std::string frame(ZSTD_compressBound(block.size()), '\0');
  frame.resize(ZSTD_compress(frame.data(), frame.size(), block.data(), block.size(), 1));
  const std::string fen = "\n8/8/8/8/8/8/8/K6k w - - 0 1\n";
  std::string last(ZSTD_compressBound(fen.size()), '\0');
  last.resize(ZSTD_compress(last.data(), last.size(), fen.data(), fen.size(), 1));
  {
    std::ofstream zst(tmp / "line.fen.zst", std::ios::binary);
    for (int i = 0; i < 200; ++i) zst.write(frame.data(), static_cast<std::streamsize>(frame.size()));
    zst.write(last.data(), static_cast<std::streamsize>(last.size()));
  }
  CliResult r = run_cli({"normalize", "-q", tmp / "line.fen.zst", "--rejects", tmp / "rejects.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "8/8/8/8/8/8/8/K6k w - - 0 1\n");
  EXPECT_LT(r.max_rss_kb, kBoundKb);
  const std::string rejects = read_file(tmp / "rejects.jsonl");
  EXPECT_NE(rejects.find("\"code\":\"LINE_TOO_LONG\""), std::string::npos);
  EXPECT_NE(rejects.find("\"input_bytes\":209715200}"), std::string::npos);
}

// A CSV row with a quote left open on a 200 MiB line (a stray quote before a file's last line break, or none at all)
// is one LINE_TOO_LONG reject, read past like a FEN line: the chunk feed carried it whole, ~2x in memory.
TEST(CliMemory, AStreamedCsvRowIsNotHeldWhole) {
  if (under_address_sanitizer()) GTEST_SKIP() << "RSS under AddressSanitizer is not the program's";
  TempDir tmp;
  const std::string k = "8/8/8/8/8/8/8/K6k w - - 0 1";
  auto frame_of = [](const std::string& bytes) {
    std::string frame(ZSTD_compressBound(bytes.size()), '\0');
    frame.resize(ZSTD_compress(frame.data(), frame.size(), bytes.data(), bytes.size(), 1));
    return frame;
  };
  const std::string head = "fen,note\n" + k + ",\"open\n";
  const std::string block = frame_of(std::string(1 << 20, 'a'));
  {
    std::ofstream zst(tmp / "row.csv.zst", std::ios::binary);
    zst << frame_of(head);
    for (int i = 0; i < 200; ++i) zst << block;
    zst << frame_of("\n" + k + ",after\n");
  }
  CliResult r = run_cli({"normalize", "-q", tmp / "row.csv.zst", "--rejects", tmp / "rejects.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, k + "\n");
  EXPECT_LT(r.max_rss_kb, kBoundKb);
  const std::string rejects = read_file(tmp / "rejects.jsonl");
  EXPECT_NE(rejects.find("\"line\":2,\"column\":1,\"code\":\"LINE_TOO_LONG\""), std::string::npos);
  EXPECT_NE(rejects.find("\"input_bytes\":" + std::to_string(head.size() - 9 + (200u << 20)) + "}"), std::string::npos);
}

// A PGN game with a 60 MiB comment over many lines, then one with a 60 MiB line, read from zstd frames: each is one
// GAME_TOO_LARGE reject, read past, and the games around them are written. Both were held whole (~3x their size).
TEST(CliMemory, AStreamedPgnGameIsNotHeldWhole) {
  if (under_address_sanitizer()) GTEST_SKIP() << "RSS under AddressSanitizer is not the program's";
  TempDir tmp;
  auto frame_of = [](const std::string& bytes) {
    std::string frame(ZSTD_compressBound(bytes.size()), '\0');
    frame.resize(ZSTD_compress(frame.data(), frame.size(), bytes.data(), bytes.size(), 1));
    return frame;
  };
  std::string lines;
  while (lines.size() < (1u << 20)) lines += std::string(79, 'c') + "\n";
  lines.resize(1u << 20);
  lines.back() = '\n';
  const std::string lines_frame = frame_of(lines), line_frame = frame_of(std::string(1u << 20, 'l'));
  const std::string game = "[Event \"a\"]\n\n1. e4 *\n\n";
  {
    std::ofstream zst(tmp / "games.pgn.zst", std::ios::binary);
    zst << frame_of(game + "[Event \"comment\"]\n\n1. e4 {");
    for (int i = 0; i < 60; ++i) zst << lines_frame;
    zst << frame_of("} *\n\n" + game + "[Event \"line\"]\n\n1. e4 {");
    for (int i = 0; i < 60; ++i) zst << line_frame;
    zst << frame_of("} *\n\n" + game);
  }
  CliResult r = run_cli({"normalize", "-q", tmp / "games.pgn.zst", "--rejects", tmp / "rejects.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(split_lines(r.out).size(), 6u);
  EXPECT_LT(r.max_rss_kb, kBoundKb);
  const std::vector<std::string> rejects = split_lines(read_file(tmp / "rejects.jsonl"));
  ASSERT_EQ(rejects.size(), 2u);
  EXPECT_NE(rejects[0].find("\"line\":5,\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << rejects[0];
  EXPECT_NE(rejects[1].find("\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << rejects[1];
  EXPECT_NE(rejects[1].find("\"game\":4,"), std::string::npos) << rejects[1];
}

}  // namespace
}  // namespace fenmill::cli_test
