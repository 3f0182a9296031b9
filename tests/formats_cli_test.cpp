// CLI tests for the record formats around a FEN: CSV, JSON Lines, PGN, and Xiangqi through the pipeline.
// Every expected string was checked by hand.
#include <gtest/gtest.h>

#include <string>

#include "cli_util.h"
#include "summary_json.h"
#include "fen/placement_fast.h"
#include "formats/csv.h"

namespace fenmill::cli_test {
namespace {

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr const char* kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(FormatsCli, CsvFenColumnReplacedQuotesKeptRejectsNamed) {
  TempDir dir;
  write_file(dir / "p.csv",
             "PuzzleId,FEN,Moves\n"
             "a1,rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1,e7e5\n"
             "\"b,2\",\"" + std::string(kStart) + "\",\"e2e4 \"\"x\"\"\"\r\n"
             "c3,8/8/8/8/8/8/8/8 w - - 0 1,\n"
             "d4\n");
  CliResult r = run_cli({"normalize", "-q", "--to", "csv", dir / "p.csv", "--rejects", dir / "rej.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "PuzzleId,FEN,Moves\n"
                   "a1," + std::string(kAfterE4) + ",e7e5\n"
                   "\"b,2\"," + std::string(kStart) + ",\"e2e4 \"\"x\"\"\"\n");
  std::string rejects = read_file(dir / "rej.jsonl");
  EXPECT_NE(rejects.find("\"line\":4,\"column\":4,\"code\":\"MISSING_KING\""), std::string::npos) << rejects;
  EXPECT_NE(rejects.find("\"line\":5,\"column\":1,\"code\":\"CSV_FIELD\""), std::string::npos) << rejects;
}

// RFC 4180: a quoted field may hold line breaks. Such a row is one record wherever the chunks are cut, its
// other fields are written back whole, and a message points at the FEN's own line and column; a quote still
// open at the end of the input is a CSV_FIELD reject, not a row that would leave the output unreadable.
TEST(FormatsCli, CsvQuotedLineBreaksStayInTheirRow) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  write_file(dir / "m.csv", "id,fen,note\n"
                            "1," + k + ",\"multi\nline, 4k3/8/8/8/8/8/8/4K3 b - - 0 1\"\n"
                            "2," + k + ",x\n"
                            "3,\"4k3/8/8/8/8/8/8/4K3 w - - 0 0\",\"a \"\"q\"\" \r\nb\"\n"
                            "\"4\n5\",4k3/8/8/8/8/8/8/4K3 w - - 0 0,y\n"
                            "6," + k + ",\"open\n");
  const std::string expected_out = "id,fen,note\n1," + k + ",\"multi\nline, 4k3/8/8/8/8/8/8/4K3 b - - 0 1\"\n2," + k + ",x\n";
  for (const char* chunk : {"1", "3", "10", "1000"}) {
    for (const char* threads : {"1", "2"}) {
      CliResult r = run_cli({"normalize", "-q", "--to", "csv", dir / "m.csv", "--chunk-size", chunk, "--threads", threads,
                             "--rejects", dir / "rej.jsonl", "--summary", dir / "s.json", "--force"});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, expected_out) << chunk;
      std::vector<std::string> rejects = split_lines(read_file(dir / "rej.jsonl"));
      ASSERT_EQ(rejects.size(), 3u) << chunk;
      EXPECT_NE(rejects[0].find("\"line\":5,\"column\":32,\"code\":\"BAD_FULLMOVE\""), std::string::npos) << rejects[0];
      EXPECT_NE(rejects[1].find("\"line\":8,\"column\":32,\"code\":\"BAD_FULLMOVE\""), std::string::npos) << rejects[1];
      EXPECT_NE(rejects[1].find("\"input\":\"\\\"4\\n5\\\",4k3"), std::string::npos) << rejects[1];
      EXPECT_NE(rejects[2].find("\"line\":9,\"column\":1,\"code\":\"CSV_FIELD\""), std::string::npos) << rejects[2];
      EXPECT_NE(read_file(dir / "s.json").find("\"records\": 5, \"valid\": 2, \"invalid\": 3"), std::string::npos);
    }
  }
}

// A row ends, at the latest, at the end of the line on which it passes kMaxCsvRowBytes (here a small limit): a
// stray quote costs one record of bounded size. The rule reads the row's own bytes only: a growing buffer scanned
// piece by piece (the chunk feed's carry) cuts where the whole buffer does, and rescanning the bytes up to a cut
// (a chunk, in a worker) finds the same rows.
// A field is quoted exactly when it holds a quote, a CR, an LF or the separator, and then its quotes are doubled.
TEST(CsvRows, AFieldIsQuotedExactlyWhenItHoldsAQuoteALineBreakOrTheSeparator) {
  auto field = [](std::string_view value, char separator) {
    std::string out = "<";
    append_csv_field(out, value, separator);
    return out;
  };
  EXPECT_EQ(field("4k3/8/8/8/8/8/8/4K3 w - - 0 1", ','), "<4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(field("", ','), "<");
  EXPECT_EQ(field("a,b", ','), "<\"a,b\"");
  EXPECT_EQ(field("a,b", '\t'), "<a,b");
  EXPECT_EQ(field("a\tb", '\t'), "<\"a\tb\"");
  EXPECT_EQ(field("a;b", ';'), "<\"a;b\"");
  EXPECT_EQ(field("say \"hi\"", ','), "<\"say \"\"hi\"\"\"");
  EXPECT_EQ(field("a\rb", ','), "<\"a\rb\"");
  EXPECT_EQ(field("a\nb", ','), "<\"a\nb\"");
  EXPECT_EQ(field("\"", ';'), "<\"\"\"\"");
  // Long values, read 16 bytes at a time then byte by byte: each special byte at every place is found.
  const std::string plain(41, 'x');
  EXPECT_EQ(field(plain, ','), "<" + plain);
  for (char special : {'"', '\r', '\n', ','})
    for (std::size_t at = 0; at < plain.size(); ++at) {
      std::string value = plain;
      value[at] = special;
      EXPECT_EQ(field(value, ',').substr(0, 2), "<\"") << at;
    }
}

// Rows longer than the 16 bytes the row scan reads at a time: a quoted line break at any place stays in its row.
TEST(CsvRows, AQuotedLineBreakAnywhereInALongRowStaysInTheRow) {
  for (std::size_t at = 0; at < 40; ++at) {
    const std::string row = std::string(at, 'x') + ",\"a\nb\"," + std::string(40 - at, 'y');
    const std::string text = row + "\n" + std::string(at + 20, 'z') + ",1\nlast,2\n";
    std::vector<std::string> rows;
    for_each_csv_row(text, ',', [&](std::string_view r, std::uint64_t) { rows.emplace_back(r); }, 1 << 20);
    ASSERT_EQ(rows.size(), 3u) << at;
    EXPECT_EQ(rows[0], row) << at;
    EXPECT_EQ(rows[2], "last,2") << at;
  }
}

// The fields of a row, with and without quotes (rows without take a shortcut: every separator ends a field).
TEST(CsvRows, FieldCountAndReplacementWithAndWithoutQuotes) {
  EXPECT_EQ(csv_field_count("", ','), 1u);
  EXPECT_EQ(csv_field_count("a,b,,c", ','), 4u);
  EXPECT_EQ(csv_field_count("a,b,,c,", ','), 5u);
  EXPECT_EQ(csv_field_count("a;b,c", ';'), 2u);
  EXPECT_EQ(csv_field_count("\"a,b\",c", ','), 2u);
  EXPECT_EQ(csv_field_count("\"a\"\"b,\",c,d", ','), 3u);
  auto replaced = [](std::string_view row, std::vector<int> columns) {
    std::string out;
    replace_csv_fields(out, row, columns, "N", ',');
    return out;
  };
  EXPECT_EQ(replaced("a,b,c", {1}), "a,N,c");
  EXPECT_EQ(replaced("a,b,c", {0, 2}), "N,b,N");
  EXPECT_EQ(replaced("a,,c", {1}), "a,N,c");
  EXPECT_EQ(replaced("a,b", {3}), "a,b,,N");                 // past the last field: empty fields up to it
  EXPECT_EQ(replaced("a,b,c,d,e", {1, 4}), "a,N,c,d,N");
  EXPECT_EQ(replaced("\"x,y\",b,c", {1}), "\"x,y\",N,c");   // a separator inside quotes ends nothing
  EXPECT_EQ(replaced("\"x,y\",b", {0, 2}), "N,b,N");
}

TEST(CsvRows, ARowEndsAtTheLineWherePassingTheLimit) {
  const std::string text = "a,\"open\nb,1\nc,2\n"      // a stray quote: its row ends with the line passing 10 bytes
                           "d,\"ok\nx\"\n"              // 10 bytes over two lines: a row
                           "e,\"long\nclosed\"\n"        // closed on the line that passes the limit: a row
                           "f,3\n";
  std::vector<std::pair<std::string, std::uint64_t>> rows;
  auto collect = [&](std::string_view bytes, std::size_t max_row) {
    rows.clear();
    return for_each_csv_row(bytes, ',', [&](std::string_view row, std::uint64_t line) { rows.emplace_back(row, line); },
                            max_row);
  };
  EXPECT_EQ(collect(text, 10), 8u);
  const std::vector<std::pair<std::string, std::uint64_t>> expected = {
      {"a,\"open\nb,1", 1}, {"c,2", 3}, {"d,\"ok\nx\"", 4}, {"e,\"long\nclosed\"", 6}, {"f,3", 8}};
  EXPECT_EQ(rows, expected);
  // Under the default limit the stray quote runs on to the next quote, as RFC 4180 reads it.
  collect(text, kMaxCsvRowBytes);
  const std::vector<std::pair<std::string, std::uint64_t>> unlimited = {
      {"a,\"open\nb,1\nc,2\nd,\"ok", 1}, {"x\"", 5}, {"e,\"long\nclosed\"", 6}, {"f,3", 8}};
  EXPECT_EQ(rows, unlimited);
  // Arriving in pieces of any size, the rows end at the same places.
  for (std::size_t piece = 1; piece <= text.size(); ++piece) {
    CsvRowScan scan;
    for (std::size_t end = piece;; end += piece) {
      end = std::min(end, text.size());
      scan_csv_rows(std::string_view(text).substr(0, end), scan, ',', 10);
      if (end == text.size()) break;
    }
    EXPECT_EQ(scan.last_cut, text.size()) << piece;
  }
  // Every line leaving a quote open (a broken exporter): rows of bounded size, the same from any cut on.
  std::string broken;
  for (int i = 0; i < 40; ++i) broken += std::to_string(i) + ",\"x\",\"c\n";
  collect(broken, 30);
  const auto all_rows = rows;
  EXPECT_GT(all_rows.size(), 5u);
  CsvRowScan scan;
  scan_csv_rows(broken.substr(0, 200), scan, ',', 30);
  collect(std::string_view(broken).substr(0, scan.last_cut), 30);
  EXPECT_EQ(rows, std::vector(all_rows.begin(), all_rows.begin() + static_cast<std::ptrdiff_t>(rows.size())));
}

// One stray quote in a large CSV is one rejected record of at most about kMaxCsvRowBytes, not the rest of the file
// as one record held in memory (helper-29): the rows after it are read, the same at every chunk size. Every row
// leaving a quote open gives the same records at every chunk size too (helper-30: they once varied with it).
TEST(FormatsCli, CsvStrayQuoteCostsOneBoundedRecordAtEveryChunkSize) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  std::string text = "id,fen,note\n";
  const std::size_t row_start = text.size();
  text += "0," + k + ",\"stray\n";
  const std::size_t rows = kMaxCsvRowBytes / 30 + 1000;  // the rows after it pass the limit
  for (std::size_t i = 1; i <= rows; ++i) text += std::to_string(i) + "," + k + ",ok\n";
  // The rejected record: the lines up to the one on which it passes the limit.
  std::size_t swallowed = 0;
  for (std::size_t at = row_start; at - row_start <= kMaxCsvRowBytes; at = text.find('\n', at) + 1) ++swallowed;
  write_file(dir / "q.csv", text);
  std::string broken = "id,FEN,note\n";
  for (int i = 0; i < 17000; ++i) broken += std::to_string(i) + ",\"" + k + "\",\"c\n";  // 1.2 MB
  write_file(dir / "broken.csv", broken);
  std::string first_out, first_broken;
  for (const char* chunk : {"100", "4096", "65536", "1048576", "4194304"}) {
    CliResult r = run_cli({"normalize", "-q", "--to", "csv", dir / "q.csv", "--chunk-size", chunk, "--threads", "2",
                           "--rejects", dir / "rej.jsonl", "--summary", dir / "s.json", "--force"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (first_out.empty()) first_out = r.out;
    EXPECT_TRUE(r.out == first_out) << chunk;
    const std::vector<std::string> rejects = split_lines(read_file(dir / "rej.jsonl"));
    ASSERT_EQ(rejects.size(), 1u) << chunk;
    EXPECT_NE(rejects[0].find("\"line\":2,\"column\":1,\"code\":\"CSV_FIELD\""), std::string::npos) << rejects[0].substr(0, 200);
    const std::size_t records = rows + 1 - swallowed + 1;
    EXPECT_NE(read_file(dir / "s.json").find("\"records\": " + std::to_string(records) + ", \"valid\": " +
                                             std::to_string(records - 1) + ", \"invalid\": 1"),
              std::string::npos) << read_file(dir / "s.json");
    r = run_cli({"normalize", "-q", dir / "broken.csv", "--chunk-size", chunk, "--threads", "2", "--summary", dir / "b.json",
                 "--force"});
    if (first_broken.empty()) first_broken = without_seconds(read_file(dir / "b.json"));
    EXPECT_EQ(without_seconds(read_file(dir / "b.json")), first_broken) << chunk;
  }
  EXPECT_EQ(split_lines(first_out).size(), 1 + rows + 1 - swallowed);  // the header and every row after the record
}

// A quote inside an unquoted field (`5" board`) is an ordinary character, as in Python's csv and most
// spreadsheets: it must not open a quoted field that swallows the following rows, at any chunk size.
TEST(FormatsCli, CsvQuoteInsideAnUnquotedFieldIsText) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  write_file(dir / "q.csv", "id,fen,note\n"
                            "1," + k + ",5\" board\n"
                            "2," + k + ",x\n"
                            "3,4k3/8/8/8/8/8/8/4K3 w - - 0 0,y\n"
                            "4\"," + k + ",\"a\"\"\"\n"
                            "5," + k + ",z\n");
  const std::string expected_out = "id,fen,note\n1," + k + ",5\" board\n2," + k + ",x\n4\"," + k + ",\"a\"\"\"\n5," + k + ",z\n";
  for (const char* chunk : {"1", "7", "1000"}) {
    for (const char* threads : {"1", "2"}) {
      CliResult r = run_cli({"normalize", "-q", "--to", "csv", dir / "q.csv", "--chunk-size", chunk, "--threads", threads,
                             "--rejects", dir / "rej.jsonl", "--force"});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, expected_out) << chunk;
      std::vector<std::string> rejects = split_lines(read_file(dir / "rej.jsonl"));
      ASSERT_EQ(rejects.size(), 1u) << chunk;
      EXPECT_NE(rejects[0].find("\"line\":4,\"column\":31,\"code\":\"BAD_FULLMOVE\""), std::string::npos) << rejects[0];
    }
  }
}

// A row must be well formed after its FEN field too. A stray quote opening a field after the FEN (a `note` column)
// ran on to the next quote, which a later row's quoted field held ("3...,\"y\""): the lines between were one
// record, accepted (its FEN field was fine) while the rows on lines 3 and 4 went unseen, neither written nor
// rejected, and --to csv wrote the broken row back. It is now a CSV_FIELD reject, as it was when the broken field
// came before the FEN.
TEST(FormatsCli, CsvRowBrokenAfterTheFenFieldIsRejected) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  write_file(dir / "s.csv", "id,fen,note\n"
                            "1," + k + ",\"stray\n"
                            "2," + k + ",x\n"
                            "3," + k + ",\"y\"\n"
                            "\"4\"x," + k + ",z\n"
                            "5," + k + ",\"q \"\"w\"\"\"\r\n"
                            "6," + k + ",\"a\"b,c\n");
  const std::string expected_out = "id,fen,note\n5," + k + ",\"q \"\"w\"\"\"\n";
  for (const char* chunk : {"1", "7", "1000"}) {
    for (const char* threads : {"1", "2"}) {
      CliResult r = run_cli({"normalize", "-q", "--to", "csv", dir / "s.csv", "--chunk-size", chunk, "--threads", threads,
                             "--rejects", dir / "rej.jsonl", "--summary", dir / "sum.json", "--force"});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, expected_out) << chunk;
      std::vector<std::string> rejects = split_lines(read_file(dir / "rej.jsonl"));
      ASSERT_EQ(rejects.size(), 3u) << chunk;
      EXPECT_NE(rejects[0].find("\"line\":2,\"column\":1,\"code\":\"CSV_FIELD\""), std::string::npos) << rejects[0];
      EXPECT_NE(rejects[1].find("\"line\":5,\"column\":1,\"code\":\"CSV_FIELD\""), std::string::npos) << rejects[1];
      EXPECT_NE(rejects[2].find("\"line\":7,\"column\":1,\"code\":\"CSV_FIELD\""), std::string::npos) << rejects[2];
      EXPECT_NE(read_file(dir / "sum.json").find("\"records\": 4, \"valid\": 1, \"invalid\": 3"), std::string::npos)
          << read_file(dir / "sum.json");
    }
  }
}

