// The PGN lexer (pgn/lexer.cpp) against the one before its comment scan took 16 bytes a step (pgn_lexer_reference.h):
// the same tokens (kind, text as offset and length, line), lexer offsets and lines, tag names peeked and tag pairs
// read (or refused) on the shared PGN files, the first 20,000 lines of the benchmark's lichess PGN, hand-written
// texts (comments of every length around 16 and 32 bytes, with and without '}' and newlines, each token kind), random
// slices of those with one byte changed, and texts that end at an unreadable page's start.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "guarded_page.h"
#include "pgn/lexer.h"
#include "pgn_lexer_reference.h"

namespace fenmill {
namespace {

namespace fs = std::filesystem;

// Everything a reader sees of a lexer on `text`: each token, the tag pairs read at each kTagStart, and the lexer's
// offset and line after each step. Texts are offsets into `text`, so that the two lexers' outputs compare as strings.
template <typename L>
std::string trace(std::string_view text, std::uint64_t first_line) {
  L lexer(text, first_line);
  std::string out;
  const auto at = [&](std::string_view s) {
    return std::to_string(s.data() - text.data()) + "+" + std::to_string(s.size());
  };
  for (;;) {
    Token token = lexer.next();
    out += std::to_string(static_cast<int>(token.kind)) + " " + (token.kind == TokenKind::kEnd ? "" : at(token.text)) +
           " l" + std::to_string(token.line) + " @" + std::to_string(lexer.offset()) + " l" + std::to_string(lexer.line()) +
           "\n";
    if (token.kind == TokenKind::kEnd) return out;
    if (token.kind == TokenKind::kTagStart) {
      out += "peek " + at(lexer.peek_tag_name()) + "\n";
      TagPair tag;
      const bool ok = lexer.read_tag(tag);
      out += ok ? "tag " + at(tag.name) + " " + at(tag.value) : std::string("bad tag");
      out += " @" + std::to_string(lexer.offset()) + "\n";
    }
  }
}

void expect_same(std::string_view text, std::uint64_t first_line, const std::string& what) {
  const std::string got = trace<Lexer>(text, first_line);
  const std::string want = trace<reference::Lexer>(text, first_line);
  if (got == want) return;
  std::size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  const std::size_t from = got.rfind('\n', i) == std::string::npos ? 0 : got.rfind('\n', i) + 1;
  ADD_FAILURE() << what << ": first difference at trace byte " << i << "\n got: " << got.substr(from, 200)
                << "\nwant: " << want.substr(from, 200);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> shared_pgn_files() {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(FENMILL_SHARED_DATA) / "pgn";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".pgn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The first 20,000 lines of the benchmark's lichess games (a comment with [%clk] and often [%eval] after every move),
// or "" without the shared file or zstd.
std::string bench_pgn_head() {
  const fs::path zst = fs::path(FENMILL_SHARED_DATA) / "bench" / "lichess-46k.pgn.zst";
  std::error_code ec;
  if (!fs::exists(zst, ec)) return "";
  const std::string command = "zstd -dc '" + zst.string() + "' 2>/dev/null | head -n 20000";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return "";
  std::string out;
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

// Short texts that reach each branch: comments of every length across one and two 16-byte steps, with newlines
// before and after the '}', several '}', none; each token kind; tags.
std::vector<std::string> hand_texts() {
  std::vector<std::string> texts = {
      "1. e4 { [%clk 0:03:00] } 1... e5 { [%eval 0.17] [%clk 0:02:59] } 2. Nf3 1-0\n",
      "[Event \"a \\\"b\\\"\"]\n[Site \"The \"Big\" Open\"]\n[Bad\n\n1.d4 d5 2.c4 $1 (2. Nf3 ; line comment\n) *",
      "% escape\n1. e4 e5?! 2. Qh5 !? 1/2-1/2 0-1 1/2 0000 0-0-0+ -- @@@@ e.p. ... \xC2\xB1 \xFF & 12 12...",
      "{", "{}", "{\n}", "}", "{{}}", "\xEF\xBB\xBF[Event \"x\"]", "1. e4 {unterminated\n\n",
  };
  for (int n = 0; n <= 40; ++n) {
    const std::string body(static_cast<std::size_t>(n), 'x');
    texts.push_back("{" + body + "}");
    texts.push_back("{" + body);
    texts.push_back("a {" + body + "} b");
    std::string lines = body;
    for (std::size_t i = 0; i < lines.size(); i += 3) lines[i] = '\n';
    texts.push_back("{" + lines + "}\n\n}");
    texts.push_back("{" + lines);
    texts.push_back("{" + lines + "}" + lines + "}");
  }
  return texts;
}

TEST(PgnLexerDiff, HandWrittenTexts) {
  for (const std::string& text : hand_texts()) expect_same(text, 1, "\"" + text + "\"");
}

TEST(PgnLexerDiff, SharedPgnFiles) {
  const std::vector<fs::path> files = shared_pgn_files();
  if (files.empty()) GTEST_SKIP() << "no " << FENMILL_SHARED_DATA << "/pgn";
  for (const fs::path& file : files) expect_same(read_file(file), 1, file.string());
}

TEST(PgnLexerDiff, BenchPgnHead) {
  const std::string text = bench_pgn_head();
  if (text.empty()) GTEST_SKIP() << "no " << FENMILL_SHARED_DATA << "/bench/lichess-46k.pgn.zst or zstd";
  expect_same(text, 1, "lichess-46k.pgn, first 20,000 lines");
  // Every start within a game's first lines: a chunk may begin anywhere.
  for (std::size_t start = 0; start < 3000; ++start) expect_same(std::string_view(text).substr(start, 2000), 7, "from " + std::to_string(start));
}

// Random slices of every text with one byte replaced, mostly by a byte the lexer treats specially.
TEST(PgnLexerDiff, OneByteMutations) {
  std::vector<std::string> texts = hand_texts();
  for (const fs::path& file : shared_pgn_files()) texts.push_back(read_file(file));
  texts.push_back(bench_pgn_head());
  std::mt19937_64 random(18);
  constexpr std::string_view kSpecial = "{}\n\r [\"]\\;%()$.!?-@0123456789/*eNx+#=\xEF\xC2\x80";
  int checked = 0;
  for (const std::string& text : texts) {
    if (text.empty()) continue;
    const int rounds = text.size() < 100 ? 20 : 300;
    for (int round = 0; round < rounds; ++round) {
      const std::size_t from = text.size() < 4096 ? 0 : random() % (text.size() - 4096);
      std::string slice = text.substr(from, 1 + random() % 4096);
      const std::size_t at = random() % slice.size();
      slice[at] = random() % 4 == 0 ? static_cast<char>(random()) : kSpecial[random() % kSpecial.size()];
      expect_same(slice, 1 + random() % 1000, "slice from " + std::to_string(from) + ", byte " + std::to_string(at));
      if (::testing::Test::HasFailure()) return;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

// The 16-byte steps load past a text's end only within its page: a text that ends where an unreadable page starts
// lexes as it does anywhere else (and does not fault).
TEST(PgnLexerDiff, TextsEndingAtAnUnreadablePage) {
  std::vector<std::string> texts = hand_texts();
  for (std::string& text : texts)
    if (text.size() > 200) text.resize(200);
  check_at_page_end(texts, {'}', '\n', ' ', 'x'}, 20, [](std::string_view text) {
    expect_same(text, 3, "at the page end");
    ASSERT_FALSE(::testing::Test::HasFailure());
  });
}

}  // namespace
}  // namespace fenmill
