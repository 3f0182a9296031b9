// scan_epd_operations with its one-pass fast path for operations in the writer's form (fen/epd_operations.cpp,
// plainly_as_written) against the scanner as it was without it (epd_operations_reference.h): the same clocks, errors
// and columns, the same written operations, on every line of the shared EPD collections and of tests/data, on each
// line's operations (every suffix after a blank or ';' for the smaller files), on random operations strings and
// one-byte mutations of them (quotes, ';', escapes, missing operands, blanks, tabs, CR, LF, NUL, non-ASCII), with
// lengths across the fast path's 16- and 64-byte steps, and at the end of a readable page (it loads 16 bytes a step:
// what lies past the text's end must change nothing, and past the page it must not be read).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "epd_operations_reference.h"
#include "fen/epd_operations.h"
#include "guarded_page.h"
#include "visible_bytes.h"

using namespace std::string_literals;

namespace fenmill {
namespace {

std::string describe_clocks(ErrorCode e, const EpdClocks& c, std::uint32_t column) {
  return "code " + std::to_string(static_cast<int>(e)) + " column " + std::to_string(column) + " half " +
         std::to_string(c.has_halfmove) + "/" + std::to_string(c.halfmove) + " full " + std::to_string(c.has_fullmove) +
         "/" + std::to_string(c.fullmove) + " repaired " + std::to_string(c.repaired) + " as_written " +
         std::to_string(c.as_written);
}

// Everything scan_epd_operations, append_epd_operations_but_clocks and has_epd_operations_but_clocks say of `ops`:
// `Scan` is either the library's or the reference's.
template <typename Scan, typename Append, typename Has>
std::string verdict(std::string_view ops, Scan scan, Append append, Has has) {
  std::string out;
  for (bool repair : {false, true}) {
    EpdClocks clocks;
    clocks.halfmove = 7, clocks.fullmove = 9;  // what the scan leaves as it was shows too
    std::uint32_t column = 12345;
    const ErrorCode e = scan(ops, clocks, column, repair);
    out += describe_clocks(e, clocks, column) + "\n";
  }
  std::string written = "<";
  append(written, ops);
  return out + written + "> has " + std::to_string(has(ops)) + "\n";
}

std::string new_verdict(std::string_view ops) {
  return verdict(
      ops, [](std::string_view o, EpdClocks& c, std::uint32_t& col, bool r) { return scan_epd_operations(o, c, col, r); },
      [](std::string& out, std::string_view o) { append_epd_operations_but_clocks(out, o); },
      [](std::string_view o) { return has_epd_operations_but_clocks(o); });
}

std::string reference_verdict(std::string_view ops) {
  return verdict(
      ops,
      [](std::string_view o, EpdClocks& c, std::uint32_t& col, bool r) { return reference::scan_epd_operations(o, c, col, r); },
      [](std::string& out, std::string_view o) { reference::append_epd_operations_but_clocks(out, o); },
      [](std::string_view o) { return reference::has_epd_operations_but_clocks(o); });
}

// Checks one text, copied to the heap on its own (so that ASan sees a read past its end); false on a difference.
bool agrees(const std::string& text) {
  const std::string copy = text;  // an allocation of its exact size
  const std::string expected = reference_verdict(copy);
  const std::string actual = new_verdict(copy);
  EXPECT_EQ(actual, expected) << "operations \"" << visible_bytes(text) << "\"";
  return actual == expected;
}

// The operations of an EPD line: what follows its fourth field (and its blanks).
std::string_view after_four_fields(std::string_view line) {
  std::size_t i = 0;
  for (int field = 0; field < 4; ++field) {
    while (i < line.size() && is_blank(line[i])) ++i;
    while (i < line.size() && !is_blank(line[i]) && line[i] != ';') ++i;
  }
  while (i < line.size() && is_blank(line[i])) ++i;
  return line.substr(i);
}

std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Every line of every file under `dir` with one of the extensions: whole, its operations, and for files under 1 MB
// every suffix after a blank or ';'. Returns the number of lines read.
std::size_t check_files(const std::filesystem::path& dir, std::vector<std::string> extensions) {
  std::size_t lines_read = 0;
  if (!std::filesystem::is_directory(dir)) return 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = entry.path().extension().string();
    if (std::find(extensions.begin(), extensions.end(), ext) == extensions.end()) continue;
    const bool small = entry.file_size() < (1u << 20);
    for (const std::string& line : read_lines(entry.path())) {
      ++lines_read;
      if (!agrees(line) || !agrees(std::string(after_four_fields(line)))) return lines_read;
      if (!small) continue;
      for (std::size_t i = 0; i < line.size(); ++i)
        if ((is_trailing_junk(line[i]) || line[i] == ';') && !agrees(line.substr(i + 1))) return lines_read;
    }
  }
  return lines_read;
}

TEST(EpdOperationsDiff, SharedEpdCollections) {
  const std::filesystem::path dir = std::filesystem::path(FENMILL_SHARED_DATA) / "epd";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is not there";
  EXPECT_GT(check_files(dir, {".epd"}), 150000u);
}

TEST(EpdOperationsDiff, TestDataLines) {
  EXPECT_GT(check_files(std::filesystem::path(FENMILL_SOURCE_DIR) / "tests/data", {".fen", ".epd", ".jsonl", ".md"}), 50u);
}

class Generator {
 public:
  explicit Generator(unsigned seed) : rng_(seed) {}
  std::size_t below(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }
  template <class T>
  const T& pick(const std::vector<T>& items) { return items[below(items.size())]; }

