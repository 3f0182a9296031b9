// Property test of the bulk pipeline through the fenmill binary: a seeded random input (real positions from
// tests/data/not_in_check_sample.fen when present, generated positions, duplicates differing by clocks or by a
// dead en-passant square, garbage, blank lines, CRLF, NUL bytes) is run with many chunk sizes and thread
// counts, read() and --mmap. Every run must give byte-identical outputs, rejects and summaries (but "seconds");
// dedup must equal the first occurrences of the normalize output, computed here independently; and the numbers
// must add up.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli_util.h"
#include "summary_json.h"
#include "pipeline/chunk_processor.h"

namespace fenmill::cli_test {
namespace {

namespace fs = std::filesystem;

// A chunk's output is not bounded by --chunk-size (one PGN game under --with-tags repeats its tags for every
// position), and a rejected line may be longer than 4 GiB: offsets into either are 64-bit. With 32 bits, dedup
// lost all but the first 4 GiB of such a chunk with exit 0 (helper-29; a 4.4 GB repro takes a minute and
// 6.5 GB of memory, too much for the suite, so the types are held here).
static_assert(sizeof(ChunkResult{}.ends[0]) == 8, "record end offsets in a chunk's output must be 64-bit");
static_assert(sizeof(Reject{}.text_begin) == 8 && sizeof(Reject{}.text_end) == 8 && sizeof(Reject{}.detail_end) == 8,
              "offsets into a chunk's reject text must be 64-bit");

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [0, n).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(engine_() % n); }
  bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }

 private:
  std::mt19937_64 engine_;
};

// A random position as FEN: two kings, a few random pieces, sometimes castling rooks and rights, sometimes a
// double-pushed pawn with its ep square (capturable or not). Many are illegal (checks, pawn counts): the mix
// of valid and invalid is the point.
std::string random_position(Rng& rng) {
  char board[64];  // index rank * 8 + file, rank 0 = rank 1
  std::fill(std::begin(board), std::end(board), '.');
  auto empty_square = [&](bool pawn) {
    for (;;) {
      std::size_t sq = rng.below(64);
      if (board[sq] != '.') continue;
      if (pawn && (sq < 8 || sq >= 56)) continue;
      return sq;
    }
  };
  bool white_to_move = rng.chance(50);
  std::string castling;
  if (rng.chance(30)) {
    board[4] = 'K';
    board[60] = 'k';
    const char* rights = "KQkq";
    const int rook_square[4] = {7, 0, 63, 56};
    for (int i = 0; i < 4; ++i)
      if (rng.chance(60)) {
        board[rook_square[i]] = i < 2 ? 'R' : 'r';
        castling += rights[i];
      }
  } else {
    std::size_t wk = empty_square(false);
    board[wk] = 'K';
    for (;;) {
      std::size_t bk = empty_square(false);
      int dr = static_cast<int>(bk / 8) - static_cast<int>(wk / 8), df = static_cast<int>(bk % 8) - static_cast<int>(wk % 8);
      if (dr * dr <= 1 && df * df <= 1) continue;
      board[bk] = 'k';
      break;
    }
  }
  std::string ep = "-";
  if (rng.chance(20)) {  // the side not to move just pushed a pawn two squares
    int file = static_cast<int>(rng.below(8));
    int pawn_rank = white_to_move ? 4 : 3, passed_rank = white_to_move ? 5 : 2, origin_rank = white_to_move ? 6 : 1;
    if (board[pawn_rank * 8 + file] == '.' && board[passed_rank * 8 + file] == '.' && board[origin_rank * 8 + file] == '.') {
      board[pawn_rank * 8 + file] = white_to_move ? 'p' : 'P';
      ep = std::string(1, static_cast<char>('a' + file)) + static_cast<char>('1' + passed_rank);
      int side_file = file + (rng.chance(50) ? 1 : -1);
      if (rng.chance(60) && side_file >= 0 && side_file < 8 && board[pawn_rank * 8 + side_file] == '.')
        board[pawn_rank * 8 + side_file] = white_to_move ? 'P' : 'p';
      // Keep the passed and origin squares empty.
      board[passed_rank * 8 + file] = '#';
      board[origin_rank * 8 + file] = '#';
    }
  }
  const char* kinds = "PNBRQpnbrqPp";
  for (std::size_t n = rng.below(14); n > 0; --n) {
    char piece = kinds[rng.below(12)];
    board[empty_square(piece == 'P' || piece == 'p')] = piece;
  }
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int run = 0;
    for (int file = 0; file < 8; ++file) {
      char c = board[rank * 8 + file];
      if (c == '.' || c == '#') {
        ++run;
        continue;
      }
      if (run) fen += static_cast<char>('0' + run);
      run = 0;
      fen += c;
    }
    if (run) fen += static_cast<char>('0' + run);
    if (rank) fen += '/';
  }
  fen += white_to_move ? " w " : " b ";
  fen += castling.empty() ? "-" : castling;
  fen += ' ' + ep;
  fen += ' ' + std::to_string(ep == "-" ? rng.below(60) : 0) + ' ' + std::to_string(1 + rng.below(120));
  return fen;
}