// --to csv writes a row back as it was except for the FEN field: a TSV row's empty last field and trailing
// blanks stay (they were trimmed, so with --count the count landed in the wrong column); only a CR goes.
// Semicolons separate the fields when the header has them and neither commas nor TABs (spreadsheets write that
// where the comma is the decimal mark), under .csv or a name that says nothing (sniffed); output keeps them.
TEST(FormatsCli, CsvWithSemicolons) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  const std::string text = "id;FEN;note\n1;4k3/8/8/8/8/8/8/4K3 w - - 00 1;\"a;b\"\n2;" + k + ";c\n";
  write_file(dir / "s.csv", text);
  write_file(dir / "s.dat", text);
  for (const char* name : {"s.csv", "s.dat"}) {
    CliResult r = run_cli({"dedup", "-q", "--count", "--to", "csv", dir / name});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "id;FEN;note;count\n1;" + k + ";\"a;b\";2\n") << name;
  }
  // A TAB-separated header under .csv is read with TABs, as under any other name (it used to be refused: "no
  // column named FEN").
  write_file(dir / "t.csv", "id\tFEN\n1\t" + k + "\n");
  EXPECT_EQ(run_cli({"normalize", "-q", "--to", "csv", dir / "t.csv"}).out, "id\tFEN\n1\t" + k + "\n");
  // A header with commas stays comma-separated, semicolons and all.
  write_file(dir / "c.csv", "id,FEN;x\n1," + k + "\n");
  EXPECT_EQ(run_cli({"normalize", "-q", "--to", "csv", dir / "c.csv", "--fen-column", "1"}).out, "id,FEN;x\n1," + k + "\n");
}