  std::string blanks() {
    static const std::vector<std::string> runs = {"", " ", " ", " ", "  ", "\t", " \t ", "\r", "\0"s, "\n", " \r"};
    return pick(runs);
  }
  // A quoted string of any length up to past two 64-byte steps, with escapes now and then.
  std::string quoted() {
    std::string s = "\"";
    const std::size_t n = chance(60) ? below(16) : below(150);
    for (std::size_t k = 0; k < n; ++k) {
      if (chance(4)) s += pick(std::vector<std::string>{"\\\"", "\\\\", ";", "\\", "\xC3\xA9", "\t", " "});
      else s += static_cast<char>('a' + below(26));
    }
    if (!chance(5)) s += '"';
    return s;
  }
  std::string operand() {
    switch (below(7)) {
      case 0: return "";
      case 1: return std::to_string(below(3) == 0 ? below(2000000) : below(100));
      case 2: return quoted();
      case 3: return "Nf3";
      case 4: return "Qxf6+ Rb8 c2";
      case 5: return std::to_string(below(100)) + " " + std::to_string(below(100));
      default: return pick(std::vector<std::string>{"99999999999", "0", "-1", "\"5\"", "5x", "\xE2\x99\x94"});
    }
  }
  std::string operation() {
    static const std::vector<std::string> opcodes = {"id", "c0", "bm", "am", "acd", "hmvc", "fmvn", "hmvc", "fmvn",
                                                     "D1", "pv", "ce", "", "5", "\xC3\xA9t", "Hmvc", "hmvcx", "c9"};
    std::string s = pick(opcodes);
    if (chance(85)) s += chance(90) ? " " : blanks();
    s += operand();
    if (chance(85)) s += ';';
    return s;
  }
  std::string operations() {
    std::string s = chance(85) ? "" : blanks();
    const std::size_t n = below(5);
    for (std::size_t k = 0; k < n; ++k) s += operation() + (chance(80) ? " " : blanks());
    if (chance(15)) s += pick(std::vector<std::string>{"\r", "\r\r", "\0"s, " \t", ";", ";;"});
    return s;
  }
  std::string mutated(std::string s) {
    static const std::vector<char> bytes = {'"', ';', '\\', ' ', '\t', '\r', '\n', '\0', '\xC3', '\xA9', 'a', '5', 'h'};
    switch (below(3)) {
      case 0:
        if (!s.empty()) s[below(s.size())] = pick(bytes);
        break;
      case 1:
        s.insert(below(s.size() + 1), 1, pick(bytes));
        break;
      default:
        if (!s.empty()) s.erase(below(s.size()), 1);
    }
    return s;
  }

 private:
  std::mt19937_64 rng_;
};

TEST(EpdOperationsDiff, RandomAndMutated) {
  Generator g(18);
  for (int k = 0; k < 40000; ++k) {
    const std::string ops = g.operations();
    if (!agrees(ops)) return;
    for (int m = 0; m < 3; ++m)
      if (!agrees(g.mutated(ops))) return;
  }
}

TEST(EpdOperationsDiff, EveryLengthAroundTheSteps) {
  // Quoted strings, runs of blanks and CRs ending on each side of the 16- and 64-byte steps.
  for (std::size_t n = 0; n < 140; ++n) {
    const std::string filler(n, 'x'), blanks(n, ' ');
    for (const std::string& ops :
         {"c0 \"" + filler + "\";", "c0 \"" + filler + "\\\"\";", "c0 \"" + filler, "id " + filler + ";" + blanks + "hmvc 3;",
          "id x;" + blanks + "\r", "id x;" + blanks + "\rid y;", "c0 \"" + filler + "\\", "c0 \"" + filler + "\\\r",
          "c0 \"" + filler + "\r\"; fmvn 0;", blanks + "fmvn 12;" + blanks, "c0 \"" + filler + "\\\\\"; hmvc 65536;"})
      if (!agrees(ops)) return;
  }
}

TEST(EpdOperationsDiff, OperationsEndingAroundTheWordBoundary) {
  // The fast path reads 64 bytes a word: a ';', its space and the next opcode on either side of a word's end, a
  // quoted string across it, and near misses of the writer's form (two blanks, ';;', an opcode with 'h' or 'f', a ';'
  // inside quotes, a quote in the opcode, a tab).
  for (std::size_t n = 40; n < 140; ++n) {
    const std::string a(n, 'a');
    for (const std::string& ops :
         {"c0 " + a + "; id x;", "c0 " + a + ";  id x;", "c0 " + a + ";; id x;", "c0 " + a + "; fen x;",
          "c0 " + a + "; hash 5;", "c0 \"" + a + ";\"; id x;", "c0 \"" + a + "\" ; id \"y\"", "c0 \"" + a + "; id x;",
          "c0 " + a + ";\tid x;", "c0" + a + "\"q;\"; bm e4;", "c0 " + a + "; 5 x;", "c0 " + a + "; id x; \r\n",
          "c0 " + a + "; id x \r", "c0 " + a + ";", "c0 " + a, "c0 " + a + "; hmvc 4;", "id \"" + a + "\"; fmvn 7;"})
      if (!agrees(ops)) return;
  }
}

TEST(EpdOperationsDiff, AtThePageEnd) {
  Generator g(74);
  std::vector<std::string> texts = {"", ";", "\"", "id \"a\";", "hmvc 5", "c0 \"abc", "c0 \"a\\", "fmvn 1;\r",
                                    "bm e4; id \"x;y\"; hmvc 3; fmvn 40;"};
  for (int k = 0; k < 300; ++k) texts.push_back(g.mutated(g.operations()));
  check_at_page_end(texts, {'"', ';', '\\', ' ', 'a', '\r'}, 20, [](std::string_view ops) {
    ASSERT_EQ(new_verdict(ops), reference_verdict(std::string(ops))) << "operations \"" << visible_bytes(ops) << "\"";
  });
}

}  // namespace
}  // namespace fenmill