std::vector<std::string> sample_positions() {
  fs::path sample = fs::path(FENMILL_SOURCE_DIR) / "tests" / "data" / "not_in_check_sample.fen";
  if (!fs::exists(sample)) return {};
  std::vector<std::string> lines = split_lines(read_file(sample));
  std::erase_if(lines, [](const std::string& l) { return l.empty(); });
  return lines;
}

// Replaces the clocks (fields 5 and 6) of a 6-field FEN, or returns it unchanged.
std::string with_clocks(const std::string& fen, Rng& rng) {
  std::size_t spaces = 0, cut = std::string::npos;
  for (std::size_t i = 0; i < fen.size(); ++i)
    if (fen[i] == ' ' && ++spaces == 4) cut = i;
  if (spaces != 5) return fen;
  return fen.substr(0, cut) + ' ' + std::to_string(rng.below(40)) + ' ' + std::to_string(1 + rng.below(200));
}

std::string garbage(const std::string& fen, Rng& rng) {
  switch (rng.below(5)) {
    case 0: {  // printable noise
      std::string s;
      for (std::size_t n = 1 + rng.below(40); n > 0; --n) s += static_cast<char>('!' + rng.below(94));
      return s;
    }
    case 1:  // a cut-off FEN (may still be a valid 1..4-field prefix: fine)
      return fen.substr(0, 1 + rng.below(fen.size()));
    case 2: {  // one byte changed
      std::string s = fen;
      s[rng.below(s.size())] = static_cast<char>(' ' + rng.below(95));
      return s;
    }
    case 3: {  // a NUL byte inside
      std::string s = fen;
      s.insert(rng.below(s.size()), 1, '\0');
      return s;
    }
    default:  // trailing text
      return fen + " junk";
  }
}

struct Input {
  std::vector<std::string> files;  // contents of the input files, in order
  std::size_t records = 0;         // non-blank lines, counted here
};

Input make_input(std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::string> pool = sample_positions();
  while (pool.size() < 2500) pool.push_back(random_position(rng));
  std::vector<std::string> emitted;
  Input input;
  input.files.resize(2);
  for (int f = 0; f < 2; ++f) {
    std::string& text = input.files[f];
    if (f == 0) text = "\xEF\xBB\xBF";  // a BOM on the first input
    std::size_t lines = f == 0 ? 2200 : 900;
    for (std::size_t i = 0; i < lines; ++i) {
      std::string line;
      std::size_t kind = rng.below(100);
      bool blank = false;
      if (kind < 40) {
        line = pool[rng.below(pool.size())];
      } else if (kind < 55) {
        line = random_position(rng);
      } else if (kind < 67 && !emitted.empty()) {  // a duplicate: the same, or other clocks
        line = emitted[rng.below(emitted.size())];
        if (rng.chance(50)) line = with_clocks(line, rng);
      } else if (kind < 80) {
        line = garbage(pool[rng.below(pool.size())], rng);
      } else if (kind < 88) {  // fewer fields
        const std::string& fen = pool[rng.below(pool.size())];
        std::size_t fields = 1 + rng.below(4), end = 0;
        for (std::size_t k = 0; k < fields && end != std::string::npos; ++k) end = fen.find(' ', end + (k ? 1 : 0));
        line = fen.substr(0, end);
      } else if (kind < 94) {
        const char* blanks[] = {"", " ", "\t", "  \t "};
        line = blanks[rng.below(4)];
        blank = true;
      } else {
        line = pool[rng.below(pool.size())] + (rng.chance(50) ? " " : "\t");  // trailing blank
      }
      if (!blank) {
        bool all_blank = line.find_first_not_of(" \t") == std::string::npos;
        if (all_blank) line = "x";  // garbage must not be blank by accident
        ++input.records;
        emitted.push_back(line);
      }
      text += line;
      bool last = f == 1 && i + 1 == lines;
      if (!last) text += rng.chance(25) ? "\r\n" : "\n";
    }
  }
  return input;
}


