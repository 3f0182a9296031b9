// The CSV row scanners (formats/csv.cpp: the serial reader's scan_csv_rows, the workers' for_each_csv_row) and field
// locator (find_csv_field, csv_rest_well_formed) against the ones before they skipped ahead through quote-free text
// and quoted text (csv_reference.h): the same rows, line numbers, cuts, scan states and fields, fed whole or a piece
// at a time as the chunk feed does, on the shared CSV and TSV files, on random
// rows (quoted fields with "", line breaks and CRLFs inside, stray quotes in unquoted fields, CRLF and TSV rows,
// blank lines, rows past a small row limit, a quote left open at the end) and on one-byte mutations of them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "csv_reference.h"
#include "formats/csv.h"
#include "visible_bytes.h"

namespace fenmill {
namespace {

template <typename ForEachRow>
std::string rows_of(std::string_view bytes, char separator, std::size_t max_row, ForEachRow for_each_row) {
  std::string out;
  const std::uint64_t lines = for_each_row(bytes, separator, [&](std::string_view row, std::uint64_t line) {
    out += std::to_string(line) + " " + std::to_string(row.data() - bytes.data()) + "+" + std::to_string(row.size()) + "\n";
  }, max_row);
  return out + "lines " + std::to_string(lines);
}

std::string describe(const CsvRowScan& s) {
  return "start " + std::to_string(s.start) + " pos " + std::to_string(s.pos) + " state " +
         std::to_string(static_cast<int>(s.state)) + " breaks " + std::to_string(s.breaks) + " row_breaks " +
         std::to_string(s.row_breaks) + " last_cut " + std::to_string(s.last_cut);
}

// The serial reader's way: a chunk's bytes arrive in pieces ending at `cuts`, appended to a carry that is scanned on
// and cut after its last complete row. What is cut, and the scan after each piece.
template <typename ScanRows>
std::string cuts_of(std::string_view bytes, const std::vector<std::size_t>& pieces, char separator, std::size_t max_row,
                    ScanRows scan_rows) {
  std::string out, carry;
  CsvRowScan scan;
  std::size_t from = 0;
  for (std::size_t piece_end : pieces) {
    carry.append(bytes.substr(from, piece_end - from));
    from = piece_end;
    scan_rows(std::string_view(carry), scan, separator, max_row);
    out += describe(scan) + "\n";
    if (scan.last_cut == 0) continue;
    out += "cut " + visible_bytes(carry.substr(0, scan.last_cut)) + "\n";
    carry.erase(0, scan.last_cut);
    scan.dropped(scan.last_cut);
  }
  return out;
}

// What find_csv_field and csv_rest_well_formed (the workers' field locator) say of each field of each row.
template <typename Find, typename Rest>
std::string fields_of(std::string_view bytes, char separator, Find find, Rest rest) {
  std::string out;
  reference::for_each_csv_row(bytes, separator, [&](std::string_view row, std::uint64_t) {
    for (std::size_t index = 0; index < 8; ++index) {
      CsvField field;
      if (!find(row, index, separator, field)) {
        out += "-";
        continue;
      }
      out += std::to_string(field.begin) + "-" + std::to_string(field.end) + (field.quoted ? "q" : "") +
             (rest(row, field.end, separator) ? "w " : "m ");
    }
    out += "\n";
  });
  return out;
}

// Checks one text every way; false on a difference.
bool agrees(const std::string& text, char separator, std::size_t max_row, std::mt19937_64& rng) {
  const std::string copy = text;  // on the heap at its own size
  const auto new_rows = [](std::string_view b, char sep, auto&& on_row, std::size_t max) {
    return for_each_csv_row(b, sep, on_row, max);
  };
  const auto old_rows = [](std::string_view b, char sep, auto&& on_row, std::size_t max) {
    return reference::for_each_csv_row(b, sep, on_row, max);
  };
  const std::string expected_rows = rows_of(copy, separator, max_row, old_rows);
  EXPECT_EQ(rows_of(copy, separator, max_row, new_rows), expected_rows) << visible_bytes(text);
  EXPECT_EQ(fields_of(copy, separator, find_csv_field, csv_rest_well_formed),
            fields_of(copy, separator, reference::find_csv_field, reference::csv_rest_well_formed))
      << visible_bytes(text);
  std::vector<std::size_t> pieces;
  for (std::size_t at = 0; at < text.size();) {
    at = std::min(text.size(), at + 1 + std::uniform_int_distribution<std::size_t>(0, 60)(rng));
    pieces.push_back(at);
  }
  for (const std::vector<std::size_t>& p : {std::vector<std::size_t>{text.size()}, pieces}) {
    const std::string expected = cuts_of(copy, p, separator, max_row, [](std::string_view b, CsvRowScan& s, char sep, std::size_t m) {
      reference::scan_csv_rows(b, s, sep, m);
    });
    const std::string actual = cuts_of(copy, p, separator, max_row, [](std::string_view b, CsvRowScan& s, char sep, std::size_t m) {
      scan_csv_rows(b, s, sep, m);
    });
    EXPECT_EQ(actual, expected) << visible_bytes(text);
    if (actual != expected) return false;
  }
  return !::testing::Test::HasFailure();
}

class Generator {
 public:
  explicit Generator(unsigned seed) : rng(seed) {}
  std::size_t below(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); }
  bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }

