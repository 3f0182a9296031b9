// process_chunk reads the lines of a FEN or EPD input under --variant chess with glue of its own (ChunkWork::
// chess_text_line: the header, format, variant and line-length questions answered once a chunk), and accept() writes
// FEN output inline, leaving stats, keys, dropped EPD operations and other formats to functions of their own. The
// general line() path (taken under --variant auto, which asks per line) must give the very same chunk result for lines
// that do not look like Xiangqi: output bytes, record ends, keys, rejects and counts, for every command and format.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "pipeline/chunk_processor.h"
#include "xiangqi/detect.h"

namespace fenmill {
namespace {

std::string chunk_text() {
  std::ifstream in(std::string(FENMILL_SOURCE_DIR) + "/tests/data/not_in_check_sample.fen");
  std::mt19937 rng(71);
  const char* castling[] = {"-", "KQkq", "kq", "KQ", "Kq", "qk", "HAha", "KQkqK", "K"};
  const std::string alphabet = "pnbrqkPNBRQK12345678/ -wbKQkq36e0\t\r;";
  std::string text;
  int n = 0;
  for (std::string line; std::getline(in, line) && n < 6000; ++n) {
    switch (n % 10) {
      case 1: {  // another castling field
        std::size_t a = line.find(' ', line.find(' ') + 1), b = line.find(' ', a + 1);
        if (a != std::string::npos && b != std::string::npos) line.replace(a + 1, b - a - 1, castling[rng() % 9]);
        break;
      }
      case 2: line[rng() % line.size()] = alphabet[rng() % alphabet.size()]; break;  // mostly invalid
      case 3: line += '\r'; break;
      case 4: line = line.substr(0, line.rfind(' ', line.rfind(' ') - 1)); break;  // no clocks
      case 5: line += " bm e4; id \"x\";"; break;  // EPD operations (trailing text for FEN)
      case 6: if (n % 20 == 6) line = n % 40 == 6 ? "" : " \t"; break;  // blank lines
      case 7: line.insert(line.find(' '), 1, ' '); break;  // the careful parser
      default: break;
    }
    if (xiangqi::looks_like_xiangqi(line)) continue;  // --variant auto would read it as Xiangqi
    text += line + '\n';
  }
  return text;
}

void expect_same(const ChunkResult& a, const ChunkResult& b, const std::string& what) {
  EXPECT_EQ(a.lines, b.lines) << what;
  EXPECT_EQ(a.out.view(), b.out.view()) << what;
  EXPECT_EQ(a.ends, b.ends) << what;
  EXPECT_TRUE(a.keys == b.keys) << what;
  EXPECT_EQ(a.dropped_operations, b.dropped_operations) << what;
  EXPECT_EQ(a.reject_text, b.reject_text) << what;
  ASSERT_EQ(a.rejects.size(), b.rejects.size()) << what;
  for (std::size_t i = 0; i < a.rejects.size(); ++i) {
    const Reject &x = a.rejects[i], &y = b.rejects[i];
    EXPECT_TRUE(x.line == y.line && x.column == y.column && x.code == y.code && x.hints == y.hints &&
                x.squares == y.squares && x.text_begin == y.text_begin && x.text_end == y.text_end &&
                x.detail_end == y.detail_end && x.xiangqi == y.xiangqi && x.valid_as_xiangqi == y.valid_as_xiangqi &&
                x.lines_before == y.lines_before && x.input_bytes == y.input_bytes)
        << what << ", reject " << i;
  }
  EXPECT_EQ(std::memcmp(&a.counts, &b.counts, sizeof a.counts), 0) << what;
}

TEST(ChessTextGlue, SameChunkResultAsTheGeneralLinePath) {
  const std::string text = chunk_text();
  struct Run {
    Command command;
    OutputFormat to;
  };
  const Run runs[] = {{Command::kNormalize, OutputFormat::kFen}, {Command::kNormalize, OutputFormat::kEpd},
                      {Command::kNormalize, OutputFormat::kBinary}, {Command::kDedup, OutputFormat::kFen},
                      {Command::kDedup, OutputFormat::kEpd},      {Command::kValidate, OutputFormat::kFen},
                      {Command::kStats, OutputFormat::kFen},      {Command::kConvert, OutputFormat::kBinary}};
  int compared = 0;
  for (InputFormat format : {InputFormat::kFen, InputFormat::kEpd})
    for (const Run& run : runs)
      for (int options = 0; options < 3; ++options) {
        Job job;
        job.command = run.command;
        job.to = run.to;
        job.normalize.repair = options == 1;
        job.normalize.ep = options == 2 ? EpPolicy::kKeep : EpPolicy::kLegal;
        job.normalize.chess960 = options == 2;
        job.key = options == 2 ? DedupLevel::kFull : DedupLevel::kPosition;
        SourceFormat source;
        source.format = format;
        ChunkResult fast, general;
        process_chunk(text, true, source, job, fast, 0);
        job.variant = Variant::kAuto;
        process_chunk(text, true, source, job, general, 0);
        const std::string what = "format " + std::to_string(static_cast<int>(format)) + ", command " +
                                 std::to_string(static_cast<int>(run.command)) + ", to " +
                                 std::to_string(static_cast<int>(run.to)) + ", options " + std::to_string(options);
        expect_same(fast, general, what);
        if (HasFailure()) return;
        EXPECT_GT(fast.counts.valid, 1000u) << what;
        EXPECT_GT(fast.counts.invalid, 100u) << what;
        ++compared;
      }
  EXPECT_EQ(compared, 48);
}

// A chunk's text output is reserved once, at about the chunk's size: grown record by record, a fresh buffer (each
// worker's first chunks) was copied some ten times on its way to ~2 MiB, a tenth of a short run's instructions.
// (6.5 MiB of text: grown by half its size at a time in 2 MiB pages, the buffer ends at 6 or 10 MiB, outside what
// the one reservation gives, 8 MiB.)
TEST(ChessTextGlue, ChunkOutputReservedOnce) {
  std::string text;
  while (text.size() < (std::size_t{13} << 19)) text += chunk_text();
  for (OutputFormat to : {OutputFormat::kFen, OutputFormat::kEpd}) {
    Job job;
    job.to = to;
    SourceFormat source;
    ChunkResult result;
    process_chunk(text, true, source, job, result, 0);
    EXPECT_GE(result.out.capacity(), text.size() + text.size() / 8);
    EXPECT_LT(result.out.capacity(), text.size() + text.size() / 2);
    const char* data = result.out.data();
    process_chunk(text, true, source, job, result, 0);  // a reused result keeps its buffer
    EXPECT_EQ(result.out.data(), data);
  }
  Job validate;
  validate.command = Command::kValidate;
  ChunkResult nothing;
  process_chunk(text, true, SourceFormat{}, validate, nothing, 0);
  EXPECT_EQ(nothing.out.capacity(), 0u);  // no output, no buffer
}

// The same for dedup's keys and record ends, reserved for a record per 48 bytes: grown key by key, a fresh vector was
// copied some fifteen times on its way to a chunk's keys. (The test file's lines are ~60 bytes: no growth past it.)
TEST(ChessTextGlue, ChunkKeysReservedOnce) {
  std::ifstream in(std::string(FENMILL_SOURCE_DIR) + "/tests/data/not_in_check_sample.fen");
  const std::string lines((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(lines.empty());
  std::string text;
  while (text.size() < (std::size_t{1} << 20)) text += lines;
  Job job;
  job.command = Command::kDedup;
  ChunkResult result;
  process_chunk(text, true, SourceFormat{}, job, result, 0);
  ASSERT_GT(result.keys.size(), text.size() / 100);
  EXPECT_EQ(result.keys.capacity(), text.size() / 48);
  EXPECT_EQ(result.ends.capacity(), text.size() / 48);
}

}  // namespace
}  // namespace fenmill