// The first four space-separated fields: the default dedup key of a normalized FEN.
std::string position_fields(const std::string& fen) {
  std::size_t end = 0;
  for (int k = 0; k < 4; ++k) end = fen.find(' ', end + (k ? 1 : 0));
  return fen.substr(0, end);
}

// Decodes the JSON string starting at s[i] (at the opening quote); only the escapes the rejects use.
std::string json_string_at(const std::string& s, std::size_t i) {
  std::string out;
  for (++i; i < s.size() && s[i] != '"'; ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    char e = s[++i];
    if (e == 'u') {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 4), nullptr, 16));
      i += 4;
    } else {
      out += e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
    }
  }
  return out;
}

struct RunOutput {
  std::string out, rejects, summary;
};

RunOutput run_pipeline(const TempDir& dir, const std::string& command, const std::vector<std::string>& extra) {
  fs::remove(dir / "out.fen");
  fs::remove(dir / "rejects.jsonl");
  fs::remove(dir / "summary.json");
  std::vector<std::string> args = {command, "-q", "in1.fen", "in2.fen", "-o", "out.fen", "--rejects", "rejects.jsonl",
                                   "--summary", "summary.json"};
  args.insert(args.end(), extra.begin(), extra.end());
  CliResult r = run_cli(args, dir.path().string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  RunOutput o;
  if (r.exit_code != 0) return o;
  o.out = read_file(dir / "out.fen");
  o.rejects = read_file(dir / "rejects.jsonl");
  o.summary = without_seconds(read_file(dir / "summary.json"));
  return o;
}

TEST(PipelineProperty, SameBytesForEveryChunkSizeAndThreadCount) {
  const Input input = make_input(20261130);
  TempDir dir;
  write_file(dir / "in1.fen", input.files[0]);
  write_file(dir / "in2.fen", input.files[1]);
  const std::vector<std::string> in_lines[2] = {split_lines(input.files[0].substr(3)), split_lines(input.files[1])};

  const std::vector<std::string> chunk_sizes = {"1", "2", "3", "17", "4096", ""};  // "" = the default
  const std::vector<std::string> thread_counts = {"1", "2", "8"};
  RunOutput reference[2];
  const char* commands[2] = {"normalize", "dedup"};
  bool first = true;
  for (const std::string& chunk : chunk_sizes)
    for (const std::string& threads : thread_counts) {
      SCOPED_TRACE("chunk size " + (chunk.empty() ? "default" : chunk) + ", threads " + threads);
      std::vector<std::string> extra = {"--threads", threads};
      if (!chunk.empty()) extra.insert(extra.end(), {"--chunk-size", chunk});
      for (int c = 0; c < 2; ++c) {
        RunOutput o = run_pipeline(dir, commands[c], extra);
        if (first) {
          reference[c] = o;
          continue;
        }
        // Not EXPECT_EQ on the whole text: a failure would print megabytes.
        EXPECT_TRUE(o.out == reference[c].out) << commands[c] << " output differs";
        EXPECT_TRUE(o.rejects == reference[c].rejects) << commands[c] << " rejects differ";
        EXPECT_EQ(o.summary, reference[c].summary) << commands[c];
      }
      first = false;
    }
  // Mapped inputs (--mmap) instead of read(): the same bytes again.
  for (const std::string chunk : {"3", "65536"}) {
    SCOPED_TRACE("--mmap, chunk size " + chunk);
    for (int c = 0; c < 2; ++c) {
      RunOutput o = run_pipeline(dir, commands[c], {"--mmap", "--threads", "2", "--chunk-size", chunk});
      EXPECT_TRUE(o.out == reference[c].out) << commands[c] << " output differs";
      EXPECT_TRUE(o.rejects == reference[c].rejects) << commands[c] << " rejects differ";
      EXPECT_EQ(o.summary, reference[c].summary) << commands[c];
    }
  }

  const RunOutput& norm = reference[0];
  const RunOutput& dedup = reference[1];
  const std::vector<std::string> norm_lines = split_lines(norm.out), dedup_lines = split_lines(dedup.out);
  EXPECT_EQ(norm.rejects, dedup.rejects) << "the same records are invalid";

  // dedup == the first occurrence of each position of the normalize output.
  std::set<std::string> seen;
  std::vector<std::string> firsts;
  for (const std::string& line : norm_lines)
    if (seen.insert(position_fields(line)).second) firsts.push_back(line);
  EXPECT_EQ(dedup_lines.size(), firsts.size());
  EXPECT_TRUE(dedup_lines == firsts) << "dedup is not the first occurrences of the normalize output";

  // The numbers add up, and match what is in the files.
  for (const RunOutput* o : {&norm, &dedup}) {
    SCOPED_TRACE(o == &norm ? "normalize" : "dedup");
    const std::string& s = o->summary;
    EXPECT_EQ(json_number(s, "records"), input.records);
    EXPECT_EQ(json_number(s, "records"), json_number(s, "valid") + json_number(s, "invalid"));
    EXPECT_EQ(sum_by_code(s), json_number(s, "invalid"));
    EXPECT_EQ(json_number(s, "invalid"), split_lines(o->rejects).size());
    EXPECT_EQ(json_number(s, "written"), split_lines(o->out).size());
    EXPECT_EQ(json_number(s, "bytes_in"), input.files[0].size() - 3 + input.files[1].size()) << "all bytes but the BOM";
    EXPECT_EQ(json_number(s, "repaired"), 0u);
  }
  EXPECT_EQ(json_number(norm.summary, "written"), json_number(norm.summary, "valid"));
  EXPECT_EQ(json_number(norm.summary, "duplicates"), 0u);
  EXPECT_EQ(json_number(dedup.summary, "valid"), json_number(dedup.summary, "written") + json_number(dedup.summary, "duplicates"));
  // The input really has what the test is about.
  EXPECT_GT(json_number(norm.summary, "invalid"), 200u);
  EXPECT_GT(json_number(norm.summary, "valid"), 1000u);
  EXPECT_GT(json_number(dedup.summary, "duplicates"), 200u);
  EXPECT_GT(json_number(norm.summary, "completed"), 50u);

  // Every reject names the right file and line, and quotes it.
  std::size_t checked = 0;
  static const std::regex head(R"re(^\{"file":"(in[12]\.fen)","line":([0-9]+),"column":([0-9]+),"code":"([A-Z_]+)")re");
  for (const std::string& reject : split_lines(norm.rejects)) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(reject, m, head)) << reject;
    const std::vector<std::string>& lines = in_lines[m[1] == "in1.fen" ? 0 : 1];
    std::size_t line = std::stoull(m[2]);
    ASSERT_GE(line, 1u);
    ASSERT_LE(line, lines.size());
    std::string text = lines[line - 1];
    if (!text.empty() && text.back() == '\r') text.pop_back();
    std::size_t at = reject.find(",\"input\":");
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(json_string_at(reject, at + 9), text) << reject;
    ++checked;
  }
  EXPECT_EQ(checked, json_number(norm.summary, "invalid"));
}