  std::string field(char separator) {
    std::string s;
    switch (below(6)) {
      case 0: return "";
      case 1: return "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
      case 2: {  // quoted: "" escapes, separators, line breaks inside
        s = "\"";
        for (std::size_t k = below(40); k > 0; --k) {
          const std::size_t r = below(20);
          s += r == 0 ? "\"\"" : r == 1 ? std::string(1, separator) : r == 2 ? "\n" : r == 3 ? "\r\n" : std::string(1, 'a' + below(26));
        }
        if (!chance(5)) s += '"';
        if (chance(5)) s += "x";  // text after the closing quote
        return s;
      }
      case 3: return "5\" board";  // a quote inside an unquoted field
      default:
        for (std::size_t k = below(30); k > 0; --k) s += static_cast<char>('a' + below(26));
        return s;
    }
  }
  std::string text(char separator, bool quotes) {
    std::string s;
    for (std::size_t rows = below(12); rows > 0; --rows) {
      if (chance(5)) s += chance(50) ? "\n" : "\r\n";  // a blank line
      for (std::size_t fields = 1 + below(6); fields > 0; --fields) {
        std::string f = field(separator);
        if (!quotes && f.find('"') != std::string::npos) f = "plain";
        s += f;
        if (fields > 1) s += separator;
      }
      s += chance(20) ? "\r\n" : "\n";
    }
    if (chance(20) && !s.empty()) s.pop_back();  // no line end at the end
    return s;
  }
  std::string mutated(std::string s, char separator) {
    const char bytes[] = {'"', '\n', '\r', separator, 'a', ','};
    const char b = bytes[below(sizeof bytes)];
    switch (below(3)) {
      case 0:
        if (!s.empty()) s[below(s.size())] = b;
        break;
      case 1:
        s.insert(below(s.size() + 1), 1, b);
        break;
      default:
        if (!s.empty()) s.erase(below(s.size()), 1);
    }
    return s;
  }

  std::mt19937_64 rng;
};

TEST(CsvScanDiff, RandomRowsAndMutations) {
  Generator g(18);
  for (int k = 0; k < 6000; ++k) {
    const char separator = k % 3 == 0 ? ',' : k % 3 == 1 ? '\t' : ';';
    const std::size_t max_row = k % 4 == 0 ? 30 : k % 4 == 1 ? 10 : kMaxCsvRowBytes;
    const std::string text = g.text(separator, k % 5 != 0);
    if (!agrees(text, separator, max_row, g.rng)) return;
    for (int m = 0; m < 4; ++m)
      if (!agrees(g.mutated(text, separator), separator, max_row, g.rng)) return;
  }
}

TEST(CsvScanDiff, LongQuoteFreeRunsAroundAQuote) {
  // Many quote-free rows, then a quoted field (with line breaks) or a stray quote, then more rows.
  std::mt19937_64 rng(74);
  for (std::size_t before = 0; before < 40; before += 3)
    for (const std::string quoted : {"\"a\nb\"", "\"x\"\"y\"", "5\" board", "\"open", "\"\r\n\""}) {
      std::string text;
      for (std::size_t k = 0; k < before; ++k) text += "1,fen" + std::to_string(k) + ",x\n";
      text += "2," + quoted + ",y\r\n";
      for (std::size_t k = 0; k < 5; ++k) text += "3,fen,z\n";
      for (std::size_t max_row : {std::size_t{12}, kMaxCsvRowBytes})
        if (!agrees(text, ',', max_row, rng) || !agrees(text.substr(0, text.size() - 1), ',', max_row, rng)) return;
    }
}

TEST(CsvScanDiff, SharedCsvFiles) {
  const std::filesystem::path dir = std::filesystem::path(FENMILL_SHARED_DATA) / "csv";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is not there";
  std::mt19937_64 rng(5);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = entry.path().extension().string();
    if (ext != ".csv" && ext != ".tsv") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    ++files;
    if (!agrees(buffer.str(), ext == ".tsv" ? '\t' : ',', kMaxCsvRowBytes, rng)) return;
  }
  EXPECT_GT(files, 0u);
}

}  // namespace
}  // namespace fenmill