TEST(FormatsCli, CsvRowsKeepTrailingEmptyFields) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  write_file(dir / "t.tsv", "a\tFEN\tb\r\nx\t" + k + "\t\r\ny\t" + k + "\tz \n");
  CliResult r = run_cli({"normalize", "-q", "--to", "csv", dir / "t.tsv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "a\tFEN\tb\nx\t" + k + "\t\ny\t" + k + "\tz \n");
  r = run_cli({"dedup", "-q", "--count", "--to", "csv", dir / "t.tsv"});
  EXPECT_EQ(r.out, "a\tFEN\tb\tcount\nx\t" + k + "\t\t2\n");
}

// --fen-column by index: the first row is a header only if its field there is not a position, so a CSV
// without a header keeps its first row (it was dropped unseen). By name: the column decides the format
// sniff too, so such a CSV on stdin is read as CSV.
TEST(FormatsCli, FenColumnByIndexKeepsAHeaderlessFirstRowAndByNameIsSniffed) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1", k2 = "4k3/8/8/8/8/8/8/3K4 w - - 0 1";
  write_file(dir / "plain.csv", "1," + k + "\n2," + k2 + "\n");
  write_file(dir / "head.csv", "id,position\n1," + k + "\n");
  CliResult r = run_cli({"normalize", "-q", "--fen-column", "1", dir / "plain.csv", "--summary", dir / "s.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, k + "\n" + k2 + "\n");
  EXPECT_NE(read_file(dir / "s.json").find("\"records\": 2"), std::string::npos) << read_file(dir / "s.json");
  r = run_cli({"normalize", "-q", "--fen-column", "1", "--to", "csv", dir / "plain.csv"});
  EXPECT_EQ(r.out, "1," + k + "\n2," + k2 + "\n");
  r = run_cli({"normalize", "-q", "--fen-column", "1", dir / "head.csv"});
  EXPECT_EQ(r.out, k + "\n");
  r = run_cli_stdin({"normalize", "-q", "--fen-column", "position", "-", "--rejects", dir / "rej.jsonl"}, "id,position\n1," + k + "\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, k + "\n");
  EXPECT_EQ(read_file(dir / "rej.jsonl"), "");
}

// A header written with blanks after the commas (`id, FEN, note`) names its FEN column, as a data row's FEN field is
// read with the blanks around it: it found no column (exit 2), and on stdin was not even sniffed as CSV. So does
// dedup --count's `count` column (`, count`), which is replaced, not doubled.
TEST(FormatsCli, CsvHeaderNamesAreMatchedWithoutTheBlanksAroundThem) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  const std::string input = "id, FEN ,\tnote\n1, " + k + " , x\n2,\"" + k + "\",y\n";
  write_file(dir / "sp.csv", input);
  CliResult r = run_cli({"normalize", "-q", "--to", "csv", dir / "sp.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id, FEN ,\tnote\n1," + k + ", x\n2," + k + ",y\n");
  r = run_cli_stdin({"normalize", "-q", "-"}, input);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, k + "\n" + k + "\n");
  r = run_cli({"normalize", "-q", "--fen-column", "note", dir / "sp.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // x and y are no FENs
  write_file(dir / "count.csv", "fen, count\n" + k + ",7\n" + k + ",7\n");
  r = run_cli({"dedup", "-q", "--count", "--to", "csv", dir / "count.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "fen, count\n" + k + ",2\n");
}

// By index, the first row is a header when its field reads as a column name (its first rank holds a character no
// placement holds): a name with '/' or a digit is still a header, and a damaged first row of a headerless file is a
// rejected record, not dropped unseen. --csv-header yes/no settles it either way (helper-28, helper-30).
TEST(FormatsCli, CsvHeaderByIndexIsReadAsANameOrSaidOutright) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  write_file(dir / "slash.csv", "id,FEN/EPD\n1," + k + "\n");
  CliResult r = run_cli({"validate", "--fen-column", "1", dir / "slash.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;  // the header is no invalid record
  r = run_cli({"normalize", "-q", "--fen-column", "1", "--to", "csv", dir / "slash.csv"});
  EXPECT_EQ(r.out, "id,FEN/EPD\n1," + k + "\n");
  for (const char* name : {"fen2", "position", "epd", " FEN ", "FEN_1", "Position (FEN)", "FEN.1", "fen 2", "\xD0\x9F\xD0\xBE"}) {
    write_file(dir / "named.csv", std::string("id,") + name + "\n1," + k + "\n");
    r = run_cli({"normalize", "-q", "--fen-column", "1", "--to", "csv", dir / "named.csv"});
    EXPECT_EQ(r.out, std::string("id,") + name + "\n1," + k + "\n") << name;
  }
  for (const std::string first : {"1,rnbqkbnr", "1,", "1,rheakaehr w", "1, 8/8/8", "1,-", "1,rnbqkbxr/pppp1ppp",
                                   "1,rnbqkbxr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "1,r1bqkbn0/pppp"}) {
    SCOPED_TRACE(first);
    write_file(dir / "damaged.csv", first + "\n2," + k + "\n");
    r = run_cli({"normalize", "-q", "--force", "--fen-column", "1", dir / "damaged.csv", "--rejects", dir / "rej.jsonl",
                 "--summary", dir / "s.json"});
    EXPECT_EQ(r.out, k + "\n");
    EXPECT_NE(read_file(dir / "rej.jsonl").find("\"line\":1,"), std::string::npos) << read_file(dir / "rej.jsonl");
    EXPECT_NE(read_file(dir / "s.json").find("\"records\": 2, \"valid\": 1, \"invalid\": 1"), std::string::npos);
  }
  // A placeholder first record ("null") reads as a name: the guess is said on stderr, so it is not lost unseen.
  write_file(dir / "null.csv", "1,null\n2," + k + "\n");
  r = run_cli({"normalize", "-q", "--fen-column", "1", dir / "null.csv"});
  EXPECT_EQ(r.out, k + "\n");
  EXPECT_NE(r.err.find("null.csv: line 1 is read as the CSV header (its field 1, \"null\""), std::string::npos) << r.err;
  // Said outright: a header "rank" (only FEN letters) is taken as one, a name-like first row as a record.
  write_file(dir / "rank.csv", "id,rank\n1," + k + "\n");
  r = run_cli({"normalize", "-q", "--fen-column", "1", "--csv-header", "yes", "--to", "csv", dir / "rank.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,rank\n1," + k + "\n");
  r = run_cli({"validate", "--fen-column", "1", "--csv-header", "no", dir / "slash.csv"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("slash.csv:1:"), std::string::npos) << r.out;
  // A column found by name needs the header.
  r = run_cli({"normalize", "-q", "--csv-header", "no", dir / "slash.csv", "--fen-column", "FEN/EPD"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--csv-header no leaves no header"), std::string::npos) << r.err;
}

// dedup --count keeps the output's own format: a "count" column named in the CSV header (TSV: a tab), a
// "count" key in each JSON object. A CSV row with a quoted line break is one record there too.
TEST(FormatsCli, DedupCountIsAColumnInCsvAndAKeyInJsonl) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  write_file(dir / "m.csv", "id,fen,note\n1," + k + ",\"a\nb\"\n2," + k + ",x\n3," + kStart + ",\"c,\"\"d\"\"\"\n");
  write_file(dir / "t.tsv", "id\tfen\n1\t" + k + "\n");
  write_file(dir / "j.jsonl", "{\"fen\":\"" + k + "\",\"x\":1}\n{\"x\":2, \"fen\":\"" + k + "\"} \n{\"fen\":\"" + kStart + "\"}\n");
  for (const char* chunk : {"1", "1000"}) {
    CliResult r = run_cli({"dedup", "-q", "--count", "--to", "csv", dir / "m.csv", "--chunk-size", chunk});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "id,fen,note,count\n1," + k + ",\"a\nb\",2\n3," + kStart + ",\"c,\"\"d\"\"\",1\n");
    r = run_cli({"dedup", "-q", "--count", dir / "j.jsonl", "--chunk-size", chunk, "--to", "jsonl"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "{\"fen\":\"" + k + "\",\"x\":1,\"count\":2}\n{\"fen\":\"" + kStart + "\",\"count\":1}\n");
  }
  CliResult r = run_cli({"dedup", "-q", "--count", "--to", "csv", dir / "t.tsv"});
  EXPECT_EQ(r.out, "id\tfen\tcount\n1\t" + k + "\t1\n");
  // A row shorter than the header gets empty fields up to the count column (its count used to land under
  // "a"); a longer one keeps its extra fields, the count after them. A quoted separator is not a field end.
  write_file(dir / "short.csv", "fen,a,b\n" + k + "\n" + kStart + ",\"x,y\",z,extra\n");
  r = run_cli({"dedup", "-q", "--count", "--to", "csv", dir / "short.csv"});
  EXPECT_EQ(r.out, "fen,a,b,count\n" + k + ",,,1\n" + kStart + ",\"x,y\",z,extra,1\n");
  CliRun run;
  run.args = {"dedup", "-q", "--count", "--to", "csv", "--with-tags", "Event", "--plies", "0:0", "-"};
  run.stdin_bytes = "[Event \"a\"]\n\n1. e4 *\n[Event \"b\"]\n\n1. d4 *\n";
  EXPECT_EQ(run_cli(run).out, "fen,Event,count\n" + std::string(kStart) + ",a,2\n");
}

// An output named .tsv gets CSV rows separated by TABs, as a .tsv input is read (it used to get FEN lines): a .tsv
// input's rows as they are, a PGN input's rows and header with TABs (a tag value with a TAB quoted), and a CSV input
// with commas refused rather than written as commas under a .tsv name.
TEST(FormatsCli, AnOutputNamedTsvGetsRowsSeparatedByTabs) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  write_file(dir / "t.tsv", "id\tfen\tnote\n1\t" + k + "\ta,b\n2\t4k3/8/8/8/8/8/8/4K3 w - - 00 1\t\n");
  CliResult r = run_cli({"dedup", "-q", "--count", dir / "t.tsv", "-o", dir / "out.tsv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir / "out.tsv"), "id\tfen\tnote\tcount\n1\t" + k + "\ta,b\t2\n");
  write_file(dir / "g.pgn", "[Event \"a\tb\"]\n[Site \"x,y\"]\n\n1. e4 *\n[Event \"c\"]\n\n1. e4 *\n");
  r = run_cli({"dedup", "-q", "--count", "--with-tags", "Event,Site", "--plies", "1:1", dir / "g.pgn", "-o",
               dir / "games.tsv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir / "games.tsv"), "fen\tEvent\tSite\tcount\n" + std::string(kAfterE4) + "\t\"a\tb\"\tx,y\t2\n");
  // The same under a .csv name: commas, as before.
  r = run_cli({"normalize", "-q", "--with-tags", "Site", "--plies", "1:1", dir / "g.pgn", "-o", dir / "games.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir / "games.csv"), "fen,Site\n" + std::string(kAfterE4) + ",\"x,y\"\n" + kAfterE4 + ",\n");
  write_file(dir / "c.csv", "id,fen\n1," + k + "\n");
  r = run_cli({"normalize", "-q", dir / "c.csv", "-o", dir / "c.tsv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("its fields are separated by ','"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "c.tsv"));
  write_file(dir / "p.fen", k + "\n");
  r = run_cli({"normalize", "-q", dir / "p.fen", "-o", dir / "p.tsv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--to csv needs CSV or PGN input"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "p.tsv"));
}

// Input that already has a count (a "count" key, a count column) gets it replaced rather than a second one that
// would shadow it: any JSON type, nested values and a "count" inside them untouched; a CSV row shorter than its
// header is padded to the column; a quoted count field is replaced whole.
TEST(FormatsCli, DedupCountReplacesACountTheInputAlreadyHas) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  write_file(dir / "j.jsonl", "{\"count\": {\"count\": [1, {}]}, \"fen\":\"" + k + "\", \"x\": 1}\n" +
                                  "{\"fen\":\"" + k + "\", \"count\":7}\n" +
                                  "{\"n\":{\"count\":3},\"fen\":\"" + std::string(kStart) + "\",\"co\\u0075nt\":\"x\"}\n" +
                                  "{\"fen\":\"8/8/8/8/8/k7/8/K7 w - - 0 1\",\"count\":[]}\n");
  for (const char* chunk : {"1", "1000"}) {
    CliResult r = run_cli({"dedup", "-q", "--count", dir / "j.jsonl", "--chunk-size", chunk, "--to", "jsonl"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "{\"count\": 2, \"fen\":\"" + k + "\", \"x\": 1}\n" +
                         "{\"n\":{\"count\":3},\"fen\":\"" + std::string(kStart) + "\",\"co\\u0075nt\":1}\n" +
                         "{\"fen\":\"8/8/8/8/8/k7/8/K7 w - - 0 1\",\"count\":1}\n");
  }
  write_file(dir / "m.csv", "count,fen,note\n9," + k + ",a\n\"8\"," + k + "\n," + kStart + ",\"b\nc\"\n");
  write_file(dir / "e.csv", "fen,note,count\n" + k + ",a,5\n" + kStart + "\n" + k + ",b,\"x,y\"\n");
  for (const char* chunk : {"1", "1000"}) {
    CliResult r = run_cli({"dedup", "-q", "--count", "--to", "csv", dir / "m.csv", "--chunk-size", chunk});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "count,fen,note\n2," + k + ",a\n1," + kStart + ",\"b\nc\"\n");
    r = run_cli({"dedup", "-q", "--count", "--to", "csv", dir / "e.csv", "--chunk-size", chunk});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "fen,note,count\n" + k + ",a,2\n" + kStart + ",,1\n");
  }
  // A quoted count field is replaced whole, and a row with more fields than the header keeps them. A row whose
  // count field is malformed ("7"x) is a CSV_FIELD reject (CsvRowBrokenAfterTheFenFieldIsRejected): not counted.
  write_file(dir / "q.csv", "fen,count,note\n" + k + ",\"7\"x,a\n" + std::string(kStart) + ",\"x,y\",5,extra\n" + kStart + "\n");
  CliResult r = run_cli({"dedup", "-q", "--count", "--to", "csv", dir / "q.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "fen,count,note\n" + std::string(kStart) + ",2,5,extra\n");
  // Duplicate names: every "count" key and every count column gets the count (JSON readers differ in which
  // duplicate they keep; so do CSV readers), a short row is padded to the last one.
  write_file(dir / "d.jsonl", "{\"count\":\"x\",\"fen\":\"" + k + "\",\"n\":{\"count\":0},\"count\":[2, 3]}\n" +
                                  "{\"fen\":\"" + k + "\"}\n");
  r = run_cli({"dedup", "-q", "--count", "--to", "jsonl", dir / "d.jsonl", "--json-field", "fen"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"count\":2,\"fen\":\"" + k + "\",\"n\":{\"count\":0},\"count\":2}\n");
  write_file(dir / "d.csv", "count,fen,count,x,count\n7," + k + ",8,a,9\n\"5\"," + k + ",6\n," + kStart + "\n");
  for (const char* chunk : {"1", "1000"}) {
    r = run_cli({"dedup", "-q", "--count", "--to", "csv", dir / "d.csv", "--chunk-size", chunk});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "count,fen,count,x,count\n2," + k + ",2,a,2\n1," + kStart + ",1,,1\n");
  }
  // The FEN itself in the key or column named count: refused, not overwritten.
  write_file(dir / "c.csv", "count,x\n" + k + ",a\n");
  write_file(dir / "c2.csv", "x,count,count\na,b," + k + "\n");
  write_file(dir / "c.jsonl", "{\"count\":\"" + k + "\"}\n");
  write_file(dir / "t.pgn", "[Event \"a\"]\n\n1. e4 *\n");
  const std::vector<std::vector<std::string>> refused = {
      {"--to", "csv", "--fen-column", "count", dir / "c.csv"},
      {"--to", "csv", "--fen-column", "0", dir / "c.csv"},
      {"--to", "csv", "--fen-column", "2", dir / "c2.csv"},
      {"--to", "jsonl", "--json-field", "count", dir / "c.jsonl"},
      {"--to", "csv", "--with-tags", "count", dir / "t.pgn"}};
  for (std::vector<std::string> args : refused) {
    args.insert(args.begin(), {"dedup", "-q", "--count"});
    r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[4];
    EXPECT_NE(r.err.find("count"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

// --to csv writes one header: several CSV inputs must share it (a BOM or CRLF aside), or the run stops.
TEST(FormatsCli, CsvInputsWithDifferentHeadersCannotShareOneOutput) {
  TempDir dir;
  write_file(dir / "a.csv", "id,FEN\n1," + std::string(kStart) + "\n");
  write_file(dir / "b.csv", "\xEF\xBB\xBFid,FEN\r\n2," + std::string(kStart) + "\r\n");
  write_file(dir / "c.csv", "FEN,id\n" + std::string(kStart) + ",3\n");
  CliResult r = run_cli({"normalize", "-q", "--to", "csv", dir / "a.csv", dir / "b.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,FEN\n1," + std::string(kStart) + "\n2," + kStart + "\n");
  r = run_cli({"normalize", "-q", "--to", "csv", dir / "a.csv", dir / "c.csv", "-o", dir / "out.csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("c.csv: its CSV header differs from"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.csv"));
  r = run_cli({"normalize", "-q", dir / "a.csv", dir / "c.csv"});  // FEN output: each file's own column
  EXPECT_EQ(r.out, std::string(kStart) + "\n" + kStart + "\n");
  // The header comes from the first input that has one: an empty first input has none.
  write_file(dir / "empty.csv", "");
  r = run_cli({"normalize", "-q", "--to", "csv", dir / "empty.csv", dir / "a.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,FEN\n1," + std::string(kStart) + "\n");
  // PGN's header (fen and the --with-tags names) is held to the same rule.
  write_file(dir / "g.pgn", "[Event \"e\"]\n\n*\n");
  r = run_cli({"normalize", "-q", "--to", "csv", dir / "g.pgn", dir / "a.csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("a.csv: its CSV header differs from"), std::string::npos) << r.err;
  write_file(dir / "f.csv", "fen,Event\n" + std::string(kStart) + ",x\n");
  r = run_cli({"normalize", "-q", "--to", "csv", "--with-tags", "Event", dir / "g.pgn", dir / "f.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "fen,Event\n" + std::string(kStart) + ",e\n" + kStart + ",x\n");
  // A headerless input before one with a header: the header would come after rows (helper-30). The other way
  // round the rows go under the header.
  write_file(dir / "bare.csv", "1," + std::string(kStart) + "\n");
  write_file(dir / "named.csv", "id,FEN\n2," + std::string(kStart) + "\n");
  r = run_cli({"normalize", "-q", "--to", "csv", "--fen-column", "1", dir / "bare.csv", dir / "named.csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("named.csv has a CSV header and " + (dir / "bare.csv") + ", before it, has none"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  r = run_cli({"normalize", "-q", "--to", "csv", "--fen-column", "1", dir / "named.csv", dir / "bare.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,FEN\n2," + std::string(kStart) + "\n1," + kStart + "\n");
  write_file(dir / "blank.csv", "\xEF\xBB\xBF\n\r\n\n");  // no rows before the header: fine (helper-31)
  r = run_cli({"normalize", "-q", "--to", "csv", "--fen-column", "1", dir / "blank.csv", dir / "named.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,FEN\n2," + std::string(kStart) + "\n");
  // Nor when its rows were all rejected (helper-52: refused, as if they had been written). With
  // --count, too, and the rejects are in the rejects file.
  write_file(dir / "broken.csv", "1,rnbqkbxr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\n3,8/8/8\n");
  for (const char* command : {"normalize", "dedup"}) {
    std::vector<std::string> args = {command, "-q", "--to", "csv", "--fen-column", "1", dir / "broken.csv",
                                      dir / "named.csv", "--rejects", dir / "rejects.jsonl", "--force"};
    const bool count = std::string(command) == "dedup";
    if (count) args.push_back("--count");
    r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
    EXPECT_EQ(r.out, count ? "id,FEN,count\n2," + std::string(kStart) + ",1\n" : "id,FEN\n2," + std::string(kStart) + "\n")
        << command;
    EXPECT_EQ(split_lines(read_file(dir / "rejects.jsonl")).size(), 2u) << command;
  }
  // NUL-only lines are blank lines too, rows of none (helper-39: this input was refused as "has none").
  write_file(dir / "nul.csv", std::string("\0\n \0\r\n\0\0\n", 9));
  r = run_cli({"normalize", "-q", "--to", "csv", "--fen-column", "1", dir / "nul.csv", dir / "named.csv",
               "--summary", dir / "s.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,FEN\n2," + std::string(kStart) + "\n");
  EXPECT_EQ(json_number(read_file(dir / "s.json"), "records"), 1u);
}

// The refusal of a header after headerless rows is the sink's (a855680), which sees a chunk after the reader stage
// has read on: the run failed with whichever error came first in time, a later input's ("its CSV header differs")
// at some --threads and chunk sizes, and said notes about inputs after the one it stopped at. Now it is the same
// run whatever the --threads and --chunk-size: the error of the earliest input, and notes up to it only.
TEST(FormatsCli, AFailedCsvRunSaysTheSameWhateverTheThreadsAndChunkSize) {
  TempDir dir;
  std::string bare, named = "id,FEN\n", other = "FEN,id\n";
  for (int i = 0; i < 300; ++i) {
    bare += std::to_string(i) + "," + kStart + "\n";
    named += std::to_string(i) + "," + kAfterE4 + "\n";
  }
  write_file(dir / "bare.csv", bare);
  write_file(dir / "named.csv", named);
  write_file(dir / "named2.csv", named);
  write_file(dir / "other.csv", other + kStart + ",1\n");
  const std::string expected =
      "fenmill: note: " + (dir / "named.csv") + ": line 1 is read as the CSV header (its field 1, \"FEN\", reads as a "
      "column name); --csv-header no reads it as a record\nfenmill: error: " + (dir / "named.csv") +
      " has a CSV header and " + (dir / "bare.csv") + ", before it, has none: --to csv writes one header, first "
      "(--csv-header says which files have one)\n";
  for (const char* threads : {"1", "2", "8"})
    for (const char* chunk : {"1", "100", "2097152"}) {
      CliResult r = run_cli({"normalize", "--to", "csv", "--fen-column", "1", "--threads", threads, "--chunk-size", chunk,
                             dir / "bare.csv", dir / "named.csv", dir / "named2.csv", dir / "other.csv", "-o", dir / "out.csv"});
      EXPECT_EQ(r.exit_code, 2) << threads << " " << chunk;
      EXPECT_EQ(r.err, expected) << threads << " " << chunk;
      EXPECT_FALSE(std::filesystem::exists(dir / "out.csv"));
    }
}

// A UTF-8 byte-order mark before a CSV input is not part of its first row: --to csv writes neither it nor a
// header the file does not have, whether the file is mapped or streamed (stdin, one byte a chunk). And for the
// one-header check a file of nothing but the mark and blank lines has no rows: a file with a header may follow.
TEST(FormatsCli, CsvByteOrderMarkIsNeitherWrittenBackNorARow) {
  TempDir dir;
  const std::string bom = "\xEF\xBB\xBF";
  const std::string e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";  // written without e3
  write_file(dir / "header.csv", bom + "id,FEN\r\n1," + e4 + "\r\n");
  write_file(dir / "bare.csv", bom + "1," + e4 + "\n2," + kStart + "\n");
  const std::string header_out = "id,FEN\n1," + std::string(kAfterE4) + "\n";
  const std::string bare_out = "1," + std::string(kAfterE4) + "\n2," + kStart + "\n";
  for (const char* chunk : {"1", "1048576"}) {
    CliResult r = run_cli({"normalize", "-q", "--to", "csv", "--chunk-size", chunk, dir / "header.csv"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, header_out) << chunk;
    r = run_cli_stdin({"normalize", "-q", "--to", "csv", "--chunk-size", chunk, "-"}, read_file(dir / "header.csv"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, header_out) << "stdin, sniffed, chunk " << chunk;
    // By index, a header is guessed from the field after the mark: "FEN" is a name, a position is a record.
    r = run_cli({"normalize", "-q", "--to", "csv", "--chunk-size", chunk, "--fen-column", "1", dir / "header.csv"});
    EXPECT_EQ(r.out, header_out) << chunk;
    EXPECT_NE(r.err.find("header.csv: line 1 is read as the CSV header (its field 1, \"FEN\""), std::string::npos) << r.err;
    r = run_cli({"normalize", "-q", "--to", "csv", "--chunk-size", chunk, "--fen-column", "1", dir / "bare.csv"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, bare_out) << chunk;
    EXPECT_EQ(r.err, "");
    r = run_cli_stdin({"normalize", "-q", "--to", "csv", "--from", "csv", "--chunk-size", chunk, "--fen-column", "1", "-"},
                      read_file(dir / "bare.csv"));
    EXPECT_EQ(r.out, bare_out) << "stdin, chunk " << chunk;
  }
  // --csv-header no: the header row is a record, its field "FEN" a rejected position, and the mark still no text.
  CliResult r = run_cli({"normalize", "-q", "--to", "csv", "--fen-column", "1", "--csv-header", "no", dir / "header.csv",
                         "--rejects", dir / "rej.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1," + std::string(kAfterE4) + "\n");
  EXPECT_NE(read_file(dir / "rej.jsonl").find("\"line\":1,\"column\":4,"), std::string::npos) << read_file(dir / "rej.jsonl");

  // Rows without a header, after the mark, before a file with one: refused (the header would come after them).
  write_file(dir / "named.csv", "id,FEN\n3," + std::string(kStart) + "\n");
  r = run_cli({"normalize", "-q", "--to", "csv", "--fen-column", "1", dir / "bare.csv", dir / "named.csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("named.csv has a CSV header and " + (dir / "bare.csv") + ", before it, has none"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
  // The mark alone, the mark and blank lines, and a second mark alone on line 1 (a record, rejected: it writes no
  // row, which is what the check is about) leave the header first.
  write_file(dir / "mark.csv", bom);
  write_file(dir / "mark_blanks.csv", bom + " \r\n\t\n\n");
  write_file(dir / "two_marks.csv", bom + bom + "\n\n");
  for (const char* first : {"mark.csv", "mark_blanks.csv", "two_marks.csv"}) {
    for (const char* chunk : {"1", "1048576"}) {
      r = run_cli({"normalize", "-q", "--to", "csv", "--chunk-size", chunk, "--fen-column", "1", dir / first,
                   dir / "named.csv", "--summary", dir / "s.json", "--force"});
      EXPECT_EQ(r.exit_code, 0) << first << ": " << r.err;
      EXPECT_EQ(r.out, "id,FEN\n3," + std::string(kStart) + "\n") << first;
      EXPECT_EQ(json_number(read_file(dir / "s.json"), "invalid"), std::string(first) == "two_marks.csv" ? 1u : 0u) << first;
    }
  }
}

TEST(FormatsCli, CsvColumnByIndexAndMissingColumnIsAUsageError) {
  TempDir dir;
  write_file(dir / "t.tsv", std::string("id\tposition\n1\t") + kStart + "\n");
  CliResult r = run_cli({"normalize", "-q", "--fen-column", "1", dir / "t.tsv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(kStart) + "\n");
  r = run_cli({"normalize", "-q", "--fen-column", "position", dir / "t.tsv"});
  EXPECT_EQ(r.out, std::string(kStart) + "\n");
  r = run_cli({"normalize", "-q", dir / "t.tsv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no column named FEN or fen"), std::string::npos) << r.err;
  // A blank line 1 is no header: said as such (helper-32: it read "no column named FEN or fen").
  write_file(dir / "blank1.csv", "\nid,FEN\n1," + std::string(kStart) + "\n");
  CliResult blank = run_cli({"normalize", "-q", dir / "blank1.csv"});
  EXPECT_EQ(blank.exit_code, 2);
  EXPECT_NE(blank.err.find("blank1.csv: line 1 is blank, where the CSV header naming the FEN column must be"), std::string::npos)
      << blank.err;
  // A byte-order mark and blanks are blank too; the BOM's bytes elsewhere are not ("\xBB\xBF " was called blank).
  write_file(dir / "bom1.csv", "\xEF\xBB\xBF \r\nid,FEN\n");
  EXPECT_NE(run_cli({"normalize", "-q", dir / "bom1.csv"}).err.find("line 1 is blank"), std::string::npos);
  write_file(dir / "bytes1.csv", "\xBB\xBF \nid,FEN\n");
  CliResult bytes = run_cli({"normalize", "-q", dir / "bytes1.csv"});
  EXPECT_EQ(bytes.exit_code, 2);
  EXPECT_NE(bytes.err.find("no column named FEN or fen"), std::string::npos) << bytes.err;
}

TEST(FormatsCli, JsonlOnlyTheFenFieldChanges) {
  TempDir dir;
  std::string line1 = "{\"evals\": [{\"pvs\": [{\"cp\": 31, \"line\": \"e7e5 g1f3\"}], \"knodes\": 1, \"depth\": 20}], "
                      "\"fen\": \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3\", \"note\": \"caf\\u00e9 \\\"q\\\"\"}";
  write_file(dir / "e.jsonl", line1 + "\n{\"fen\": 7}\n{\"position\": \"x\"}\n[1,2]\n");
  CliResult r = run_cli({"normalize", "-q", "--to", "jsonl", dir / "e.jsonl", "--rejects", dir / "rej.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string expected = line1;
  expected.replace(expected.find("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3"),
                   std::string("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3").size(), kAfterE4);
  EXPECT_EQ(r.out, expected + "\n");
  EXPECT_EQ(split_lines(read_file(dir / "rej.jsonl")).size(), 3u);
  r = run_cli({"dedup", "-q", "--json-field", "position", dir / "e.jsonl"});
  EXPECT_EQ(r.out, "");  // "x" is not a FEN: the only record with that field is rejected
}

// On-Demand parsing reads only what leads to the field: lines that are not valid JSON elsewhere must still be
// rejected, not copied to the output. A column inside an escaped JSON string counts the escapes as written.
TEST(FormatsCli, JsonlInvalidJsonIsRejectedAndColumnsCountEscapes) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  write_file(dir / "bad.jsonl", "{\"fen\": \"" + k + "\",}\n"             // trailing comma
                                    "{\"n\": tru, \"fen\": \"" + k + "\"}\n"  // bad literal before the field
                                    "{\"fen\": \"" + k + "\", \"n\": 01}\n"   // bad number after it
                                    "{\"fen\": \"" + k + "\"}{\"fen\": \"x\"}\n"  // two objects
                                    "{\"fen\": \"" + k + "\", \"s\": \"a\\qb\"}\n"  // bad escape after it
                                    "{\"fen\": \"" + k + "\"}\n");
  CliResult r = run_cli({"normalize", "-q", "--to", "jsonl", dir / "bad.jsonl", "--summary", dir / "s.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"fen\": \"" + k + "\"}\n");
  EXPECT_NE(read_file(dir / "s.json").find("\"invalid_by_code\": {\"JSON_FIELD\": 5}"), std::string::npos)
      << read_file(dir / "s.json");
  write_file(dir / "col.jsonl", "{\"fen\": \"4k3\\/8/8/8/8/8/8/4K3 w - - 0 0\"}\n"
                                "{\"fen\": \"\\u0034k3/8/8/8/8/8/8/4K3 w - - 0 0\"}\n"
                                "{\"fen\": \"\\u00e94k3/8/8/8/8/8/8/4K3 w - - 0 1\"}\n");
  r = run_cli({"validate", dir / "col.jsonl"});
  EXPECT_EQ(r.exit_code, 1);
  const std::string f = dir / "col.jsonl";
  EXPECT_EQ(r.out, f + ":1:39: BAD_FULLMOVE: fullmove number must be a positive integer\n" +
                       f + ":2:43: BAD_FULLMOVE: fullmove number must be a positive integer\n" +
                       f + ":3:10: BAD_PIECE: invalid character in the piece placement\n");
  // A JSON_FIELD reject says what exactly is wrong; a FEN key given twice is one of those (which one is meant?),
  // as a CSV header naming the FEN column twice is a usage error.
  write_file(dir / "why.jsonl", "[1]\n{\"x\": 1}\n{\"fen\": 1}\n{\"fen\": \"" + k + "\", \"fen\": \"junk\"}\n{\"fen\" 1}\n");
  r = run_cli({"validate", dir / "why.jsonl"});
  EXPECT_EQ(r.exit_code, 1);
  const std::string w = dir / "why.jsonl", m = ": JSON_FIELD: the line is not a JSON object whose FEN field is a string: ";
  EXPECT_EQ(r.out, w + ":1:1" + m + "not a JSON object\n" + w + ":2:1" + m + "no field \"fen\"\n" + w + ":3:1" + m +
                       "field \"fen\" is not a string\n" + w + ":4:1" + m +
                       "field \"fen\" appears more than once (which one holds the FEN is ambiguous)\n" + w + ":5:1" + m +
                       "not valid JSON\n");
  write_file(dir / "two.csv", "fen,x,fen\nold,a," + k + "\n");
  r = run_cli({"normalize", "-q", dir / "two.csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("the CSV header names 2 columns fen"), std::string::npos) << r.err;
  r = run_cli({"normalize", "-q", dir / "two.csv", "--fen-column", "2", "--to", "csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "fen,x,fen\nold,a," + k + "\n");
}

// A FEN from a JSON string or a quoted CSV field may end in a line break ("\n", "\r\n"): ignored at its end as a
// text line's CR is (a trailing "\n" used to be BAD_FULLMOVE while "\r", "\t" and "\u0000" were accepted). Any
// other control character is a byte of the field, as in a text line.
TEST(FormatsCli, ALineBreakEndingAJsonOrCsvFenIsItsLineEnd) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  write_file(dir / "e.jsonl", "{\"fen\": \"" + k + "\\n\"}\n{\"fen\": \"" + k + "\\r\\n\"}\n{\"fen\": \"" + k +
                                  "\\r\"}\n{\"fen\": \"" + k + "\\u0000\\t\\n\"}\n{\"fen\": \"" + k + "\\f\"}\n");
  CliResult r = run_cli({"normalize", "-q", "--to", "jsonl", dir / "e.jsonl", "--rejects", dir / "rej.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string line = "{\"fen\": \"" + k + "\"}\n";
  EXPECT_EQ(r.out, line + line + line + line);
  EXPECT_NE(read_file(dir / "rej.jsonl").find("\"line\":5,\"column\":39,\"code\":\"BAD_FULLMOVE\""), std::string::npos)
      << read_file(dir / "rej.jsonl");
  write_file(dir / "e.csv", "id,fen\n1,\"" + k + "\n\"\n2,\"" + k + "\r\n\"\n");
  r = run_cli({"normalize", "-q", "--to", "csv", dir / "e.csv"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,fen\n1," + k + "\n2," + k + "\n");
}

// EPD output writes the position's clocks, repaired or not, as hmvc / fmvn after the four fields and then the
// record's other operations as written: the clocks of a record with operations used to be dropped (so did every
// Xiangqi record's), and a record's own hmvc / fmvn were copied unrepaired. Reading the output back gives the
// positions the input gave.
TEST(FormatsCli, EpdOutputWritesTheClocksThenTheOtherOperations) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - -";
  write_file(dir / "c.epd", k + " 5 10 bm Kd2;\n" + k + " 5 10 hmvc 7;\n" + k + " id \"a;b\";  c0 \"x\" ;hmvc 0;fmvn 1;\n" +
                                k + " fmvn 12;\n");
  CliResult r = run_cli({"normalize", "-q", "--to", "epd", dir / "c.epd", "-o", dir / "out.epd"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir / "out.epd"), k + " hmvc 5; fmvn 10; bm Kd2;\n" + k + " hmvc 7; fmvn 10;\n" + k +
                                            " id \"a;b\"; c0 \"x\" ;\n" + k + " hmvc 0; fmvn 12;\n");
  EXPECT_EQ(run_cli({"normalize", "-q", dir / "out.epd"}).out, run_cli({"normalize", "-q", dir / "c.epd"}).out);
  // FEN and binary output hold the clocks but no other operation: the run says how many records lost some.
  for (const char* to : {"fen", "bin"}) {
    r = run_cli({"convert", "--to", to, dir / "c.epd", "-o", dir / (std::string("c.") + to), "--force"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("warning: 2 EPD records had operations"), std::string::npos) << r.err;
    EXPECT_EQ(run_cli({"convert", "-q", "--to", to, dir / "c.epd", "-o", dir / (std::string("c.") + to), "--force"}).err, "");
  }
  EXPECT_EQ(run_cli({"convert", "-q", "--to", "epd", dir / "c.bin"}).out,
            k + " hmvc 5; fmvn 10;\n" + k + " hmvc 7; fmvn 10;\n" + k + "\n" + k + " hmvc 0; fmvn 12;\n");
  EXPECT_EQ(run_cli({"convert", "--to", "epd", dir / "c.epd"}).err.find("warning"), std::string::npos);
  // dedup counts the records it writes: the first of the four is kept, the others are repeats of it.
  r = run_cli({"dedup", dir / "c.epd"});
  EXPECT_EQ(r.out, k + " 5 10\n");
  EXPECT_NE(r.err.find("warning: 1 EPD record had operations"), std::string::npos) << r.err;
  r = run_cli({"dedup", "--key", "full", dir / "c.epd"});  // clocks apart: all four are kept, two with operations
  EXPECT_NE(r.err.find("warning: 2 EPD records had operations"), std::string::npos) << r.err;
  // The summary says it too, also under -q.
  r = run_cli({"dedup", "-q", dir / "c.epd", "--summary", dir / "s.json"});
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(json_number(read_file(dir / "s.json"), "epd_operations_dropped"), 1u);
  r = run_cli({"normalize", "-q", "--to", "epd", dir / "c.epd", "--summary", dir / "s.json", "--force"});
  EXPECT_EQ(json_number(read_file(dir / "s.json"), "epd_operations_dropped"), 0u);

  // --repair: the repaired clocks are written (EP_CLOCK sets the halfmove clock to 0; fmvn 0 reads as 1), so the
  // output is valid in strict mode; without --repair fmvn 0 is BAD_FULLMOVE.
  const std::string e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3";
  write_file(dir / "r.epd", e4 + " hmvc 3; fmvn 0; id \"r\";\n");
  r = run_cli({"normalize", "-q", "--repair", "--ep", "keep", "--to", "epd", dir / "r.epd", "-o", dir / "r.out.epd"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir / "r.out.epd"), e4 + " id \"r\";\n");
  EXPECT_EQ(run_cli({"validate", "-q", "--ep", "keep", dir / "r.out.epd"}).exit_code, 0);
  r = run_cli({"validate", "-q", "--json", dir / "r.epd"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("BAD_FULLMOVE"), std::string::npos) << r.out;

  // Xiangqi: clocks from a FEN, and operations after the four fields.
  const std::string xq = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -";
  write_file(dir / "x.epd", xq + " 7 12\n" + xq + " bm h2e2; hmvc 3;\n" + xq + " - 9 id \"a\";\n");
  r = run_cli({"normalize", "-q", "--variant", "xiangqi", "--to", "epd", dir / "x.epd", "-o", dir / "x.out.epd"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir / "x.out.epd"), xq + " hmvc 7; fmvn 12;\n" + xq + " hmvc 3; fmvn 1; bm h2e2;\n" + xq +
                                              " hmvc 0; fmvn 9; id \"a\";\n");
  EXPECT_EQ(run_cli({"normalize", "-q", "--variant", "xiangqi", dir / "x.out.epd"}).out,
            xq + " 7 12\n" + xq + " 3 1\n" + xq + " 0 9\n");
  r = run_cli({"normalize", "-q", "--variant", "xiangqi", "--from", "fen", dir / "x.epd"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, xq + " 7 12\n");  // operations are EPD's: in a FEN file they are trailing text
}

// A chunk's output is held in memory, and --with-tags repeats a tag on every position: a game whose positions
// would take more than 64 MiB is rejected whole (GAME_TOO_LARGE) instead of growing the process without bound.
TEST(FormatsCli, PgnGameWhoseOutputPassesTheBoundIsRejected) {
  TempDir dir;
  std::string moves;
  for (int i = 0; i < 100; ++i) moves += "Nf3 Nf6 Ng1 Ng8 ";  // 400 plies
  write_file(dir / "g.pgn", "[Event \"small\"]\n\n1. e4 *\n\n[Event \"big\"]\n[Site \"" + std::string(200000, 's') +
                                "\"]\n\n" + moves + "*\n\n[Event \"after\"]\n\n1. d4 *\n");
  // Without the long tag every position is written: 2 + 401 + 2 rows.
  CliResult r = run_cli({"normalize", "-q", "--to", "csv", "--with-tags", "Event", dir / "g.pgn"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(split_lines(r.out).size(), 1u + 2u + 401u + 2u);
  // With it, "big" would be ~80 MB: one rejected record, and the games around it are written.
  r = run_cli({"normalize", "-q", "--to", "csv", "--with-tags", "Event,Site", dir / "g.pgn", "--rejects",
               dir / "rej.jsonl", "--summary", dir / "s.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "fen,Event,Site\n" + std::string(kStart) + ",small,\n" + kAfterE4 + ",small,\n" + kStart +
                       ",after,\n" + "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1,after,\n");
  std::string rejects = read_file(dir / "rej.jsonl");
  EXPECT_NE(rejects.find("{\"file\":"), std::string::npos) << rejects;
  EXPECT_NE(rejects.find("\"line\":5,\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << rejects;
  EXPECT_NE(rejects.find("\"input\":\"[Event \\\"big\\\"]\",\"game\":2,"), std::string::npos) << rejects;
  EXPECT_NE(read_file(dir / "s.json").find("\"records\": 5, \"valid\": 4, \"invalid\": 1"), std::string::npos)
      << read_file(dir / "s.json");
}

// A rejected game's input is its offending token, which may be any length (a repeated [FEN] tag, a tag's value,
// a word in the movetext): like a line's, only its first 1 MiB is kept, with its length in input_bytes.
TEST(FormatsCli, PgnRejectKeepsAtMost1MiBOfItsToken) {
  TempDir dir;
  const std::size_t big = std::size_t{3} << 20;
  write_file(dir / "g.pgn", "[Event \"a\"]\n[FEN \"" + std::string(kStart) + "\"]\n[FEN \"" + std::string(big, 'z') +
                                "\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. e4 " + std::string(big, 'N') + " *\n\n[Event \"c\"]\n[FEN \"" +
                                std::string(big, 'z') + "\"]\n\n1. e4 *\n\n[Event \"d\"]\n\n1. d4 *\n");
  CliResult r = run_cli({"normalize", "-q", dir / "g.pgn", "--rejects", dir / "rej.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(split_lines(r.out).size(), 2u);
  const std::string rejects = read_file(dir / "rej.jsonl");
  EXPECT_EQ(split_lines(rejects).size(), 3u);
  EXPECT_LT(rejects.size(), 3 * ((std::size_t{1} << 20) + 400)) << "each reject holds at most 1 MiB of its token";
  EXPECT_NE(rejects.find("\"code\":\"DUPLICATE_TAG\""), std::string::npos);
  EXPECT_NE(rejects.find("\"input_bytes\":" + std::to_string(big + 8)), std::string::npos) << "[FEN \"...\"]";
  EXPECT_NE(rejects.find("\"code\":\"BAD_MOVE_SYNTAX\""), std::string::npos);
  EXPECT_NE(rejects.find("\"code\":\"BAD_FEN\""), std::string::npos);
  EXPECT_NE(rejects.find("\"input\":\"" + std::string(std::size_t{1} << 20, 'N') + "\",\"input_bytes\":" +
                         std::to_string(big) + ","),
            std::string::npos);
}

TEST(FormatsCli, PgnPositionsPliesTagsAndRejectedGames) {
  TempDir dir;
  write_file(dir / "g.pgn",
             "[Event \"a\"]\n[Site \"s1\"]\n[WhiteElo \"1500\"]\n\n1. e4 {a [comment]\n\n[Event x]} e5 2. Nf3 1-0\n\n"
             "[Event \"b\"]\n[Site \"s2\"]\n\n1. e4 e5 2. Ke3 0-1\n\n"
             "[Event \"c\"]\n[Site \"s3\"]\n[Site \"s3 again\"]\n\n1. d4 *\n");  // a tag given twice: its first value
  CliResult r = run_cli({"normalize", "-q", "--plies", "1:1", "--to", "csv", "--with-tags", "Site,WhiteElo",
                         dir / "g.pgn", "--rejects", dir / "rej.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "fen,Site,WhiteElo\n" + std::string(kAfterE4) + ",s1,1500\n" +
                       "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1,s3,\n");
  // The same rows when each game is a chunk of its own (a game's tags are formatted once per game and chunk), and with
  // more positions per game.
  EXPECT_EQ(run_cli({"normalize", "-q", "--plies", "1:1", "--to", "csv", "--with-tags", "Site,WhiteElo", "--chunk-size",
                     "5", dir / "g.pgn"}).out,
            r.out);
  EXPECT_EQ(run_cli({"normalize", "-q", "--plies", "0:1", "--to", "jsonl", "--with-tags", "Site,WhiteElo", "--chunk-size",
                     "5", dir / "g.pgn"}).out,
            "{\"fen\": \"" + std::string(kStartFen) + "\", \"Site\": \"s1\", \"WhiteElo\": \"1500\"}\n"
            "{\"fen\": \"" + std::string(kAfterE4) + "\", \"Site\": \"s1\", \"WhiteElo\": \"1500\"}\n"
            "{\"fen\": \"" + std::string(kStartFen) + "\", \"Site\": \"s3\", \"WhiteElo\": null}\n"
            "{\"fen\": \"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\", \"Site\": \"s3\", \"WhiteElo\": null}\n");
  std::string rejects = read_file(dir / "rej.jsonl");
  EXPECT_NE(rejects.find("\"line\":12,"), std::string::npos) << rejects;
  EXPECT_NE(rejects.find("\"code\":\"ILLEGAL_MOVE\""), std::string::npos) << rejects;
  EXPECT_NE(rejects.find("\"input\":\"Ke3\",\"game\":2,\"ply\":3"), std::string::npos) << rejects;
  // Every position of the good games, with a chunk size that forces re-cutting at game starts.
  r = run_cli({"normalize", "-q", "--chunk-size", "5", dir / "g.pgn", "--summary", dir / "s.json"});
  EXPECT_EQ(split_lines(r.out).size(), 4u + 2u);
  EXPECT_NE(read_file(dir / "s.json").find("\"records\": 7, \"valid\": 6, \"invalid\": 1"), std::string::npos);
  // A bound past any game's length (even past 32 bits) is a bound, not a malformed --plies.
  const std::string all = run_cli({"normalize", "-q", dir / "g.pgn", "--plies", "1:"}).out;
  r = run_cli({"normalize", "-q", dir / "g.pgn", "--plies", "1:99999999999999999999"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, all);
  r = run_cli({"normalize", "-q", dir / "g.pgn", "--plies", "4294967296:"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  // --ep keep: a replayed position has the square after every double push, as the original standard writes it.
  r = run_cli({"normalize", "-q", dir / "g.pgn", "--plies", "1:1", "--ep", "keep"});
  EXPECT_EQ(split_lines(r.out).front(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  EXPECT_EQ(split_lines(run_cli({"normalize", "-q", dir / "g.pgn", "--plies", "1:1"}).out).front(), kAfterE4);
  r = run_cli({"normalize", "-q", dir / "g.pgn", "--plies", "1:2x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--plies takes FROM:TO"), std::string::npos) << r.err;
}

// Tag values come out as their text, PGN escapes undone; a missing tag is null in JSON (an empty tag is "");
// --with-tags fen would hide the position behind a second "fen" key or column, so it is refused.
TEST(FormatsCli, PgnWithTagsUnescapesValuesAndRefusesFen) {
  TempDir dir;
  write_file(dir / "t.pgn", "[Event \"A \\\"quoted\\\" event\"]\n[Site \"back\\\\slash\"]\n[Round \"\"]\n\n1. e4 *\n");
  CliResult r = run_cli({"normalize", "-q", dir / "t.pgn", "--to", "jsonl", "--with-tags", "Event,Site,Round,White",
                         "--plies", "0:0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"fen\": \"" + std::string(kStart) +
                       "\", \"Event\": \"A \\\"quoted\\\" event\", \"Site\": \"back\\\\slash\", \"Round\": \"\", \"White\": null}\n");
  r = run_cli({"normalize", "-q", dir / "t.pgn", "--to", "csv", "--with-tags", "Event,Site,White", "--plies", "0:0"});
  EXPECT_EQ(r.out, "fen,Event,Site,White\n" + std::string(kStart) + ",\"A \"\"quoted\"\" event\",back\\slash,\n");
  for (const char* name : {"fen", "FEN", " FEN "}) {
    r = run_cli({"normalize", "-q", dir / "t.pgn", "--to", "jsonl", "--with-tags", std::string("Site,") + name});
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_NE(r.err.find("names the fen column the output already has"), std::string::npos) << r.err;
  }
  // The PGN options do nothing to other inputs: said once, not silently.
  write_file(dir / "p.fen", std::string(kStart) + "\n");
  r = run_cli({"normalize", "-q", dir / "p.fen", "--plies", "0:0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(kStart) + "\n");
  EXPECT_NE(r.err.find("warning: --with-tags, --plies, --every and --variations apply to PGN input, and no input was PGN"),
            std::string::npos) << r.err;
  r = run_cli({"normalize", "-q", dir / "p.fen", dir / "t.pgn", "--plies", "0:0"});
  EXPECT_EQ(r.err, "");
  // So do the CSV ones to other inputs.
  for (const char* option : {"--fen-column", "--csv-header"}) {
    r = run_cli({"normalize", "-q", dir / "p.fen", option, std::string(option) == "--fen-column" ? "1" : "yes"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, std::string(kStart) + "\n");
    EXPECT_EQ(r.err, "fenmill: warning: --fen-column and --csv-header apply to CSV input, and no input was CSV\n");
  }
  write_file(dir / "c.csv", "id,fen\n1," + std::string(kStart) + "\n");
  r = run_cli({"normalize", "-q", dir / "p.fen", dir / "c.csv", "--fen-column", "1"});
  EXPECT_EQ(r.err, "fenmill: note: " + (dir / "c.csv") + ": line 1 is read as the CSV header (its field 1, \"fen\", reads "
                   "as a column name); --csv-header no reads it as a record\n");  // a guess, said even with -q
  r = run_cli({"normalize", "-q", dir / "p.fen", dir / "c.csv", "--fen-column", "1", "--csv-header", "yes"});
  EXPECT_EQ(r.err, "");
  // An empty CSV or PGN input is still one of that format: no warning (helper-31).
  write_file(dir / "empty.csv", "");
  write_file(dir / "empty.pgn", "");
  r = run_cli({"normalize", "-q", dir / "empty.csv", dir / "empty.pgn", "--fen-column", "1", "--plies", "0:3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  r = run_cli_stdin({"normalize", "-q", "-", "--fen-column", "1", "--plies", "0:3"}, "");  // nothing to sniff (helper-32)
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // Tags have nowhere to go in FEN or EPD output, a range that selects nothing is a mistake, and stdin can only
  // be read once: usage errors, each saying which.
  const std::pair<std::vector<std::string>, std::string> refused[] = {
      {{"--with-tags", "Event"}, "--with-tags adds CSV columns or JSON Lines fields"},
      {{"--with-tags", "Event", "--to", "epd"}, "--with-tags adds CSV columns or JSON Lines fields"},
      {{"--plies", "5:2"}, "--plies 5:2 selects nothing: FROM is after TO"},
      {{"-"}, "standard input ('-') can be read only once"},
      // Under any of its names (helper-40): from a file (`< f`) /dev/stdin read it again, from a pipe nothing.
      {{"/dev/stdin"}, "standard input ('-') can be read only once (- and /dev/stdin both name it)"},
      {{"/dev/fd/0"}, "standard input ('-') can be read only once (- and /dev/fd/0 both name it)"}};
  for (const auto& [extra, message] : refused) {
    std::vector<std::string> args = {"normalize", "-q", "-", dir / "t.pgn"};
    args.insert(args.end(), extra.begin(), extra.end());
    r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << message;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  for (const char* command : {"validate", "stats"}) {
    r = run_cli({command, "-q", dir / "t.pgn", "--with-tags", "Event"});
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_NE(r.err.find("validate and stats write a report"), std::string::npos) << r.err;
  }
  // Names are trimmed ("Event, Site"); a name twice, or one no PGN tag can have, is refused.
  r = run_cli({"normalize", "-q", dir / "t.pgn", "--to", "csv", "--with-tags", " Event , Site", "--plies", "0:0"});
  EXPECT_EQ(r.out, "fen,Event,Site\n" + std::string(kStart) + ",\"A \"\"quoted\"\" event\",back\\slash\n");
  for (const char* tags : {"Event,Site,Event", "Event,White Elo", "Ev\"ent"}) {
    r = run_cli({"normalize", "-q", dir / "t.pgn", "--to", "jsonl", "--with-tags", tags});
    EXPECT_EQ(r.exit_code, 2) << tags;
    EXPECT_NE(r.err.find("fenmill: --with-tags: '"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

// Files that each start with a byte-order mark, joined by `cat`: the later marks are blanks, not a bad token
// that would make a phantom rejected game, at every chunk size.
TEST(FormatsCli, PgnByteOrderMarksBetweenGamesAreBlanks) {
  TempDir dir;
  std::string game = "\xEF\xBB\xBF[Event \"a\"]\n\n1. e4 *\n";
  write_file(dir / "joined.pgn", game + game + game);
  for (const char* chunk : {"1", "7", "1000"}) {
    CliResult r = run_cli({"normalize", "-q", "--chunk-size", chunk, dir / "joined.pgn", "--summary", dir / "s.json",
                           "--force"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, std::string(kStart) + "\n" + kAfterE4 + "\n" + kStart + "\n" + kAfterE4 + "\n" + kStart + "\n" +
                         kAfterE4 + "\n") << chunk;
    EXPECT_NE(read_file(dir / "s.json").find("\"records\": 6, \"valid\": 6, \"invalid\": 0"), std::string::npos);
  }
}

// PGN without tags is cut after finished games (pgn/game_reader.h find_last_game_end): the same positions,
// rejects (line, column, game number) and summary at every chunk size, including games split across chunks and
// result tokens inside comments and variations that must not count as game ends.
TEST(FormatsCli, PgnWithoutTagsGivesTheSameOutputAtEveryChunkSize) {
  TempDir dir;
  std::string pgn;
  for (int i = 0; i < 30; ++i) {
    pgn += "1. e4 {a\n1-0\n} e5 (1... c5 1-0\n) 2. Nf3 Nc6 ";
    pgn += i % 7 == 3 ? "3. Ke3 *\n\n" : i % 2 ? "3. Bb5 a6 1-0\n\n" : "3. Bc4 *\n";
  }
  write_file(dir / "t.pgn", pgn);
  std::string expected_out, expected_rejects, expected_summary;
  for (const char* chunk : {"2097152", "1", "9", "64", "333"}) {
    CliResult r = run_cli({"normalize", "-q", "--chunk-size", chunk, "--threads", "2", dir / "t.pgn", "--rejects",
                           dir / "rej.jsonl", "--summary", dir / "s.json", "--force"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string summary = read_file(dir / "s.json");
    summary.erase(summary.find("\"seconds\""));
    if (expected_out.empty()) {
      expected_out = r.out;
      expected_rejects = read_file(dir / "rej.jsonl");
      expected_summary = summary;
      EXPECT_NE(summary.find("\"records\": 173, \"valid\": 169, \"invalid\": 4"), std::string::npos) << summary;
      EXPECT_NE(expected_rejects.find("\"line\":17,\"column\":17,\"code\":\"ILLEGAL_MOVE\""), std::string::npos)
          << expected_rejects;
      EXPECT_NE(expected_rejects.find("\"game\":4,"), std::string::npos) << expected_rejects;
      continue;
    }
    EXPECT_EQ(r.out, expected_out) << chunk;
    EXPECT_EQ(read_file(dir / "rej.jsonl"), expected_rejects) << chunk;
    EXPECT_EQ(summary, expected_summary) << chunk;
  }
}

// A replayed game may not run a clock past what a FEN holds: it is rejected (CLOCK_RANGE at the move that
// would), never written with a clock fenmill's own reader refuses.
TEST(FormatsCli, PgnClocksPastTheFenLimitsRejectTheGame) {
  TempDir dir;
  write_file(dir / "c.pgn",
             "[Event \"a\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 65534 10\"]\n\n1. Kd1 Kd7 *\n\n"
             "[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1000000\"]\n\n1. Kd1 Kd7 *\n\n"
             "[Event \"c\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 65534 999999\"]\n\n1... Ke7 *\n");
  CliResult r = run_cli({"normalize", "-q", dir / "c.pgn", "--rejects", dir / "rej.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "4k3/8/8/8/8/8/8/4K3 b - - 65534 999999\n8/4k3/8/8/8/8/8/4K3 w - - 65535 1000000\n");
  std::vector<std::string> rejects = split_lines(read_file(dir / "rej.jsonl"));
  ASSERT_EQ(rejects.size(), 2u);
  EXPECT_NE(rejects[0].find("\"line\":4,\"column\":8,\"code\":\"CLOCK_RANGE\""), std::string::npos) << rejects[0];
  EXPECT_NE(rejects[1].find("\"code\":\"CLOCK_RANGE\""), std::string::npos) << rejects[1];
  EXPECT_NE(rejects[1].find("\"game\":2,\"ply\":2"), std::string::npos) << rejects[1];
  r = run_cli_stdin({"validate", "-"}, r.out);
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

// CLOCK_RANGE is both a FEN code and a PGN game code: the summary and stats name it once, with both counts.
TEST(FormatsCli, ACodeOfFenAndPgnIsOneKeyOfInvalidByCode) {
  TempDir dir;
  write_file(dir / "c.fen", "4k3/8/8/8/8/8/8/4K3 w - - 70000 1\n");
  write_file(dir / "c.pgn", "[Event \"a\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w - - 65535 1\"]\n\n1. Rh2 *\n");
  CliResult r = run_cli({"normalize", "-q", dir / "c.fen", dir / "c.pgn", "--summary", dir / "s.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string summary = read_file(dir / "s.json");
  EXPECT_NE(summary.find("\"invalid_by_code\": {\"CLOCK_RANGE\": 2}"), std::string::npos) << summary;
  EXPECT_EQ(sum_by_code(summary), json_number(summary, "invalid"));
  r = run_cli({"stats", "-q", dir / "c.fen", dir / "c.pgn"});
  EXPECT_NE(r.out.find("\"invalid_by_code\": {\"CLOCK_RANGE\": 2}"), std::string::npos) << r.out;
}

TEST(FormatsCli, XiangqiVariantAutoAndLetters) {
  TempDir dir;
  write_file(dir / "x.fen",
             "9/9/r4khPH/6P2/5P3/5p3/3r5/5h3/2Cp1pp2/1RCcK3c w - - - 1\n"
             "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1\n" +
             std::string(kStart) + "\n"
             "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB2R w - - 0 1\n"  // 10 points
             "2k6/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n");  // Black's general on c9, outside the palace
  CliResult r = run_cli({"normalize", "-q", "--variant", "auto", dir / "x.fen", "--rejects", dir / "rej.jsonl"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "9/9/r4knPN/6P2/5P3/5p3/3r5/5n3/2Cp1pp2/1RCcK3c w - - 0 1\n"
                   "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n" +
                       std::string(kStart) + "\n");
  std::string rejects = read_file(dir / "rej.jsonl");
  EXPECT_NE(rejects.find("\"line\":4,\"column\":59,\"code\":\"RANK_SUM\""), std::string::npos) << rejects;
  EXPECT_NE(rejects.find("\"line\":5,\"column\":1,\"code\":\"XQ_GENERAL_PALACE\""), std::string::npos) << rejects;
  r = run_cli({"normalize", "-q", "--variant", "xiangqi", "--xiangqi-letters", "document", dir / "x.fen"});
  EXPECT_EQ(split_lines(r.out).at(1), "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
  // A Xiangqi binary file round-trips, and says its variant in the header.
  r = run_cli({"convert", "-q", "--variant", "xiangqi", dir / "x.fen", "-o", dir / "x.bin"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"convert", "-q", dir / "x.bin"});
  EXPECT_EQ(split_lines(r.out).size(), 2u);
  r = run_cli({"convert", "-q", "--variant", "auto", dir / "x.fen", "-o", dir / "y.bin"});
  EXPECT_EQ(r.exit_code, 2);
  // The output's extension picks the format in any case; a .zst name is refused (fenmill writes no zstd).
  r = run_cli({"convert", "-q", dir / "x.bin", "-o", dir / "UP.EPD"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(split_lines(read_file(dir / "UP.EPD")).at(0).ends_with(" w - -")) << read_file(dir / "UP.EPD");  // EPD: no clocks
  r = run_cli({"convert", "-q", dir / "x.bin", "-o", dir / "out.fen.zst"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not compressed"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.fen.zst"));
  // Binary to binary needs no --variant either: the output takes the first input's (it was refused).
  r = run_cli({"convert", "-q", dir / "x.bin", "--to", "bin", "-o", dir / "x2.bin"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir / "x2.bin"), read_file(dir / "x.bin"));
  // The file's own variant wins over nothing: a --variant that contradicts it is an error, not ignored.
  r = run_cli({"convert", "-q", "--variant", "chess", dir / "x.bin"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("x.bin: the file holds Xiangqi records, not chess"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  // Into a binary output (one variant, auto refused) the advice is the variant alone: "or auto" would be
  // refused in turn, and a chess file after a Xiangqi one cannot join it at all.
  write_file(dir / "c.fen", std::string(kStart) + "\n");
  ASSERT_EQ(run_cli({"convert", "-q", dir / "c.fen", "-o", dir / "c.bin"}).exit_code, 0);
  r = run_cli({"convert", "-q", dir / "x.bin", dir / "c.bin", "-o", dir / "both.bin"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("c.bin: the file holds chess records, not Xiangqi (a binary output holds one variant"),
            std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("or auto"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "both.bin"));
  r = run_cli({"convert", "-q", "--variant", "chess", dir / "x.bin", "--to", "bin", "-o", dir / "c2.bin"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("use --variant xiangqi, and"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("or auto"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "c2.bin"));
  // From standard input too (`zstd -dc x.bin.zst | fenmill dedup - -o y.bin`): its header is peeked before the
  // run, the stream kept for it. (It was refused: "use --variant xiangqi".) A text stream stays chess.
  for (const char* name : {"-", "/dev/stdin"}) {
    r = run_cli_stdin({"dedup", "-q", name, "--to", "bin"}, read_file(dir / "x.bin"));
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_EQ(r.out, read_file(dir / "x.bin")) << name;
  }
  r = run_cli_stdin({"convert", "-q", "-", "--to", "bin"}, std::string(kStart) + "\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, read_file(dir / "c.bin"));
  // stats counts Xiangqi positions too: Red moves as "w"; neither castling nor en passant exists.
  for (const char* input : {"x.fen", "x.bin"}) {
    r = run_cli({"stats", "-q", "--variant", "xiangqi", dir / input});
    EXPECT_NE(r.out.find("\"side_to_move\": {\"w\": 2, \"b\": 0}"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"with_castling_rights\": 0,\n  \"with_ep_square\": 0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"pieces_on_board\": {\"19\": 1, \"32\": 1}"), std::string::npos) << r.out;
  }
}

// PGN games are replayed as chess: under --variant xiangqi every Xiangqi game used to be rejected move by move
// (ILLEGAL_MOVE), as if the file were corrupt. It is a usage error now, before any output.
// A rejected Xiangqi record names its points (files a-i, ranks 0-9 from Red's side), as a chess one names its
// squares, and the flipped-board hint speaks of palaces, not of White's pawns.
TEST(FormatsCli, XiangqiRejectsNameTheirPoints) {
  TempDir dir;
  write_file(dir / "x.fen", "3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1\n4K4/9/9/9/9/9/9/9/9/3k5 w - - 0 1\n");
  CliResult r = run_cli({"validate", "-q", "--variant", "xiangqi", "x.fen"}, dir.path().string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out,
            "x.fen:1:1: OPPOSITE_CHECK: the side not to move is in check (squares: d0 d9)\n"
            "x.fen:2:1: XQ_GENERAL_PALACE: a general stands outside its palace (files d-f, ranks 0-2 Red / 7-9 Black) "
            "(squares: d0 e9) (hint: each general stands in the other side's palace: the board may be written from "
            "Black's side, or the colours swapped)\n");
}

// Read as chess (the default), a Xiangqi file had every record rejected at its first '9' or its tenth rank with
// no word of why. A valid Xiangqi record now says so; other rejections are worded as before, and a run that reads
// Xiangqi gives no such hint.
TEST(FormatsCli, AXiangqiRecordReadAsChessSaysSo) {
  TempDir dir;
  write_file(dir / "x.fen",
             "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n"
             "3k5/9/9/9/9/9/9/9/9/4K4\n"
             "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n"  // facing generals: not a valid Xiangqi position either
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0\n");
  CliResult r = run_cli({"validate", "-q", "x.fen"}, dir.path().string());
  EXPECT_EQ(r.exit_code, 1);
  const std::string hint = " (hint: the record is a valid Xiangqi position: --variant xiangqi or auto reads it)\n";
  EXPECT_EQ(r.out,
            "x.fen:1:4: BAD_PIECE: invalid character in the piece placement" + hint +
            "x.fen:2:3: RANK_SUM: a rank does not sum to 8 squares" + hint +
            "x.fen:3:3: RANK_SUM: a rank does not sum to 8 squares\n"
            "x.fen:4:55: FIELD_COUNT: a FEN has 1, 2, 3, 4 or 6 fields\n");
  for (const char* variant : {"xiangqi", "auto"}) {
    r = run_cli({"validate", "-q", "--variant", variant, "x.fen"}, dir.path().string());
    EXPECT_EQ(r.out.find("hint"), std::string::npos) << variant << ": " << r.out;
  }
}

// A Xiangqi game with a [FEN] tag (as CCPD writes them) was rejected as BAD_FEN "a rank does not sum to 8 squares",
// every game of the file, with no word of Xiangqi. A chess [FEN] tag that is invalid gets no hint.
TEST(FormatsCli, AXiangqiPgnFenTagSaysSo) {
  TempDir dir;
  write_file(dir / "g.pgn",
             "[Game \"Chinese Chess\"]\n[FEN \"4k4/4a4/5a3/3PR4/6r2/9/2pp5/9/4A4/4KA3 b - - 0 1\"]\n\n1. e8d7 *\n\n"
             "[FEN \"4k3/8/8/8/8/8/8/4K2 w - - 0 1\"]\n\n1. Kd2 *\n");
  for (const char* variant : {"chess", "auto"}) {
    CliResult r = run_cli({"validate", "-q", "--variant", variant, "g.pgn"}, dir.path().string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out,
              "g.pgn:2:7: BAD_FEN: game 1: the [FEN] tag is not a valid position (RANK_SUM: a rank does not sum to 8 "
              "squares) (hint: a Xiangqi position: games are replayed as chess; fenmill reads Xiangqi positions, not "
              "games)\n"
              "g.pgn:6:7: BAD_FEN: game 2: the [FEN] tag is not a valid position (RANK_SUM: a rank does not sum to 8 "
              "squares)\n") << variant;
  }
}

// EPD records (operations after the fourth field) in a file read as FEN were rejected as a bad halfmove clock with no
// word of EPD; now the message says to read them as EPD. A record that is bad either way, and a CSV field, get no hint.
TEST(FormatsCli, EpdOperationsInAFenFileSaySo) {
  TempDir dir;
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
  write_file(dir / "ops.fen", start + " bm e4; id \"x\";\n" + start + " hmvc 0; fmvn 1;\n" + start + " 0 1 c0 \"a\";\n" +
                                  start + " x 1\n" + start + " 0 0\n");
  CliResult r = run_cli({"validate", "-q", "ops.fen"}, dir.path().string());
  EXPECT_EQ(r.exit_code, 1);
  const std::vector<std::string> lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 5u) << r.out;
  const std::string hint = " (hint: the record is valid read as EPD, with operations: name the file .epd or pass --from epd)";
  EXPECT_EQ(lines[0], "ops.fen:1:54: BAD_HALFMOVE: halfmove clock must be a non-negative integer" + hint);
  EXPECT_TRUE(lines[1].ends_with(hint)) << lines[1];
  EXPECT_EQ(lines[2], "ops.fen:3:58: TRAILING_TEXT: unexpected text after the last FEN field" + hint);
  EXPECT_EQ(lines[3].find("hint"), std::string::npos) << lines[3];
  EXPECT_EQ(lines[4].find("hint"), std::string::npos) << lines[4];
  // As the hint says: read as EPD, the first three are valid (and "x 1", an operation without its ';').
  r = run_cli({"validate", "-q", "--from", "epd", "ops.fen"}, dir.path().string());
  EXPECT_EQ(r.out, "ops.fen:5:56: BAD_FULLMOVE: fullmove number must be a positive integer\n");
  write_file(dir / "ops.csv", "fen\n\"" + start + " bm e4;\"\n");
  r = run_cli({"validate", "-q", "ops.csv"}, dir.path().string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out.find("hint"), std::string::npos) << r.out;
}

// A Xiangqi game without a [FEN] tag, in ICCS or Chinese notation, read in a chess run was rejected game by game
// with no word of Xiangqi. Said when it is certain: a [Variant "xiangqi"] or [Game "Chinese Chess"] tag, a Chinese
// move verb (平 进 進 退), full-width or ASCII WXF (Ｃ２＝５, C2.5), or ICCS moves with two to or from points no chessboard has; a chess UCI game with one
// mistyped move, or a chess game with a Game tag of its own, gets no hint.
TEST(FormatsCli, AXiangqiGameSaysSo) {
  TempDir dir;
  write_file(dir / "g.pgn",
             "[Event \"iccs\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 *\n\n"
             "[Variant \"Xiangqi\"]\n\n1. h2e2 *\n\n"
             "[Game \"Chinese Chess\"]\n\n1. C2-E2 H8-G7 *\n\n"
             "[Event \"chinese\"]\n\n1. \xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94 "
             "\xE9\xA6\xAC" "8\xE9\x80\xB2" "7 *\n\n"
             "[Event \"uci\"]\n\n1. e2e4 e7e9 2. g1f3 *\n\n"
             "[Event \"wxf\"]\n\n1. \xEF\xBC\xA3\xEF\xBC\x92\xEF\xBC\x9D\xEF\xBC\x95 *\n\n"
             "[Game \"Chess\"]\n\n1. e4 e5 2. Ke3 *\n\n"
             "[Event \"ascii wxf\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *\n\n"
             "[Event \"ascii wxf, front piece\"]\n\n1. +R.5 *\n\n"
             "[Event \"chess, rank given\"]\n\n1. R1a3 *\n");
  CliResult r = run_cli({"validate", "-q", "g.pgn"}, dir.path().string());
  EXPECT_EQ(r.exit_code, 1);
  const std::vector<std::string> lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 10u) << r.out;
  const std::string hint = " (hint: a Xiangqi game: games are replayed as chess; fenmill reads Xiangqi positions (FEN, "
                           "EPD), not games)";
  for (std::size_t i = 0; i < 4; ++i) EXPECT_TRUE(lines[i].ends_with(hint)) << lines[i];
  EXPECT_NE(lines[1].find("UNSUPPORTED_VARIANT"), std::string::npos) << lines[1];
  EXPECT_NE(lines[3].find("BAD_TOKEN"), std::string::npos) << lines[3];
  EXPECT_EQ(lines[4].find("hint"), std::string::npos) << lines[4];
  EXPECT_EQ(lines[6].find("hint"), std::string::npos) << lines[6];
  EXPECT_TRUE(lines[5].ends_with(hint)) << lines[5];  // full-width WXF
  EXPECT_TRUE(lines[7].ends_with(hint)) << lines[7];  // ASCII WXF
  EXPECT_TRUE(lines[8].ends_with(hint)) << lines[8];
  EXPECT_EQ(lines[9].find("hint"), std::string::npos) << lines[9];
}

TEST(FormatsCli, XiangqiVariantRefusesPgnInput) {
  TempDir dir;
  write_file(dir / "xq.pgn", "[Event \"x\"]\n\n1. h2e2 h9g7 *\n");
  write_file(dir / "xq.txt", "1. h2e2 h9g7 *\n");  // sniffed as PGN
  for (const char* name : {"xq.pgn", "xq.txt"}) {
    CliResult r = run_cli({"normalize", "-q", "--variant", "xiangqi", dir / name, "-o", dir / "out.fen"});
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_NE(r.err.find(std::string(name) + ": PGN games are replayed as chess"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "out.fen"));
  }
  // Stdin is named <stdin>, as in its rejects and validate's lines ("-: PGN games ..." before).
  CliResult r = run_cli_stdin({"normalize", "-q", "--variant", "xiangqi", "-"}, read_file(dir / "xq.pgn"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("fenmill: error: <stdin>: PGN games are replayed as chess"), std::string::npos) << r.err;
  // Chess rules for a PGN under --variant auto, as before: a Xiangqi move is a rejected game, not a usage error.
  r = run_cli({"normalize", "-q", dir / "xq.pgn"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

// A JSON array of objects (what many exporters write as .json) is not JSON Lines: it was read as PGN, one BAD_TAG
// "game" for the whole file. Now it is refused, saying how to turn it into JSON Lines; a PGN tag stays PGN.
TEST(FormatsCli, AJsonArrayIsRefusedWithAHint) {
  TempDir dir;
  const std::string array = "\xEF\xBB\xBF[\n  {\"fen\": \"" + std::string(kStart) + "\"}\n]\n";
  write_file(dir / "puzzles.json", array);
  CliResult r = run_cli({"normalize", "-q", dir / "puzzles.json", "-o", dir / "out.fen"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("puzzles.json: a JSON array, not JSON Lines (one object per line): jq -c '.[]'"),
            std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.fen"));
  r = run_cli_stdin({"validate", "-"}, "[{\"fen\": \"x\"}]");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "fenmill: error: <stdin>: a JSON array, not JSON Lines (one object per line): jq -c '.[]' turns one "
                   "into the other\n");  // stdin is <stdin> in every message, as in the rejects ("-" before)
  r = run_cli_stdin({"normalize", "-q", "-"}, "[ Event \"a\"]\n\n1. e4 *\n");  // a tag, however spaced
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(kStart) + "\n" + kAfterE4 + "\n");
}

TEST(FormatsCli, AutoSniffsTheFormatOfStdinAndUnknownNames) {
  std::string pgn = "[Event \"a\"]\n\n1. e4 *\n";
  CliRun run;
  run.args = {"normalize", "-q", "-"};
  run.stdin_bytes = pgn;
  EXPECT_EQ(run_cli(run).out, std::string(kStart) + "\n" + kAfterE4 + "\n");
  run.stdin_bytes = "{\"fen\": \"" + std::string(kStart) + "\"}\n";
  EXPECT_EQ(run_cli(run).out, std::string(kStart) + "\n");
  run.stdin_bytes = "id\tFEN\nx\t" + std::string(kStart) + "\n";
  EXPECT_EQ(run_cli(run).out, std::string(kStart) + "\n");
  run.stdin_bytes = std::string(kStart) + "\n";
  EXPECT_EQ(run_cli(run).out, std::string(kStart) + "\n");
  run.stdin_bytes = "1. e4 1-0\n\n1.d4 *\n";  // PGN without tags (a FEN line cannot start with a move number)
  EXPECT_EQ(run_cli(run).out, std::string(kStart) + "\n" + kAfterE4 + "\n" + kStart + "\n" +
                                  "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n");
  // PGN may open with a comment or an escape line (the ECO file opens with a {} comment) before its first tag.
  for (std::string opening : {"{ ECO openings }\n", "% escaped line\n", "; comment\n"}) {
    run.stdin_bytes = opening + pgn;
    EXPECT_EQ(run_cli(run).out, std::string(kStart) + "\n" + kAfterE4 + "\n") << opening;
    run.stdin_bytes = opening + "1. e4 *\n";  // movetext without tags
    EXPECT_EQ(run_cli(run).out, std::string(kStart) + "\n" + kAfterE4 + "\n") << opening;
  }
  // ...but a FEN file that opens with such a note stays FEN: its positions are written, the note is a reject.
  for (std::string opening : {"; my positions\n", "% list\n; two notes\n", "{ note }\n"}) {
    run.stdin_bytes = opening + "1k6/8/8/8/8/8/8/4K3 w - - 0 1\n" + kStart + "\n";
    CliResult r = run_cli(run);
    EXPECT_EQ(r.out, "1k6/8/8/8/8/8/8/4K3 w - - 0 1\n" + std::string(kStart) + "\n") << opening;
    EXPECT_EQ(r.exit_code, 0);
  }
  run.stdin_bytes = "{ \"fen\": \"" + std::string(kStart) + "\"}\n";
  EXPECT_EQ(run_cli(run).out, std::string(kStart) + "\n");
  // The format is sniffed from the same bytes at every chunk size (it used to be the first chunk: at 1 byte, a
  // blank first line made this PGN FEN, and a note line made this FEN PGN).
  for (const char* chunk : {"1", "1000"}) {
    run.args = {"normalize", "-q", "--chunk-size", chunk, "-"};
    run.stdin_bytes = "\n" + pgn;
    EXPECT_EQ(run_cli(run).out, std::string(kStart) + "\n" + kAfterE4 + "\n") << chunk;
    run.stdin_bytes = "; note\n" + std::string(kStart) + "\n";
    EXPECT_EQ(run_cli(run).out, std::string(kStart) + "\n") << chunk;
  }
  // EPD: a ';' in the first record, after a note line too (read as FEN, every record with operations was
  // rejected, its first operation taken for the halfmove clock).
  const std::string epd = "4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id \"a\";\n4k3/8/8/8/8/8/3K4/8 b - - 0 1; id \"b\";\n";
  for (std::string opening : {"", "% notes\n"}) {
    run.args = {"normalize", "-q", "--to", "epd", "-"};
    run.stdin_bytes = opening + epd;
    CliResult r = run_cli(run);
    EXPECT_EQ(r.out, "4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id \"a\";\n4k3/8/8/8/8/8/3K4/8 b - - id \"b\";\n") << opening;
    EXPECT_EQ(r.exit_code, 0) << opening;
  }
  run.args = {"normalize", "-q", "--from", "fen", "-"};  // an explicit --from is obeyed: a PGN tag is not a FEN
  run.stdin_bytes = pgn;
  EXPECT_EQ(run_cli(run).out, "");
}

// A binary file is recognised by its magic number when its name says nothing: a file, a .zst of it, stdin.
TEST(FormatsCli, AutoRecognisesBinaryByContent) {
  TempDir dir;
  write_file(dir / "p.fen", std::string(kStart) + "\n" + kAfterE4 + "\n");
  CliResult r = run_cli({"convert", "-q", dir / "p.fen", "-o", dir / "p.bin"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string binary = read_file(dir / "p.bin");
  ASSERT_EQ(binary.substr(0, 8), "FENMILLB");
  write_file(dir / "p.dat", binary);
  const std::string expected = std::string(kStart) + "\n" + kAfterE4 + "\n";
  r = run_cli({"normalize", "-q", dir / "p.dat"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  CliRun run;
  run.args = {"normalize", "-q", "-"};
  run.stdin_bytes = binary;
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  // The same bytes under an explicit text format are refused, not read as one garbled FEN.
  run.args = {"validate", "-q", "--from", "fen", "-"};
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("<stdin>: a fenmill binary file"), std::string::npos) << r.err;
  // Stdin mixed with a text file is refused like any binary + text mix, naming one input of each kind.
  run.args = {"normalize", "-q", "-", dir / "p.fen"};
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("binary and text inputs cannot be mixed in one run: <stdin> is binary, " + (dir / "p.fen") +
                       " is text\n"),
            std::string::npos)
      << r.err;
  r = run_cli({"normalize", "-q", dir / "p.fen", dir / "p.dat", dir / "p.bin"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(": " + (dir / "p.dat") + " is binary, " + (dir / "p.fen") + " is text\n"), std::string::npos) << r.err;
}

// A binary file under a text name (x.fen, x.csv, ...) was read as text: every record rejected as BAD_PIECE and
// the like, exit 0 from normalize, and no word on why. Now refused with what to do, however its bytes are read
// (a worker's byte range, mapped whole, a small chunk), and nothing is published.
TEST(FormatsCli, BinaryFileUnderATextNameIsRefused) {
  TempDir dir;
  write_file(dir / "p.fen", std::string(kStart) + "\n" + kAfterE4 + "\n");
  ASSERT_EQ(run_cli({"convert", "-q", dir / "p.fen", "-o", dir / "p.bin"}).exit_code, 0);
  const std::string binary = read_file(dir / "p.bin");
  for (const char* name : {"x.fen", "x.epd", "x.csv", "x.jsonl", "x.pgn"}) {
    write_file(dir / name, binary);
    for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"--mmap"}, {"--chunk-size", "1"}}) {
      std::vector<std::string> args = {"normalize", "-q", dir / "p.fen", dir / name, "-o", dir / "out.fen"};
      args.insert(args.end(), extra.begin(), extra.end());
      CliResult r = run_cli(args);
      EXPECT_EQ(r.exit_code, 2) << name;
      EXPECT_EQ(r.err, "fenmill: error: " + (dir / name) +
                           ": a fenmill binary file (it starts with FENMILLB), read as text: give it a .bin name or --from bin\n");
      EXPECT_FALSE(std::filesystem::exists(dir / "out.fen")) << name;
    }
  }
  // As the advice says: --from bin reads it.
  CliResult r = run_cli({"normalize", "-q", "--from", "bin", dir / "x.fen"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(kStart) + "\n" + kAfterE4 + "\n");
  // A text file that only mentions the magic later is text.
  write_file(dir / "t.fen", std::string(kStart) + "\nFENMILLB\n");
  EXPECT_EQ(run_cli({"validate", "-q", dir / "t.fen"}).exit_code, 1);
}

// The vector placement reader (AVX-512 or AVX2) and the scalar loop give the same run, end to end
// (FENMILL_NO_SIMD forces the loop; on a CPU with neither both runs take the loop and the test still checks
// determinism).
TEST(FormatsCli, ScalarAndVectorPlacementPathsGiveTheSameRun) {
  // parse_placement_fast's choice: without a vector reader both runs would take the loop.
  if (!placement_avx512_supported() && !placement_avx2_pays_off())
    GTEST_SKIP() << "this CPU has no vector placement reader: both runs would use the scalar loop";
  TempDir dir;
  const std::string sample = std::string(FENMILL_SOURCE_DIR) + "/tests/data/demo.fen";
  std::vector<std::string> outputs;
  for (bool scalar : {false, true}) {
    if (scalar) ::setenv("FENMILL_NO_SIMD", "1", 1);
    std::string tag = scalar ? "scalar" : "vector";
    CliResult r = run_cli({"dedup", "-q", "--count", sample, "--rejects", dir / (tag + ".rej"), "--summary", dir / (tag + ".json")});
    ::unsetenv("FENMILL_NO_SIMD");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    outputs.push_back(r.out + read_file(dir / (tag + ".rej")) + without_seconds(read_file(dir / (tag + ".json"))));
  }
  EXPECT_GT(outputs[0].size(), 1000u);
  EXPECT_TRUE(outputs[0] == outputs[1]) << "the scalar and vector placement paths disagree";
}

TEST(FormatsCli, Chess960CastlingInShredderAndXFen) {
  TempDir dir;
  write_file(dir / "c.fen",
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKR2 w FA - 0 1\n"               // king e1, inner rook f1
             "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\n"            // a Chess960 start
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");          // standard: always KQkq
  CliResult r = run_cli({"normalize", "-q", "--chess960", "--castling", "shredder", dir / "c.fen"});
  EXPECT_EQ(r.out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKR2 w FA - 0 1\n"
                   "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n"
                   "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
  r = run_cli({"normalize", "-q", "--chess960", dir / "c.fen"});
  EXPECT_EQ(r.out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKR2 w FQ - 0 1\n"
                   "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\n"
                   "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
}

}  // namespace
}  // namespace fenmill::cli_test