// --key full: the key is the whole normalized FEN; --count: the occurrences add up to the valid records.
TEST(PipelineProperty, FullKeyAndCounts) {
  const Input input = make_input(7);
  TempDir dir;
  write_file(dir / "in1.fen", input.files[0]);
  write_file(dir / "in2.fen", input.files[1]);
  RunOutput norm = run_pipeline(dir, "normalize", {});
  std::set<std::string> seen;
  std::string firsts;
  for (const std::string& line : split_lines(norm.out))
    if (seen.insert(line).second) firsts += line + "\n";
  for (const char* threads : {"1", "8"}) {
    RunOutput full = run_pipeline(dir, "dedup", {"--key", "full", "--threads", threads, "--chunk-size", "3"});
    EXPECT_TRUE(full.out == firsts) << "--key full, threads " << threads;
  }

  RunOutput counted = run_pipeline(dir, "dedup", {"--count", "--chunk-size", "17", "--threads", "2"});
  RunOutput plain = run_pipeline(dir, "dedup", {});
  std::string stripped;
  std::uint64_t total = 0;
  for (const std::string& line : split_lines(counted.out)) {
    std::size_t tab = line.rfind('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    stripped += line.substr(0, tab) + "\n";
    std::uint64_t n = std::stoull(line.substr(tab + 1));
    EXPECT_GE(n, 1u);
    total += n;
  }
  EXPECT_TRUE(stripped == plain.out) << "--count lists the same positions in the same order";
  EXPECT_EQ(total, json_number(plain.summary, "valid"));
}

}  // namespace
}  // namespace fenmill::cli_test
