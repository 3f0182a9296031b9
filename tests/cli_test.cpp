// Golden tests of the fenmill command line: each case runs the binary on inputs under tests/golden/cli and
// compares stdout, the exit code and every file it wrote with the expected files in tests/golden/cli/expected
// (checked by hand when they were made: they are the specification). The TESTs after the table cover what
// a golden file cannot: refusing to overwrite, failed runs leaving nothing behind, .zst input, the binary
// round trip (decoded by the library and by the CLI), terminals, progress and the summary's arithmetic.
//
// To regenerate the expected files after a deliberate change: FENMILL_UPDATE_GOLDEN=1 build/fenmill_tests
// --gtest_filter='Golden*', then read every changed line with `git diff` before committing.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zstd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <algorithm>
#include <ostream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "cli_util.h"
#include "generated_positions.h"
#include "start_position_block.h"
#include "summary_json.h"
#include "fen/normalize.h"
#include "fen/write.h"
#include "formats/binary_file.h"
#include "formats/binary_record.h"
#include "pipeline/progress.h"

namespace fenmill::cli_test {
namespace {

namespace fs = std::filesystem;

const fs::path kGoldenDir = fs::path(FENMILL_SOURCE_DIR) / "tests" / "golden" / "cli";
const fs::path kExpectedDir = kGoldenDir / "expected";

bool update_golden() {
  const char* v = std::getenv("FENMILL_UPDATE_GOLDEN");
  return v && *v && std::string(v) != "0";
}

std::string golden(const std::string& name) { return read_file(kGoldenDir / name); }
std::string expected(const std::string& name) { return read_file(kExpectedDir / name); }

std::size_t line_count(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

// ---------------------------------------------------------------------------------------------------------
// The golden table.

struct GoldenCase {
  std::string name;
  // "@file" is a path in a fresh temp dir; after the run the file must equal expected/<name>.<file>, or with
  // "@file=other", expected/other. Other arguments are passed as they are, in the golden dir.
  std::vector<std::string> args;
  int exit_code = 0;
  std::string stdin_file;  // fed on stdin when set
  // stdout must equal expected/<name>.out; or expected/<stdout_as> when set; "-" means stdout must be empty.
  std::string stdout_as;
};

std::vector<GoldenCase> golden_cases() {
  const std::string kSame = "normalize_mixed.out";
  return {
      // normalize: valid records normalized (legal ep only, clocks kept, missing fields completed), invalid
      // ones left out, blank lines skipped, exit 0 even with invalid records.
      {"normalize_mixed", {"normalize", "-q", "mixed.fen"}, 0, "", ""},
      {"normalize_chunk7_threads2", {"normalize", "-q", "--chunk-size", "7", "--threads", "2", "mixed.fen"}, 0, "", kSame},
      {"normalize_stdin", {"normalize", "-q", "-"}, 0, "mixed.fen", kSame},
      {"normalize_mmap", {"normalize", "-q", "--mmap", "mixed.fen"}, 0, "", kSame},
      {"normalize_mmap_chunk5", {"normalize", "-q", "--mmap", "--chunk-size", "5", "mixed.fen"}, 0, "", kSame},
      {"normalize_explicit_stdout", {"normalize", "-q", "-o", "-", "mixed.fen"}, 0, "", kSame},
      {"normalize_to_files",
       {"normalize", "-q", "mixed.fen", "-o", "@out.fen=" + kSame, "--rejects", "@rejects.jsonl", "--summary",
        "@summary.json"},
       0, "", "-"},
      {"normalize_fail_on_invalid", {"normalize", "-q", "--fail-on-invalid", "mixed.fen"}, 1, "", kSame},
      {"normalize_fail_on_invalid_clean", {"normalize", "-q", "--fail-on-invalid", "ep.fen"}, 0, "", "ep_legal.out"},
      {"convert_to_fen", {"convert", "-q", "mixed.fen"}, 0, "", kSame},
      {"convert_to_epd", {"convert", "-q", "--to", "epd", "mixed.fen"}, 0, "", ""},
      {"convert_epd_by_extension", {"convert", "-q", "mixed.fen", "-o", "@out.epd=convert_to_epd.out"}, 0, "", "-"},
      {"convert_to_overrides_extension", {"convert", "-q", "--to", "fen", "mixed.fen", "-o", "@out.epd=" + kSame}, 0, "", "-"},
      // dedup: first occurrence wins; duplicates differ only by clocks or by an ep square no pawn can take.
      {"dedup_mixed", {"dedup", "-q", "mixed.fen", "--summary", "@summary.json"}, 0, "", ""},
      {"dedup_count", {"dedup", "-q", "--count", "mixed.fen"}, 0, "", ""},
      {"dedup_key_full", {"dedup", "-q", "--count", "--key", "full", "mixed.fen"}, 0, "", ""},
      {"dedup_key_position", {"dedup", "-q", "--count", "--key", "position", "mixed.fen"}, 0, "", "dedup_count.out"},
      {"dedup_key_placement_stm", {"dedup", "-q", "--count", "--key", "placement-stm", "mixed.fen"}, 0, "", ""},
      {"dedup_key_placement", {"dedup", "-q", "--count", "--key", "placement", "mixed.fen"}, 0, "", ""},
      {"dedup_to_epd", {"dedup", "-q", "--to", "epd", "mixed.fen"}, 0, "", ""},
      // validate: FILE:LINE:COLUMN: CODE: message, or the rejects' JSON Lines; exit 1 if any is invalid.
      {"validate_mixed", {"validate", "-q", "mixed.fen"}, 1, "", ""},
      {"validate_json", {"validate", "-q", "--json", "mixed.fen"}, 1, "", "normalize_to_files.rejects.jsonl"},
      {"validate_clean", {"validate", "-q", "ep.fen"}, 0, "", "-"},
      // stats
      {"stats_mixed", {"stats", "-q", "mixed.fen"}, 0, "", ""},
      {"stats_key_placement", {"stats", "-q", "--key", "placement", "mixed.fen"}, 0, "", ""},
      {"stats_to_file", {"stats", "-q", "mixed.fen", "-o", "@stats.json=stats_mixed.out"}, 0, "", "-"},
      // EPD: operations kept on EPD output, dropped on FEN output; by extension, or --from.
      {"epd_to_fen", {"normalize", "-q", "suite.epd"}, 0, "", ""},
      {"epd_to_epd", {"convert", "-q", "--to", "epd", "suite.epd"}, 0, "", ""},
      {"epd_stdin_from_epd", {"convert", "-q", "--from", "epd", "--to", "epd", "-"}, 0, "suite.epd", "epd_to_epd.out"},
      {"epd_read_as_fen", {"validate", "-q", "--from", "fen", "suite.epd"}, 1, "", ""},
      {"epd_dedup", {"dedup", "-q", "--to", "epd", "suite.epd"}, 0, "", ""},
      // hmvc / fmvn operations become the FEN clocks.
      {"epd_clocks_to_fen", {"normalize", "-q", "clocks.epd"}, 0, "", ""},
      {"epd_clocks_to_epd", {"normalize", "-q", "--to", "epd", "clocks.epd"}, 0, "", ""},
      {"epd_clocks_key_full", {"dedup", "-q", "--count", "--key", "full", "clocks.epd", "mixed.fen"}, 0, "", ""},
      // A BOM, CRLF, blank and NUL-only lines, a NUL inside a record, Latin-1 bytes, no final newline.
      {"crlf_bom_normalize", {"normalize", "-q", "crlf_bom.fen"}, 0, "", ""},
      {"crlf_bom_rejects", {"validate", "-q", "--json", "crlf_bom.fen"}, 1, "", ""},
      {"crlf_bom_chunk1", {"normalize", "-q", "--chunk-size", "1", "--threads", "8", "crlf_bom.fen"}, 0, "", "crlf_bom_normalize.out"},
      {"crlf_bom_mmap_chunk2", {"normalize", "-q", "--mmap", "--chunk-size", "2", "crlf_bom.fen"}, 0, "", "crlf_bom_normalize.out"},
      {"crlf_bom_stdin_chunk3", {"normalize", "-q", "--chunk-size", "3", "-"}, 0, "crlf_bom.fen", "crlf_bom_normalize.out"},
      // Chess960: Shredder or X-FEN in, either out; --chess960 reads KQkq as the outermost rook even with the
      // king on e1.
      {"chess960_default", {"normalize", "-q", "chess960.fen"}, 0, "", ""},
      {"chess960_shredder", {"normalize", "-q", "--castling", "shredder", "chess960.fen"}, 0, "", ""},
      {"chess960_xfen_everywhere", {"normalize", "-q", "--chess960", "chess960.fen"}, 0, "", ""},
      {"chess960_validate", {"validate", "-q", "chess960.fen"}, 1, "", ""},
      {"chess960_dedup", {"dedup", "-q", "--count", "--chess960", "--castling", "shredder", "chess960.fen"}, 0, "", ""},
      // En passant policies. The dedup key always uses the legal ep square, whatever is written.
      {"ep_legal", {"normalize", "-q", "ep.fen"}, 0, "", ""},
      {"ep_legal_explicit", {"normalize", "-q", "--ep", "legal", "ep.fen"}, 0, "", "ep_legal.out"},
      {"ep_pseudo", {"normalize", "-q", "--ep", "pseudo", "ep.fen"}, 0, "", ""},
      {"ep_keep", {"normalize", "-q", "--ep", "keep", "ep.fen"}, 0, "", ""},
      {"ep_dedup_legal", {"dedup", "-q", "--count", "ep.fen"}, 0, "", ""},
      {"ep_dedup_pseudo", {"dedup", "-q", "--count", "--ep", "pseudo", "ep.fen"}, 0, "", ""},
      {"ep_dedup_keep", {"dedup", "-q", "--count", "--ep", "keep", "ep.fen"}, 0, "", ""},
      {"ep_dedup_full_keep", {"dedup", "-q", "--count", "--key", "full", "--ep", "keep", "ep.fen"}, 0, "", "ep_dedup_keep.out"},
      // --repair
      {"repair_normalize",
       {"normalize", "-q", "--repair", "repair.fen", "--summary", "@summary.json", "--rejects", "@rejects.jsonl"}, 0, "", ""},
      {"repair_validate", {"validate", "-q", "--repair", "repair.fen"}, 1, "", ""},
      {"no_repair_validate", {"validate", "-q", "repair.fen"}, 1, "", ""},
      // Several inputs are one stream, in order; line numbers restart in each; "-" may be among them.
      {"several_inputs_dedup",
       {"dedup", "-q", "mixed.fen", "second.fen", "--rejects", "@rejects.jsonl", "--summary", "@summary.json"}, 0, "", ""},
      {"several_inputs_key_placement", {"dedup", "-q", "--count", "--key", "placement", "mixed.fen", "second.fen"}, 0, "", ""},
      {"several_inputs_with_stdin", {"validate", "-q", "second.fen", "-", "ep.fen"}, 1, "mixed.fen", ""},
      // PGN variations: skipped by default; --variations replays each from the position before the move it
      // replaces (parentheses inside {} and ';' comments do not count), an illegal move in one rejects the game,
      // and --plies selects by ply within the game.
      {"pgn_variations", {"normalize", "-q", "--variations", "variations.pgn", "--rejects", "@rejects.jsonl"}, 0, "", ""},
      {"pgn_variations_skipped", {"normalize", "-q", "variations.pgn", "--rejects", "@rejects.jsonl"}, 0, "", ""},
      {"pgn_variations_plies", {"normalize", "-q", "--variations", "--plies", "2:3", "--to", "csv", "--with-tags", "Site", "variations.pgn"}, 0, "", ""},
      {"pgn_variations_dedup", {"dedup", "-q", "--count", "--variations", "variations.pgn"}, 0, "", ""},
      // Empty input.
      {"empty_normalize", {"normalize", "-q", "empty.fen", "--summary", "@summary.json"}, 0, "", "-"},
      {"empty_validate", {"validate", "-q", "empty.fen"}, 0, "", "-"},
      {"empty_stats", {"stats", "-q", "empty.fen"}, 0, "", ""},
      {"empty_mmap", {"dedup", "-q", "--mmap", "empty.fen", "empty.fen"}, 0, "", "-"},
      {"empty_stdin_dedup", {"dedup", "-q", "-"}, 0, "empty.fen", "-"},
  };
}

// gtest prints a failing parameter with this (instead of its bytes).
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.name; }

class Golden : public ::testing::TestWithParam<GoldenCase> {};

void check_or_update(const std::string& what, const std::string& actual, const std::string& expected_name) {
  fs::path path = kExpectedDir / expected_name;
  if (update_golden() && !fs::exists(path)) {
    write_file(path, actual);
    return;
  }
  if (update_golden()) {
    std::string old = read_file(path);
    if (old != actual) write_file(path, actual);
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << "missing " << path << " (FENMILL_UPDATE_GOLDEN=1 makes it)";
  EXPECT_EQ(actual, read_file(path)) << what << " differs from " << path;
}

TEST_P(Golden, MatchesExpectedFiles) {
  const GoldenCase& c = GetParam();
  TempDir tmp;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> files;  // temp path, expected name
  for (const std::string& a : c.args) {
    if (a.empty() || a[0] != '@') {
      args.push_back(a);
      continue;
    }
    std::string spec = a.substr(1);
    std::size_t eq = spec.find('=');
    std::string file = spec.substr(0, eq);
    std::string expected_name = eq == std::string::npos ? c.name + "." + file : spec.substr(eq + 1);
    args.push_back(tmp / file);
    files.emplace_back(tmp / file, expected_name);
  }
  CliRun run;
  run.args = args;
  run.cwd = kGoldenDir.string();
  if (!c.stdin_file.empty()) run.stdin_bytes = golden(c.stdin_file);
  CliResult r = run_cli(run);

  EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
  EXPECT_EQ(r.err, "") << "-q: nothing on stderr";
  if (c.stdout_as == "-")
    EXPECT_EQ(r.out, "");
  else
    check_or_update("stdout", r.out, c.stdout_as.empty() ? c.name + ".out" : c.stdout_as);
  for (const auto& [path, expected_name] : files) {
    ASSERT_TRUE(fs::exists(path)) << path << " was not written";
    std::string actual = read_file(path);
    if (expected_name.find("summary") != std::string::npos) actual = without_seconds(actual);
    check_or_update(path, actual, expected_name);
  }
  // Only the files asked for; no temp file left behind.
  EXPECT_EQ(tmp.entries().size(), files.size());
}

INSTANTIATE_TEST_SUITE_P(Cli, Golden, ::testing::ValuesIn(golden_cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& info) { return info.param.name; });

// ---------------------------------------------------------------------------------------------------------
// Cross-checks of the golden files themselves: the numbers in them must add up.

TEST(GoldenArithmetic, SummariesAddUp) {
  if (update_golden()) GTEST_SKIP() << "updating";
  struct Run {
    const char* summary;
    const char* output;   // written positions, one per line
    const char* rejects;  // one JSON line per invalid record
    bool dedup;
  };
  const Run runs[] = {
      {"normalize_to_files.summary.json", "normalize_mixed.out", "normalize_to_files.rejects.jsonl", false},
      {"dedup_mixed.summary.json", "dedup_mixed.out", "normalize_to_files.rejects.jsonl", true},
      {"several_inputs_dedup.summary.json", "several_inputs_dedup.out", "several_inputs_dedup.rejects.jsonl", true},
      {"repair_normalize.summary.json", "repair_normalize.out", "repair_normalize.rejects.jsonl", false},
  };
  for (const Run& run : runs) {
    SCOPED_TRACE(run.summary);
    std::string s = expected(run.summary);
    std::uint64_t records = json_number(s, "records"), valid = json_number(s, "valid"),
                  invalid = json_number(s, "invalid"), written = json_number(s, "written"),
                  duplicates = json_number(s, "duplicates");
    EXPECT_EQ(records, valid + invalid);
    EXPECT_EQ(sum_by_code(s), invalid);
    EXPECT_EQ(written, line_count(expected(run.output)));
    EXPECT_EQ(invalid, line_count(expected(run.rejects)));
    if (run.dedup) {
      EXPECT_EQ(valid, written + duplicates);
    } else {
      EXPECT_EQ(written, valid);
      EXPECT_EQ(duplicates, 0u);
    }
  }
  // mixed.fen: 26 lines, 2 of them blank.
  EXPECT_EQ(json_number(expected("normalize_to_files.summary.json"), "records"), 24u);
  // The stats agree with the summary and with dedup.
  std::string stats = expected("stats_mixed.out");
  EXPECT_EQ(json_number(stats, "records"), 24u);
  EXPECT_EQ(json_number(stats, "valid") + json_number(stats, "invalid"), 24u);
  EXPECT_EQ(json_number(stats, "distinct_positions"), line_count(expected("dedup_mixed.out")));
  EXPECT_EQ(json_number(stats, "w") + json_number(stats, "b"), json_number(stats, "valid"));
  EXPECT_EQ(json_number(expected("stats_key_placement.out"), "distinct_positions"),
            line_count(expected("dedup_key_placement.out")));
}

// stats --summary had duplicates 0 (and written 0) though stats counts distinct positions: its duplicates are now the
// records dedup with the same --key drops, valid - distinct_positions, also on its summary line; written stays 0.
TEST(GoldenArithmetic, StatsSummaryCountsTheDuplicatesDedupDrops) {
  TempDir tmp;
  const std::string mixed = (kGoldenDir / "mixed.fen").string();
  for (const char* key : {"position", "placement"}) {
    SCOPED_TRACE(key);
    CliResult stats = run_cli({"stats", mixed, "--key", key, "--summary", tmp / "s.json", "--force"});
    ASSERT_EQ(stats.exit_code, 0) << stats.err;
    CliResult dedup = run_cli({"dedup", "-q", mixed, "--key", key, "--summary", tmp / "d.json", "--force"});
    ASSERT_EQ(dedup.exit_code, 0) << dedup.err;
    const std::string s = read_file(tmp / "s.json"), d = read_file(tmp / "d.json");
    EXPECT_GT(json_number(s, "duplicates"), 0u);
    EXPECT_EQ(json_number(s, "duplicates"), json_number(d, "duplicates"));
    EXPECT_EQ(json_number(s, "valid") - json_number(s, "duplicates"), json_number(stats.out, "distinct_positions"));
    EXPECT_EQ(json_number(s, "written"), 0u);
    EXPECT_NE(stats.err.find(" invalid, " + std::to_string(json_number(s, "duplicates")) + " duplicates; "),
              std::string::npos) << stats.err;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Outputs: overwrite protection, failed runs, --to from the extension.

TEST(CliOutput, RefusesToOverwriteWithoutForce) {
  TempDir tmp;
  for (const char* option : {"-o", "--rejects", "--summary"}) {
    SCOPED_TRACE(option);
    std::string path = tmp / "existing";
    write_file(path, "precious\n");
    CliResult r = run_cli({"normalize", "-q", (kGoldenDir / "mixed.fen").string(), option, path});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("already exists"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--force"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(path), "precious\n") << "the existing file is untouched";
    EXPECT_EQ(tmp.entries(), std::vector<std::string>{"existing"}) << "nothing else written";

    r = run_cli({"normalize", "-q", "--force", (kGoldenDir / "mixed.fen").string(), option, path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(read_file(path), "precious\n") << "--force replaces it";
    fs::remove(path);
  }
}

TEST(CliOutput, FailedRunLeavesNoFile) {
  TempDir tmp;
  fs::create_directory(tmp / "dir");
  const std::string mixed = (kGoldenDir / "mixed.fen").string();
  const std::vector<std::string> bad_second_inputs = {tmp / "missing.fen", tmp / "dir"};
  for (const std::string& bad : bad_second_inputs) {
    SCOPED_TRACE(bad);
    for (const char* command : {"normalize", "dedup", "convert", "validate", "stats"}) {
      CliResult r = run_cli({command, "-q", mixed, bad, "-o", tmp / "out.fen", "--rejects", tmp / "rejects.jsonl",
                             "--summary", tmp / "summary.json"});
      EXPECT_EQ(r.exit_code, 2) << command;
      EXPECT_NE(r.err.find(bad), std::string::npos) << "the message names the input: " << r.err;
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(tmp.entries(), std::vector<std::string>{"dir"}) << command << ": no output, no temp file left";
    }
  }
  // An unreadable second input (root reads everything, so only for other users).
  if (::geteuid() != 0) {
    write_file(tmp / "locked.fen", golden("ep.fen"));
    fs::permissions(tmp / "locked.fen", fs::perms::none);
    CliResult r = run_cli({"dedup", "-q", mixed, tmp / "locked.fen", "-o", tmp / "out.fen"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("locked.fen: Permission denied"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(tmp / "out.fen"));
    fs::permissions(tmp / "locked.fen", fs::perms::owner_all);
  }
  // A missing first or later input to stdout: exit 2, a clear message, nothing written (inputs are checked
  // before the run starts, so the first input's records do not stream out first).
  for (std::vector<std::string> inputs : {std::vector<std::string>{tmp / "nope.fen"}, {mixed, tmp / "nope.fen"}}) {
    std::vector<std::string> args = {"normalize"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("nope.fen: No such file or directory"), std::string::npos) << r.err;
  }
  // validate --html into a missing directory stops before the run, not after writing -o.
  CliResult r = run_cli({"validate", "-q", mixed, "-o", tmp / "v.txt", "--html", tmp / "nodir/r.html"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nodir/r.html"), std::string::npos) << r.err;
  EXPECT_EQ(tmp.entries(), std::vector<std::string>{"dir"});
}

// A write error in one output shows up before any output is published: with the rejects or the summary going
// to /dev/full (written at the end, when they are flushed), -o and the HTML report must not appear either.
// Before, -o was renamed into place first and stayed there beside the error.
TEST(CliOutput, AWriteErrorInOneOutputPublishesNone) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  TempDir tmp;
  const std::string mixed = (kGoldenDir / "mixed.fen").string();
  for (const char* failing : {"--rejects", "--summary"}) {
    for (const char* command : {"normalize", "validate"}) {
      std::vector<std::string> args = {command, "-q", mixed, "-o", tmp / "out.fen", failing, "/dev/full"};
      if (std::string(command) == "validate") args.insert(args.end(), {"--html", tmp / "r.html"});
      CliResult r = run_cli(args);
      EXPECT_EQ(r.exit_code, 2) << failing << " " << command;
      EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
      EXPECT_TRUE(tmp.entries().empty()) << failing << " " << command << ": nothing published, no temp file left";
    }
  }
  CliResult r = run_cli({"validate", "-q", mixed, "-o", tmp / "out.fen", "--html", tmp / "r.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(tmp.entries(), (std::vector<std::string>{"out.fen", "r.html"}));
}

// An output that meets the file size limit (`ulimit -f`) is a write error like a full disk: exit 2 and "File too
// large", nothing published, no temporary file left. SIGXFSZ used to kill the run (exit 153) without a word.
TEST(CliOutput, AFileSizeLimitIsAWriteErrorNotASignal) {
  TempDir tmp;
  std::string many;
  for (int i = 1; i <= 4000; ++i) many += "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 " + std::to_string(i) + "\n";
  write_file(tmp / "in.fen", many);  // ~230 KB out; the limit is 64 blocks (of 512 or 1024 bytes, by shell)
  fs::create_directory(tmp / "out");
  const std::string in_path = tmp / "in.fen", in = "'" + in_path + "'", out = tmp / "out", err = tmp / "err";
  for (const std::string& command :
       {"normalize -q " + in + " -o '" + out + "/o.fen' --summary '" + out + "/s.json'",
        "dedup -q --count --key full " + in + " -o '" + out + "/o.fen' --rejects '" + out + "/r.jsonl'",
        "convert -q --to bin " + in + " -o '" + out + "/o.bin'",
        "normalize -q " + in + " > '" + out + "/stdout.fen'"}) {
    SCOPED_TRACE(command);
    int status = std::system(("ulimit -f 64 && '" FENMILL_BINARY "' " + command + " 2> '" + err + "'").c_str());
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), 2) << "153 is SIGXFSZ";
    EXPECT_NE(read_file(err).find("File too large"), std::string::npos) << read_file(err);
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(out)) left.push_back(e.path().filename().string());
    if (command.find("> '") != std::string::npos) {
      EXPECT_EQ(left, std::vector<std::string>{"stdout.fen"});  // the shell's redirection, not fenmill's
      fs::remove(out + "/stdout.fen");
    } else {
      EXPECT_TRUE(left.empty()) << left.front();
    }
  }
}

// One path cannot hold two outputs, and a rejects, summary or HTML file must not replace an input: refused
// before any work, with --force too, nothing written. Devices such as /dev/null may take several outputs.
TEST(CliOutput, OutputsNamingTheSameFileAreRefused) {
  TempDir tmp;
  write_file(tmp / "in.fen", golden("mixed.fen"));
  const std::vector<std::vector<std::string>> cases = {
      {"-o", tmp / "o.fen", "--rejects", tmp / "o.fen"},
      {"-o", tmp / "o.fen", "--summary", tmp.path().string() + "/./o.fen"},
      {"--rejects", tmp / "r.jsonl", "--summary", tmp / "r.jsonl", "-o", tmp / "o.fen"},
      {"--rejects", "-"},  // stdout twice
      {"--rejects", tmp / "in.fen", "-o", tmp / "o.fen"},
      {"--summary", tmp / "in.fen", "-o", tmp / "o.fen"},
  };
  for (const std::vector<std::string>& outputs : cases) {
    for (bool force : {false, true}) {
      std::vector<std::string> args = {"normalize", "-q", tmp / "in.fen"};
      args.insert(args.end(), outputs.begin(), outputs.end());
      if (force) args.push_back("--force");
      CliResult r = run_cli(args);
      EXPECT_EQ(r.exit_code, 2) << outputs[1] << " " << force;
      EXPECT_TRUE(r.err.find("name the same file") != std::string::npos ||
                  r.err.find("is an input of this run") != std::string::npos) << r.err;
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(tmp.entries(), std::vector<std::string>{"in.fen"}) << r.err;
      EXPECT_EQ(read_file(tmp / "in.fen"), golden("mixed.fen"));
    }
  }
  CliResult r = run_cli({"normalize", "-q", tmp / "in.fen", "-o", "/dev/null", "--rejects", "/dev/null"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"normalize", "-q", tmp / "in.fen", "-o", tmp / "in.fen", "--force"});  // in place, on purpose
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(tmp / "in.fen"), expected("normalize_mixed.out"));
}

// Standard output appended to an input (`>> in.txt`) is written in place: the run would read its own output back
// and, on a file read in order, never end (helper-29). Refused before any work; a plain `> other` still runs.
TEST(CliOutput, StandardOutputRedirectedToAnInputIsRefused) {
  TempDir tmp;
  const std::string in = tmp / "in.txt";  // .txt: read in order, like CSV, PGN or a pipe
  write_file(in, golden("mixed.fen"));
  auto shell = [](const std::string& command) {
    int status = std::system(("'" FENMILL_BINARY "' " + command).c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  for (const char* command : {"normalize", "dedup", "convert"}) {
    EXPECT_EQ(shell(std::string(command) + " -q '" + in + "' >> '" + in + "' 2> '" + (tmp / "err") + "'"), 2) << command;
    EXPECT_EQ(read_file(in), golden("mixed.fen")) << command;
    EXPECT_NE(read_file(tmp / "err").find("in.txt is an input of this run and also its output (standard output"), std::string::npos)
        << read_file(tmp / "err");
  }
  // The same through standard input, or with -o naming a descriptor written in place (helper-30).
  for (const std::string& redirect : {"normalize -q - < '" + in + "' >> '" + in + "'",
                                      "normalize -q '" + in + "' -o /dev/fd/3 3>> '" + in + "'",
                                      "normalize -q - -o /dev/fd/3 < '" + in + "' 3>> '" + in + "'"}) {
    EXPECT_EQ(shell(redirect + " 2> '" + (tmp / "err") + "'"), 2) << redirect;
    EXPECT_EQ(read_file(in), golden("mixed.fen")) << redirect;
    EXPECT_NE(read_file(tmp / "err").find("is an input of this run and also its output"), std::string::npos)
        << read_file(tmp / "err");
  }
  EXPECT_EQ(shell("normalize -q '" + in + "' > '" + (tmp / "out.fen") + "'"), 0);
  EXPECT_EQ(read_file(tmp / "out.fen"), expected("normalize_mixed.out"));
}

// A FIFO that is an input and also an output: the run waited for ever (for a writer it was itself, or for an
// end of input its own write end held off) or read back what it wrote. Refused before any work (helper-40).
TEST(CliOutput, AFifoThatIsBothInputAndOutputIsRefused) {
  TempDir tmp;
  const std::string fifo = tmp / "f";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto shell = [&](const std::string& command) {  // (timeout: without the check these never end)
    int status = std::system(("timeout 10 '" FENMILL_BINARY "' " + command + " 2> '" + (tmp / "err") + "'").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  const std::string f = "'" + fifo + "'";
  for (const std::string& command : {"normalize -q " + f + " -o " + f,
                                     "normalize -q " + f + " -o /dev/null --rejects " + f,
                                     "validate -q - --summary " + f + " 0<> " + f,
                                     "normalize -q - 0<> " + f + " 1<> " + f,  // standard input and output
                                     "normalize -q /dev/stdin -o /dev/fd/3 0<> " + f + " 3<> " + f}) {
    EXPECT_EQ(shell(command), 2) << command;
    EXPECT_NE(read_file(tmp / "err").find("is a FIFO (or pipe) that is an input of this run and also its output"),
              std::string::npos) << read_file(tmp / "err");
  }
  // Several outputs to one FIFO, and a file in: runs as before (the FIFO opened read-write, so nothing waits).
  write_file(tmp / "in.fen", "8/8/8/8/8/8/8/K6k w - - 0 1\n8/8/8/8/8/8/8/8 w - - 0 1\n");
  EXPECT_EQ(shell("normalize -q '" + (tmp / "in.fen") + "' -o /dev/fd/3 --rejects " + f + " 3<> " + f), 0)
      << read_file(tmp / "err");
}

// Standard output is one file under all its names, and `> file` makes it that file: a rejects or summary file
// named like the redirection would be renamed over the output. validate and stats write their report there too.
TEST(CliOutput, StandardOutputUnderAnyNameOrRedirectionIsOneOutput) {
  TempDir tmp;
  write_file(tmp / "in.fen", golden("mixed.fen"));
  for (const char* command : {"normalize", "validate", "stats"}) {
    for (const char* name : {"-", "/dev/stdout", "/dev/fd/1"}) {
      CliResult r = run_cli({command, "-q", tmp / "in.fen", "--summary", name});
      EXPECT_EQ(r.exit_code, 2) << command << " " << name;
      EXPECT_NE(r.err.find("-o and --summary name the same file, standard output"), std::string::npos) << r.err;
      EXPECT_EQ(r.out, "");
    }
  }
  CliRun run;
  run.args = {"normalize", "-q", tmp / "in.fen", "--rejects", tmp / "r.jsonl"};
  run.stdout_file = tmp / "r.jsonl";
  CliResult r = run_cli(run);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o and --rejects name the same file (standard output, redirected to that file and "),
            std::string::npos) << r.err;
  EXPECT_EQ(read_file(tmp / "r.jsonl"), "");
  run.args = {"normalize", "-q", tmp / "in.fen", "--rejects", tmp / "other.jsonl"};  // distinct files: fine
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(tmp / "r.jsonl"), expected("normalize_mixed.out"));
}

// `-o /dev/null` is how people time a run: written in place, no --force needed, the device left as it is.
TEST(CliOutput, DeviceOutputIsWrittenInPlace) {
  const std::string mixed = (kGoldenDir / "mixed.fen").string();
  for (std::vector<std::string> args : {std::vector<std::string>{"normalize", "-q", mixed},
                                        {"dedup", "-q", "--count", mixed},
                                        {"convert", "-q", "--to", "bin", mixed},
                                        {"normalize", "-q", "--force", mixed}}) {
    args.insert(args.end(), {"-o", "/dev/null"});
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    EXPECT_EQ(r.out, "");
    struct stat st;
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    ASSERT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null must stay a device";
  }
}

TEST(CliOutput, FormatFromExtension) {
  TempDir tmp;
  const std::string mixed = (kGoldenDir / "mixed.fen").string();
  ASSERT_EQ(run_cli({"normalize", "-q", mixed, "-o", tmp / "a.fen"}).exit_code, 0);
  EXPECT_EQ(read_file(tmp / "a.fen"), expected("normalize_mixed.out"));
  ASSERT_EQ(run_cli({"normalize", "-q", mixed, "-o", tmp / "a.epd"}).exit_code, 0);
  EXPECT_EQ(read_file(tmp / "a.epd"), expected("convert_to_epd.out"));
  ASSERT_EQ(run_cli({"normalize", "-q", mixed, "-o", tmp / "a.txt"}).exit_code, 0);
  EXPECT_EQ(read_file(tmp / "a.txt"), expected("normalize_mixed.out")) << "unknown extension: FEN";
  ASSERT_EQ(run_cli({"normalize", "-q", mixed, "-o", tmp / "a.bin"}).exit_code, 0);
  EXPECT_EQ(read_file(tmp / "a.bin").substr(0, 8), "FENMILLB");
  ASSERT_EQ(run_cli({"normalize", "-q", "--to", "epd", mixed, "-o", tmp / "b.bin"}).exit_code, 0);
  EXPECT_EQ(read_file(tmp / "b.bin"), expected("convert_to_epd.out")) << "--to wins over the extension";
  // .ndjson is JSON Lines, as fenmill reads it: FEN lines were written under it, each rejected when read back
  // (helper-67); and from FEN input it is refused as .jsonl is.
  write_file(tmp / "in.ndjson", "{\"id\": 1, \"fen\": \"8/8/8/8/8/8/8/K6k   w - - 0 1\"}\n");
  ASSERT_EQ(run_cli({"normalize", "-q", tmp / "in.ndjson", "-o", tmp / "out.NDJSON"}).exit_code, 0);
  EXPECT_EQ(read_file(tmp / "out.NDJSON"), "{\"id\": 1, \"fen\": \"8/8/8/8/8/8/8/K6k w - - 0 1\"}\n");
  EXPECT_EQ(run_cli({"normalize", "-q", mixed, "-o", tmp / "c.ndjson"}).exit_code, 2);
  EXPECT_FALSE(fs::exists(tmp / "c.ndjson"));
}

// ---------------------------------------------------------------------------------------------------------
// Binary output.

// Decodes a fenmill binary file back to FEN lines with the library (independent of the pipeline).
std::string binary_to_fen(const std::string& file) {
  BinaryReader reader(file);
  EXPECT_EQ(reader.read_header(), BinaryStatus::kOk);
  std::string text;
  BinaryBlock block;
  BinaryStatus status;
  while ((status = reader.next_block(block)) == BinaryStatus::kOk) {
    for (std::uint32_t i = 0; i < block.count; ++i) {
      Position pos;
      EXPECT_TRUE(decode_record(block.records + i * kRecordSize, pos));
      text += to_fen(pos);
      text += '\n';
    }
  }
  EXPECT_EQ(status, BinaryStatus::kEnd) << binary_status_message(status);
  return text;
}

TEST(CliBinary, RoundTripEqualsFenOutput) {
  TempDir tmp;
  struct Case {
    std::vector<std::string> args;
    std::string fen_expected;
  };
  const std::vector<Case> cases = {
      {{"convert", "mixed.fen"}, "normalize_mixed.out"},
      {{"dedup", "mixed.fen", "second.fen"}, "several_inputs_dedup.out"},
      {{"normalize", "--chunk-size", "5", "--threads", "8", "crlf_bom.fen"}, "crlf_bom_normalize.out"},
      {{"normalize", "--ep", "keep", "ep.fen"}, "ep_keep.out"},
      {{"normalize", "chess960.fen"}, "chess960_default.out"},
      {{"normalize", "empty.fen"}, ""},
  };
  int n = 0;
  for (const Case& c : cases) {
    std::string bin = tmp / ("out" + std::to_string(n++) + ".bin");
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"-q", "-o", bin});
    CliResult r = run_cli(args, kGoldenDir.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string file = read_file(bin);
    const std::string fen = c.fen_expected.empty() ? "" : expected(c.fen_expected);
    EXPECT_EQ(binary_to_fen(file), fen) << c.args[1];
    // And back with the CLI: by the .bin extension, and on stdin with --from bin. Reading normalizes again,
    // so a kept ep square needs --ep keep once more.
    const std::string ep = c.args.size() > 2 && c.args[2] == "keep" ? "keep" : "legal";
    r = run_cli({"convert", "-q", "--ep", ep, bin});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, fen) << c.args[1];
    r = run_cli_stdin({"normalize", "-q", "--ep", ep, "--from", "bin", "-"}, file);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, fen) << c.args[1];
    // The same bytes through a pipe (stdout is not a terminal here).
    args = c.args;
    args.insert(args.end(), {"-q", "--to", "bin"});
    r = run_cli(args, kGoldenDir.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, file) << "binary on stdout equals the file";
  }
}

std::string zstd_compress(const std::string& bytes);  // below

TEST(CliBinary, CorruptInputIsAnError) {
  TempDir tmp;
  ASSERT_EQ(run_cli({"convert", "-q", (kGoldenDir / "mixed.fen").string(), "-o", tmp / "good.bin"}).exit_code, 0);
  const std::string good = read_file(tmp / "good.bin");
  std::string flipped = good;
  flipped[kFileHeaderSize + kBlockHeaderSize + 5] ^= 1;  // a record byte: the block checksum catches it
  write_file(tmp / "flipped.bin", flipped);
  write_file(tmp / "short.bin", good.substr(0, good.size() - kBlockHeaderSize - 7));
  // Cut at a block boundary: only the end block (the last 16 bytes) tells it from a whole file.
  write_file(tmp / "cut.bin", good.substr(0, good.size() - kBlockHeaderSize));
  write_file(tmp / "cut.bin.zst", zstd_compress(good.substr(0, good.size() - kBlockHeaderSize)));
  write_file(tmp / "twice.bin", good + good);  // `cat a.bin b.bin` is not one file
  std::string total = good;
  total[total.size() - 8] ^= 2;
  write_file(tmp / "total.bin", total);
  write_file(tmp / "text.bin", golden("mixed.fen"));
  // The good file with one header byte set: version, variant, record size, flags (low bytes).
  const auto write_header_with = [&](const char* name, std::size_t at, char value) {
    std::string bad = good;
    bad[at] = value;
    write_file(tmp / name, bad);
  };
  write_header_with("version.bin", 8, 2);
  write_header_with("variant.bin", 10, 7);
  write_header_with("size.bin", 12, 36);
  // Flag bit 0 (the end block) is set in every file fenmill writes: "non-zero flags" sent the user the wrong way.
  write_header_with("flags.bin", 14, 3);
  const std::pair<const char*, const char*> cases[] = {
      {"flipped.bin", "checksum"}, {"short.bin", "ends inside a block"}, {"cut.bin", "ends before its end block"},
      {"cut.bin.zst", "ends before its end block"}, {"twice.bin", "bytes follow the end block"},
      {"total.bin", "record total differs"}, {"text.bin", "not a fenmill binary file"},
      {"version.bin", "unsupported format version (version 2; this fenmill reads version 1)"},
      {"flags.bin", "reserved header flag bits are set (only bit 0, the end block, is defined) (flags 3)"},
      {"variant.bin", "unknown variant (variant 7; 0 is chess, 1 Xiangqi)"},
      {"size.bin", "record size does not fit the variant (36 bytes; chess records are 32, Xiangqi 36)"}};
  for (const auto& [name, message] : cases) {
    SCOPED_TRACE(name);
    CliResult r = run_cli({"convert", "-q", tmp / name, "-o", tmp / "out.fen"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(tmp / "out.fen"));
  }
  // A file written before the end block existed (header flags 0, nothing after the last block) still reads.
  std::string legacy = good.substr(0, good.size() - kBlockHeaderSize);
  legacy[14] = 0;
  write_file(tmp / "legacy.bin", legacy);
  CliResult r = run_cli({"convert", "-q", tmp / "legacy.bin"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, run_cli({"convert", "-q", tmp / "good.bin"}).out);
  EXPECT_FALSE(r.out.empty());
}

// A read that fails inside a block's records (here a .bin.zst cut short: zstd's own error) is reported as it is:
// it was replaced by "the file ends inside a block", which sends the user looking for a damaged binary file.
TEST(CliBinary, ReadErrorInsideABlockIsReportedAsItIs) {
  TempDir tmp;
  std::string file;
  append_header(file, BinaryVariant::kChess);
  file += start_position_block();  // 128 KiB of records: past zstd's first block
  file += start_position_block();
  append_end_block(file, 2 * kMaxBlockRecords);
  const std::string compressed = zstd_compress(file);
  write_file(tmp / "cut.bin.zst", compressed.substr(0, compressed.size() - 4));
  CliResult r = run_cli({"convert", "-q", tmp / "cut.bin.zst", "-o", tmp / "out.fen"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cut.bin.zst: zstd: "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("ends inside a block"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "out.fen"));
  write_file(tmp / "whole.bin.zst", compressed);
  r = run_cli({"convert", "-q", tmp / "whole.bin.zst", "-o", tmp / "out.fen"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(split_lines(read_file(tmp / "out.fen")).size(), 2 * kMaxBlockRecords);
}

TEST(CliBinary, RefusesBinaryToTerminal) {
  if (!pty_available()) GTEST_SKIP() << "no pseudo-terminals here";
  CliRun run;
  run.args = {"convert", "--to", "bin", (kGoldenDir / "mixed.fen").string()};
  run.stdout_is_tty = true;
  CliResult r = run_cli(run);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "") << "no binary bytes on the terminal";
  EXPECT_NE(r.err.find("terminal"), std::string::npos) << r.err;
  // Text to a terminal is fine.
  run.args = {"normalize", "-q", (kGoldenDir / "ep.fen").string()};
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1"), std::string::npos) << r.out;
}

// Records are numbered across blocks and chunks like lines: a rejected record's "line" is its 1-based index in
// the file, whatever the chunk size or thread count.
TEST(CliBinary, RejectedRecordsAreNumberedAcrossBlocks) {
  TempDir tmp;
  Position start;
  ASSERT_TRUE(normalize_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", start).ok());
  std::vector<std::uint8_t> valid(kRecordSize), garbage(kRecordSize, 0xFF);
  encode_record(start, valid.data());
  Position check;
  ASSERT_FALSE(decode_record(garbage.data(), check)) << "the garbage record must not decode";
  std::string file;
  append_header(file, BinaryVariant::kChess);
  for (std::size_t block_records : {5u, 4u, 3u}) {
    std::vector<std::uint8_t> block;
    for (std::size_t i = 0; i < block_records; ++i) {
      bool bad = (block_records == 5 && i == 2) || (block_records == 4 && i == 1) || (block_records == 3 && i == 2);
      block.insert(block.end(), (bad ? garbage : valid).begin(), (bad ? garbage : valid).end());
    }
    append_block(file, block.data(), block_records, kRecordSize);
  }
  append_end_block(file, 12);
  write_file(tmp / "x.bin", file);
  for (const char* chunk_size : {"1", "64", "2097152"})
    for (const char* threads : {"1", "2"}) {
      CliResult r = run_cli({"normalize", "-q", "--chunk-size", chunk_size, "--threads", threads, tmp / "x.bin",
                             "--rejects", tmp / "r.jsonl", "-o", tmp / "o.fen", "--force"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      std::vector<std::string> rejects = split_lines(read_file(tmp / "r.jsonl"));
      ASSERT_EQ(rejects.size(), 3u) << chunk_size << " " << threads;
      std::vector<std::string> lines;
      static const std::regex line_field(R"re("line":([0-9]+),)re");
      for (const std::string& rej : rejects) {
        std::smatch m;
        ASSERT_TRUE(std::regex_search(rej, m, line_field)) << rej;
        lines.push_back(m[1]);
      }
      EXPECT_EQ(lines, (std::vector<std::string>{"3", "7", "12"})) << chunk_size << " " << threads;
      EXPECT_NE(rejects[0].find("BAD_RECORD"), std::string::npos) << rejects[0];
      EXPECT_NE(rejects[0].find("\"column\":1,"), std::string::npos) << rejects[0];  // as docs/ERRORS.md says
    }
}

// Whole-number options say what is wrong with the value: "abc" is no number (CLI::Range said "Value abc not in
// range 0 to 1024").
// An empty name for a file to write is refused, as -o '' is: `--rejects ''` (or `--rejects $R` with R unset)
// read as no --rejects at all, and the run went on without writing the rejects it was asked for.
TEST(CliUsage, EmptyOutputNamesAreRefused) {
  TempDir tmp;
  const std::string mixed = (kGoldenDir / "mixed.fen").string();
  const std::vector<std::vector<std::string>> cases = {
      {"normalize", "-q", mixed, "-o", tmp / "o.fen", "--rejects", ""},
      {"dedup", "-q", mixed, "-o", tmp / "o.fen", "--summary", ""},
      {"validate", "-q", mixed, "-o", tmp / "o.txt", "--html", ""},
      {"render", mixed, "--each", ""},
  };
  for (const std::vector<std::string>& args : cases) {
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_EQ(r.err, "fenmill: " + args[args.size() - 2] + ": an empty name is not a file name (--help)\n");
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(tmp.entries().empty()) << args[0];
  }
  // An empty input name too (`"$IN"` with IN unset): it said ": No such file or directory" (helper-67).
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"normalize", "-q", mixed, "", "-o", tmp / "o.fen"}, {"stats", ""}, {"render", ""}}) {
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_EQ(r.err, "fenmill: INPUT: an empty name is not a file name (--help)\n");
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(tmp.entries().empty()) << args[0];
  }
}

TEST(CliUsage, WholeNumberOptionsSayWhatIsWrong) {
  const std::string demo = (kGoldenDir / "mixed.fen").string();
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const Case cases[] = {
      {{"normalize", "--threads", "abc", demo}, "fenmill: --threads: abc is not a whole number (--help)\n"},
      {{"normalize", "--threads", "2x", demo}, "fenmill: --threads: 2x is not a whole number (--help)\n"},
      {{"normalize", "--threads", "-1", demo}, "fenmill: --threads: -1 is out of range (0 to 1024) (--help)\n"},
      {{"dedup", "--chunk-size", "0", demo}, "fenmill: --chunk-size: 0 is out of range (1 to 1073741824) (--help)\n"},
      {{"dedup", "--chunk-size", "99999999999999999999", demo},
       "fenmill: --chunk-size: 99999999999999999999 is out of range (1 to 1073741824) (--help)\n"},
      {{"normalize", "--every", "x", demo}, "fenmill: --every: x is not a whole number (--help)\n"},
  };
  for (const Case& c : cases) {
    CliResult r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, c.err);
  }
  CliResult ok = run_cli({"normalize", "-q", "--threads", "2", "--chunk-size", "100", demo});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  // Decimal, as the check reads it: CLI11's own conversion (strtoll, base 0) read "0100" as 64 and refused "08"
  // ("Could not convert"); a leading '+' passed CLI::Range and passes still.
  for (const char* threads : {"08", "+2", "010"}) {
    ok = run_cli({"normalize", "-q", "--threads", threads, "--chunk-size", "0100", demo});
    EXPECT_EQ(ok.exit_code, 0) << threads << ": " << ok.err;
  }
  ok = run_cli_stdin({"render", "--size", "0100", "-"}, "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("width=\"100\""), std::string::npos) << ok.out.substr(0, 200);
}

TEST(CliBinary, CountNeedsText) {
  CliResult r = run_cli({"dedup", "--count", "--to", "bin", "-o", "-", (kGoldenDir / "mixed.fen").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("--count"), std::string::npos) << r.err;
}

// ---------------------------------------------------------------------------------------------------------
// dedup --count: the kept records wait in a temporary file without a name until the counts are known.

// ~100 k records (tests/generated_positions.h), several MiB of kept text.
std::string kings_and_knight_positions() {
  std::string text;
  for (const std::string& placement : kings_and_knight_placements(/*repeat_every=*/3)) text += placement + " w - - 0 1\n";
  return text;
}

// The expected --count output, from `normalize`'s records: each distinct record once, in first-seen order,
// with its number of occurrences (all clocks are "0 1", so equal text is an equal default key).
std::string counted_by_hand(const std::string& normalized) {
  std::vector<std::string> order;
  std::map<std::string, std::uint64_t> counts;
  for (const std::string& line : split_lines(normalized))
    if (counts[line]++ == 0) order.push_back(line);
  std::string out;
  for (const std::string& line : order) out += line + '\t' + std::to_string(counts[line]) + '\n';
  return out;
}

TEST(CliCount, AgreesWithCountingNormalizedRecordsByHand) {
  TempDir tmp;
  write_file(tmp / "in.fen", kings_and_knight_positions());
  CliResult normalized = run_cli({"normalize", "-q", tmp / "in.fen"});
  ASSERT_EQ(normalized.exit_code, 0) << normalized.err;
  const std::string expected = counted_by_hand(normalized.out);
  ASSERT_GT(expected.size(), std::size_t{2} << 20) << "several of the sink's 1 MiB flushes";
  for (const char* threads : {"1", "2"}) {
    CliResult r = run_cli({"dedup", "-q", "--count", "--threads", threads, "--chunk-size", "100000", tmp / "in.fen"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out == expected) << "threads " << threads;
  }
  // To a file: the output and nothing else is left in its directory.
  CliResult r = run_cli({"dedup", "-q", "--count", tmp / "in.fen", "-o", tmp / "out.fen"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_file(tmp / "out.fen") == expected);
  EXPECT_EQ(tmp.entries(), (std::vector<std::string>{"in.fen", "out.fen"}));
}

TEST(CliCount, TemporaryFileGoesToTmpdirForStdout) {
  TempDir tmp;
  fs::create_directory(tmp / "scratch");
  CliRun run;
  run.args = {"dedup", "-q", "--count", (kGoldenDir / "mixed.fen").string()};
  run.env = {{"TMPDIR", tmp / "scratch"}};
  CliResult r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, read_file(kExpectedDir / "dedup_count.out"));
  EXPECT_TRUE(fs::is_empty(tmp / "scratch"));
  // A TMPDIR that does not exist: a clear error, exit 2, nothing on stdout.
  run.env = {{"TMPDIR", tmp / "missing"}};
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("missing: cannot make a temporary file"), std::string::npos) << r.err;
}

// ---------------------------------------------------------------------------------------------------------
// Compressed input.

std::string zstd_compress(const std::string& bytes) {
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  std::size_t n = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

// A skippable frame (as lichess dumps start with), then the data in two frames.
std::string zstd_with_skippable_frame(const std::string& bytes) {
  std::string out = "\x50\x2A\x4D\x18";  // magic 0x184D2A50, little-endian
  out += std::string("\x05\x00\x00\x00", 4);
  out += "hello";
  out += zstd_compress(bytes.substr(0, bytes.size() / 2));
  out += zstd_compress(bytes.substr(bytes.size() / 2));
  return out;
}

TEST(CliInput, ZstdInput) {
  TempDir tmp;
  const std::string mixed = golden("mixed.fen");
  write_file(tmp / "mixed.fen.zst", zstd_compress(mixed));
  write_file(tmp / "framed.fen.zst", zstd_with_skippable_frame(mixed));
  write_file(tmp / "no_extension", zstd_compress(mixed));  // recognised by its magic number
  for (const char* name : {"mixed.fen.zst", "framed.fen.zst", "no_extension"}) {
    SCOPED_TRACE(name);
    CliResult r = run_cli({"normalize", "-q", "--chunk-size", "100", name}, tmp.path().string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, expected("normalize_mixed.out"));
    r = run_cli({"validate", "-q", name}, tmp.path().string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, std::regex_replace(expected("validate_mixed.out"), std::regex("^mixed\\.fen:", std::regex::multiline), std::string(name) + ":"));
  }
  // On stdin.
  CliResult r = run_cli_stdin({"dedup", "-q", "-", "second.fen"}, zstd_compress(mixed), kGoldenDir.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected("several_inputs_dedup.out"));
  // An .epd.zst is EPD.
  write_file(tmp / "suite.epd.zst", zstd_compress(golden("suite.epd")));
  r = run_cli({"convert", "-q", "--to", "epd", tmp / "suite.epd.zst"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected("epd_to_epd.out"));
  // A corrupt .zst is an I/O error (exit 2), not a stream of invalid records.
  std::string broken = zstd_compress(mixed);
  broken.resize(broken.size() / 2);
  write_file(tmp / "broken.fen.zst", broken);
  r = run_cli({"normalize", "-q", tmp / "broken.fen.zst", "-o", tmp / "out.fen"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("broken.fen.zst"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "out.fen"));
}

// Inputs that are one stream (stdin, a pipe by a name such as /dev/stdin or <(...), a FIFO) and whose format is
// sniffed: the bytes read to sniff them are not lost, and an error met while sniffing (corrupt zstd) is an error.
TEST(CliInput, SniffedStreamsKeepTheirFirstBytesAndErrors) {
  TempDir tmp;
  const std::string mixed = golden("mixed.fen");
  CliResult r = run_cli_stdin({"normalize", "-q", "/dev/stdin"}, mixed);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected("normalize_mixed.out"));
  r = run_cli_stdin({"normalize", "-q", "/dev/stdin"}, zstd_compress(mixed));
  EXPECT_EQ(r.out, expected("normalize_mixed.out"));
  std::string truncated = zstd_compress(mixed);
  truncated.resize(truncated.size() / 2);
  for (const char* name : {"-", "/dev/stdin"}) {
    r = run_cli_stdin({"normalize", "-q", name, "-o", tmp / "out.fen"}, truncated);
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_NE(r.err.find("zstd"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(tmp / "out.fen"));
  }
  // stdin redirected from a file is mapped with --mmap. "- -" is refused: a pipe can be read once, and a
  // redirected file would be read once or twice depending on how it is opened.
  write_file(tmp / "in.fen", mixed);
  for (bool mmap : {false, true}) {
    CliRun run;
    run.args = {"normalize", "-q", "--from", "fen", "-"};
    if (mmap) run.args.push_back("--mmap");
    run.stdin_file = tmp / "in.fen";
    EXPECT_EQ(run_cli(run).out, expected("normalize_mixed.out")) << mmap;
    run.args.push_back("-");
    r = run_cli(run);
    EXPECT_EQ(r.exit_code, 2) << mmap;
    EXPECT_EQ(r.out, "");
  }
}

// A line longer than the default chunk size (2 MiB) is one record, not split.
// Lines end at LF: a file whose lines end in CR alone (classic Mac OS) is one record, rejected for whatever its
// second position's text breaks (here BAD_FULLMOVE at the CR), a message that did not say why. A CR inside a
// record now adds a hint; a CRLF line end's CR, which is no part of the record, does not; nor a CSV field's. An EPD
// record's text after a CR is no operation of it (TRAILING_TEXT); a CSV file's line 1 holding a CR is an error.
TEST(CliInput, ACarriageReturnInsideARecordGetsAHint) {
  TempDir tmp;
  write_file(tmp / "mac.fen", "8/8/8/8/8/8/8/K6k w - - 0 1\r8/8/8/8/8/8/8/K6k b - - 0 1\r");
  write_file(tmp / "crlf.fen", "8/8/8/8/8/8/8/K6k w - - 0 1\r\n8/8/8/8/8/8/8/K6k w - x\r\n");
  write_file(tmp / "quoted.csv", "id,fen\r\n\"a\rb\",8/8/8/8/8/8/8/K6k w - x\r\n");
  // EPD: the next record's placement, starting with a letter, was read as an opcode: two records, one valid.
  write_file(tmp / "mac.epd", "r3k3/8/8/8/8/8/8/4K3 w - - bm Kd2;\rr3k3/8/8/8/8/8/8/4K3 b - - bm Kd7;\r");
  const std::string hint = " (hint: the record holds a carriage return (CR) inside it: lines end at LF, so a file whose "
                           "lines end in CR alone (classic Mac OS) reads as one line; convert it first, e.g. with tr "
                           "'\\r' '\\n')";
  CliResult mac = run_cli({"validate", "-q", "mac.fen"}, tmp.path().string());
  EXPECT_EQ(mac.exit_code, 1);
  EXPECT_EQ(mac.out, "mac.fen:1:28: BAD_FULLMOVE: fullmove number must be a positive integer" + hint + "\n");
  // JSON Lines: one line that is no valid JSON, now with the hint.
  write_file(tmp / "mac.jsonl", "{\"fen\":\"8/8/8/8/8/8/8/K6k w - - 0 1\"}\r{\"fen\":\"8/8/8/8/8/8/8/K6k b - - 0 1\"}\r");
  CliResult jsonl = run_cli({"validate", "-q", "mac.jsonl"}, tmp.path().string());
  EXPECT_EQ(jsonl.exit_code, 1);
  EXPECT_EQ(jsonl.out, "mac.jsonl:1:1: JSON_FIELD: the line is not a JSON object whose FEN field is a string: not valid JSON" +
                           hint + "\n");
  CliResult epd = run_cli({"validate", "-q", "mac.epd"}, tmp.path().string());
  EXPECT_EQ(epd.exit_code, 1);
  EXPECT_EQ(epd.out, "mac.epd:1:36: TRAILING_TEXT: unexpected text after the last FEN field" + hint + "\n");
  // CSV: line 1 is the whole file, read as the header: "0 records", every record lost with no word. An error now.
  write_file(tmp / "mac.csv", "id,fen\r1,8/8/8/8/8/8/8/K6k w - - 0 1\r2,8/8/8/8/8/8/8/K6k b - - 0 1\r");
  for (const char* column : {"fen", "1"}) {
    CliResult csv = run_cli({"normalize", "-q", "mac.csv", "--fen-column", column}, tmp.path().string());
    EXPECT_EQ(csv.exit_code, 2);
    EXPECT_EQ(csv.out, "");
    EXPECT_NE(csv.err.find("mac.csv: line 1 holds a carriage return (CR) outside quotes: lines end at LF, so a file "
                           "whose lines end in CR alone (classic Mac OS, Excel's CSV (Macintosh)) reads as one line"),
              std::string::npos)
        << csv.err;
  }
  CliResult crlf = run_cli({"validate", "-q", "crlf.fen", "quoted.csv"}, tmp.path().string());
  EXPECT_EQ(crlf.exit_code, 1);
  EXPECT_EQ(crlf.out.find("hint"), std::string::npos) << crlf.out;
  EXPECT_EQ(line_count(crlf.out), 2u) << crlf.out;
}

TEST(CliInput, LineLongerThanDefaultChunk) {
  TempDir tmp;
  std::string long_line = "8/8/8/8/8/8/8/8 w - - 0 1 x";
  for (int i = 0; i < (3 << 19); ++i) long_line += "\xC3\xA9";  // é: 3 MiB more, in 2-byte characters
  std::string input = golden("ep.fen") + long_line + "\n" + golden("ep.fen");
  write_file(tmp / "long.fen", input);
  CliResult r = run_cli({"normalize", "-q", "long.fen", "--rejects", "rejects.jsonl", "--summary", "summary.json"},
                        tmp.path().string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected("ep_legal.out") + expected("ep_legal.out"));
  std::string summary = read_file(tmp / "summary.json");
  EXPECT_EQ(json_number(summary, "records"), 11u);
  EXPECT_EQ(json_number(summary, "invalid"), 1u);
  EXPECT_EQ(json_number(summary, "bytes_in"), input.size());
  std::string rejects = read_file(tmp / "rejects.jsonl");
  EXPECT_EQ(rejects.substr(0, 74), R"({"file":"long.fen","line":6,"column":27,"code":"TRAILING_TEXT","message":")");
  EXPECT_EQ(line_count(rejects), 1u);
  // Up to 1 MiB past the column (byte 26 + 1048576 is inside an é: cut before it), then the line's length.
  EXPECT_NE(rejects.find("\"input\":\"" + long_line.substr(0, 26 + (1u << 20) - 1) + "\",\"input_bytes\":" +
                         std::to_string(long_line.size()) + "}\n"),
            std::string::npos)
      << "the reject holds the line's first 1 MiB and its length";
  EXPECT_LT(rejects.size(), (1u << 20) + 200);
}

// normalize of `input`, written to tmp/NAME (and NAME.zst), read the first `ways` of the ways fenmill reads: the file,
// standard input, zstd, a mapping, small chunks on 8 threads, one chunk on 1 thread; each run with its summary and
// rejects. `from`: a --from format, or none.
struct RunOneWay {
  std::string how;  // the run's last argument
  CliResult result;
  std::string summary, rejects;
};
std::vector<RunOneWay> normalize_every_way(const TempDir& tmp, const std::string& name, const std::string& input,
                                           const std::string& from = {}, std::size_t ways = 6) {
  write_file(tmp / name, input);
  write_file(tmp / (name + ".zst"), zstd_compress(input));
  std::vector<RunOneWay> runs;
  for (const std::vector<std::string>& how :
       {std::vector<std::string>{name}, {"-"}, {name + ".zst"}, {name, "--mmap"},
        {name, "--chunk-size", "4096", "--threads", "8"},
        {"-", "--chunk-size", std::to_string(input.size() + 1), "--threads", "1"}}) {
    if (runs.size() == ways) break;
    CliRun run;
    run.args = {"normalize", "-q", "--rejects", "rejects.jsonl", "--summary", "summary.json", "--force"};
    if (!from.empty()) run.args.insert(run.args.end(), {"--from", from});
    run.args.insert(run.args.end(), how.begin(), how.end());
    run.cwd = tmp.path().string();
    if (how[0] == "-") run.stdin_bytes = input;
    CliResult r = run_cli(run);
    runs.push_back({run.args.back(), r, read_file(tmp / "summary.json"), read_file(tmp / "rejects.jsonl")});
  }
  return runs;
}

// Rejects (JSON Lines) without their file names, which differ between a file and standard input.
std::string rejects_but_names(const std::vector<std::string>& rejects) {
  std::string same;
  for (const std::string& rejected : rejects) same += rejected.substr(rejected.find(",\"line\""));
  return same;
}

TEST(CliInput, ALineLongerThan16MiBIsOneRejectFromAFileAPipeOrZstd) {
  // LINE_TOO_LONG however the line is read: mapped, streamed (cut after 16 MiB, the rest read past) or
  // decompressed. The rejects, the output and the summary's bytes_in are the same.
  TempDir tmp;
  const std::string long_line = "8/8/8/8/8/8/8/8 " + std::string((17u << 20) - 16, 'x');
  const std::string input = golden("ep.fen") + long_line + "\r\n" + golden("ep.fen");
  std::vector<std::string> rejects;
  for (RunOneWay& run : normalize_every_way(tmp, "long.fen", input, {}, 3)) {
    SCOPED_TRACE(run.how);
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(run.result.out, expected("ep_legal.out") + expected("ep_legal.out"));
    EXPECT_EQ(json_number(run.summary, "invalid"), 1u);
    EXPECT_EQ(json_number(run.summary, "bytes_in"), input.size());
    std::string& rejected = run.rejects;
    EXPECT_EQ(line_count(rejected), 1u);
    EXPECT_NE(rejected.find(",\"line\":6,\"column\":1,\"code\":\"LINE_TOO_LONG\""), std::string::npos)
        << rejected.substr(0, 200);
    EXPECT_NE(rejected.find("\",\"input_bytes\":" + std::to_string(long_line.size()) + "}"), std::string::npos);
    rejected.erase(0, rejected.find(",\"line\""));  // the file's name differs
    rejects.push_back(rejected);
  }
  EXPECT_EQ(rejects[0], rejects[1]);
  EXPECT_EQ(rejects[0], rejects[2]);
  EXPECT_EQ(rejects[0].size(), std::string(",\"line\":6,\"column\":1,\"code\":\"LINE_TOO_LONG\",\"message\":\"").size() +
                                   std::string("the line is longer than 16 MiB, the longest record fenmill reads\",\"input\":\"").size() +
                                   (1u << 20) + std::string("\",\"input_bytes\":17825792}\n").size());
}

TEST(CliInput, TheLineLengthLimitIsTheSameForAFileAPipeOrZstdWithBlanksAndCrs) {
  // Line 2: exactly 16 MiB, then CRLF: not too long (the CR is the line end's), rejected for what it holds.
  // Line 3: 17 MiB of blanks, then an x: too long, though its first 16 MiB (all streamed input keeps) are blank.
  // Line 4: 16 MiB, a CR inside the line, more: too long, though the kept bytes ended with that CR.
  // Line 5: 17 MiB of blanks: too long, as any line is, not skipped as blank.
  TempDir tmp;
  const std::size_t mib16 = std::size_t{16} << 20;
  const std::string exact = "8/8/8/8/8/8/8/8 " + std::string(mib16 - 16, 'x');
  const std::string input = golden("ep.fen") + exact + "\r\n" + std::string(mib16 + (1u << 20), ' ') + "x\n" +
                            std::string(mib16, 'y') + "\ryy\n" + std::string(mib16 + (1u << 20), ' ') + "\n" +
                            golden("ep.fen");
  std::vector<std::string> rejects;
  for (const RunOneWay& run : normalize_every_way(tmp, "long.fen", input, {}, 3)) {
    SCOPED_TRACE(run.how);
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(run.result.out, expected("ep_legal.out") + expected("ep_legal.out"));
    EXPECT_EQ(json_number(run.summary, "invalid"), 4u);
    const std::string& rejected = run.rejects;
    ASSERT_EQ(line_count(rejected), 4u);
    std::vector<std::string> heads;
    for (std::size_t at = 0; at < rejected.size(); at = rejected.find('\n', at) + 1) {
      const std::size_t from = rejected.find(",\"line\"", at);
      heads.push_back(rejected.substr(from, rejected.find(",\"message\"", from) - from));
    }
    EXPECT_EQ(heads[0].find("LINE_TOO_LONG"), std::string::npos) << heads[0];
    EXPECT_EQ(heads[1], ",\"line\":7,\"column\":1,\"code\":\"LINE_TOO_LONG\"");
    EXPECT_EQ(heads[2], ",\"line\":8,\"column\":1,\"code\":\"LINE_TOO_LONG\"");
    EXPECT_EQ(heads[3], ",\"line\":9,\"column\":1,\"code\":\"LINE_TOO_LONG\"");
    EXPECT_NE(rejected.find("\",\"input_bytes\":" + std::to_string(exact.size()) + "}\n"), std::string::npos);
    rejects.push_back(heads[0] + heads[1] + heads[2] + heads[3]);
    // Line 8's CR lies past the first 1 MiB, the part a reject shows: no CR hint, however the line was read.
    EXPECT_EQ(rejected.find("hint"), std::string::npos);
  }
  EXPECT_EQ(rejects[0], rejects[1]);
  EXPECT_EQ(rejects[0], rejects[2]);
}

// A file over 16 MiB whose lines end in CR alone is one line, too long: the reject says why (the CR hint), read
// from the file, a pipe or zstd alike. JSON Lines too (each line, not the FEN, is the record there).
TEST(CliInput, ATooLongLineOfCrEndedRecordsGetsTheCrHint) {
  TempDir tmp;
  std::string mac;
  while (mac.size() <= (std::size_t{17} << 20)) mac += "8/8/8/8/8/8/8/K6k w - - 0 1\r";
  std::string mac_jsonl;
  while (mac_jsonl.size() <= (std::size_t{17} << 20)) mac_jsonl += "{\"fen\":\"8/8/8/8/8/8/8/K6k w - - 0 1\"}\r";
  for (const auto& [name, input] : {std::pair<std::string, std::string>{"mac.fen", mac}, {"mac.jsonl", mac_jsonl}})
    for (const RunOneWay& run : normalize_every_way(tmp, name, input, {}, 3)) {
      SCOPED_TRACE(name + " " + run.how);
      EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
      EXPECT_EQ(json_number(run.summary, "invalid"), 1u);
      EXPECT_NE(run.rejects.find("\"code\":\"LINE_TOO_LONG\",\"message\":\"the line is longer than 16 MiB, the "
                                 "longest record fenmill reads (hint: the record holds a carriage return (CR) inside "
                                 "it: lines end at LF, so a file whose lines end in CR alone (classic Mac OS) reads "
                                 "as one line; convert it first, e.g. with tr '\\\\r' '\\\\n')\""),
                std::string::npos)
          << run.rejects.substr(0, 400);
    }
}

// A CSV row longer than 16 MiB ends with a long line (a quoted field's line breaks end the row at the line passing
// kMaxCsvRowBytes): it is one LINE_TOO_LONG reject at its first line, with its whole length, however it is read (in
// order from the file, standard input, zstd, mapped) and at any chunk size or thread count, though streamed input
// keeps only the long line's first 16 MiB (tests/cli_memory_test.cpp measures that).
TEST(CliInput, ACsvRowLongerThan16MiBIsOneRejectFromAFileAPipeOrZstd) {
  TempDir tmp;
  const std::string a = "4k3/8/8/8/8/8/8/4K3 w - - 0 1", b = "4k3/8/8/8/8/8/8/3K4 w - - 0 1",
                    c = "3k4/8/8/8/8/8/8/4K3 w - - 0 1";
  const std::string x((16u << 20) + 1000, 'x');
  const std::string quoted = a + ",\"open\nmore\n" + x + "\"\r\n";  // lines 3-5, after a quote left open
  const std::string alone = x + ",1\n";                              // line 7
  const std::string input = "fen,note\n" + a + ",1\n" + quoted + b + ",2\n" + alone + c + ",3\n";
  const std::vector<RunOneWay> runs = normalize_every_way(tmp, "rows.csv", input, "csv");
  for (const RunOneWay& run : runs) {
    SCOPED_TRACE(run.how);
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(run.result.out, a + "\n" + b + "\n" + c + "\n");
    EXPECT_EQ(json_number(run.summary, "records"), 5u);
    EXPECT_EQ(json_number(run.summary, "invalid"), 2u);
    EXPECT_EQ(json_number(run.summary, "bytes_in"), input.size());
    const std::vector<std::string> rejects = split_lines(run.rejects);
    ASSERT_EQ(rejects.size(), 2u);
    EXPECT_NE(rejects[0].find(",\"line\":3,\"column\":1,\"code\":\"LINE_TOO_LONG\""), std::string::npos);
    EXPECT_NE(rejects[0].find("\",\"input_bytes\":" + std::to_string(quoted.size() - 2) + "}"), std::string::npos);
    EXPECT_NE(rejects[1].find(",\"line\":7,\"column\":1,\"code\":\"LINE_TOO_LONG\""), std::string::npos);
    EXPECT_NE(rejects[1].find("\",\"input_bytes\":" + std::to_string(alone.size() - 1) + "}"), std::string::npos);
    EXPECT_TRUE(rejects_but_names(rejects) == rejects_but_names(split_lines(runs[0].rejects)));
  }
}

// Streamed, a CSV line 1 longer than 16 MiB is kept only in part: read as a header it would be cut (and --to csv would
// write it cut), so it is no header. With a column named the run stops; by index it is a record.
TEST(CliInput, ACsvLine1LongerThan16MiBIsNoHeader) {
  TempDir tmp;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  const std::string input = "fen," + std::string(17u << 20, 'h') + "\n" + k + ",1\n";
  write_file(tmp / "h.csv", input);
  for (const char* in : {"h.csv", "-"}) {
    for (bool mmap : {false, true}) {
      CliRun run;
      run.args = {"normalize", "-q", "--to", "csv", in, "-o", "out.csv"};
      if (mmap) run.args.push_back("--mmap");
      run.cwd = tmp.path().string();
      if (std::string(in) == "-") run.args.insert(run.args.begin() + 1, {"--from", "csv"}), run.stdin_file = tmp / "h.csv";
      CliResult r = run_cli(run);
      EXPECT_EQ(r.exit_code, 2) << in << mmap;
      EXPECT_NE(r.err.find(": line 1 is longer than 16 MiB, too long for the CSV header"), std::string::npos) << r.err;
      EXPECT_FALSE(fs::exists(tmp / "out.csv"));
      run.args = {"normalize", "-q", "--from", "csv", "--fen-column", "0", in, "--rejects", "rej.jsonl", "--force"};
      if (mmap) run.args.push_back("--mmap");
      r = run_cli(run);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, k + "\n");
      EXPECT_NE(read_file(tmp / "rej.jsonl").find(",\"line\":1,\"column\":1,\"code\":\"LINE_TOO_LONG\""), std::string::npos);
    }
  }
  // A file whose lines end in CR alone is one line: over 16 MiB it got "line 1 is longer than 16 MiB", which says
  // nothing of why, where a smaller one gets the CR error. The CR error for both, however it is read.
  std::string mac = "id,fen\r";
  while (mac.size() <= (17u << 20)) mac += "1," + k + "\r";
  write_file(tmp / "mac.csv", mac);
  for (const char* in : {"mac.csv", "-"}) {
    for (bool mmap : {false, true}) {
      CliRun run;
      run.args = {"normalize", "-q", in, "-o", "out.fen"};
      if (mmap) run.args.push_back("--mmap");
      run.cwd = tmp.path().string();
      if (std::string(in) == "-") run.args.insert(run.args.begin() + 1, {"--from", "csv"}), run.stdin_file = tmp / "mac.csv";
      CliResult r = run_cli(run);
      EXPECT_EQ(r.exit_code, 2) << in << mmap;
      EXPECT_NE(r.err.find(": line 1 holds a carriage return (CR) outside quotes"), std::string::npos) << r.err;
      EXPECT_FALSE(fs::exists(tmp / "out.fen"));
    }
  }
}

// A PGN game whose text passes 16 MiB (a comment over many lines, one endless line) is one GAME_TOO_LARGE reject at its
// first line, read past without being held; the games around it are written, and the lines after it keep their
// numbers. The same from a file, a pipe, zstd and a mapping, at any chunk size and thread count.
TEST(CliInput, APgnGameLongerThan16MiBIsOneRejectFromAFileAPipeOrZstd) {
  TempDir tmp;
  std::string comment;
  while (comment.size() < (16u << 20)) comment += std::string(79, 'c') + "\n";
  const std::string line(16u << 20, 'l');
  const std::string input = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"long comment\"]\n\n1. e4 {" + comment +
                            "} e5 1-0\n\n[Event \"c\"]\r\n\r\n1. d4 0-1\r\n\r\n[Event \"long line\"]\n\n1. e4 {" + line +
                            "} *\n\n[Event \"e\"]\n\n1. c4 *\n";
  auto line_of = [&](const std::string& text) {
    return std::to_string(1 + std::count(input.begin(), input.begin() + static_cast<std::ptrdiff_t>(input.find(text)), '\n'));
  };
  const std::vector<RunOneWay> runs = normalize_every_way(tmp, "games.pgn", input, "pgn");
  for (const RunOneWay& run : runs) {
    SCOPED_TRACE(run.how);
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(split_lines(run.result.out).size(), 3u + 2u + 2u);
    EXPECT_EQ(json_number(run.summary, "records"), 9u);
    EXPECT_EQ(json_number(run.summary, "invalid"), 2u);
    EXPECT_EQ(json_number(run.summary, "bytes_in"), input.size());
    const std::vector<std::string> rejects = split_lines(run.rejects);
    ASSERT_EQ(rejects.size(), 2u);
    EXPECT_NE(rejects[0].find(",\"line\":" + line_of("[Event \"long comment\"]") +
                              ",\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << rejects[0];
    EXPECT_NE(rejects[0].find("\"input\":\"[Event \\\"long comment\\\"]\",\"game\":2,\"ply\":0"), std::string::npos)
        << rejects[0];
    EXPECT_NE(rejects[1].find(",\"line\":" + line_of("[Event \"long line\"]") +
                              ",\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << rejects[1];
    EXPECT_NE(rejects[1].find("\"game\":4,"), std::string::npos) << rejects[1];
    EXPECT_TRUE(run.result.out == runs[0].result.out);
    EXPECT_TRUE(rejects_but_names(rejects) == rejects_but_names(split_lines(runs[0].rejects)));
  }
}

// A '%' line or a comment longer than 16 MiB between two games is text too large to read, one GAME_TOO_LARGE: the game
// with tags right after it is the next game, written (reading past it lost that game, neither written nor counted).
TEST(CliInput, AGameAfterATooLargeCommentBetweenGamesIsWritten) {
  TempDir tmp;
  const std::string huge((16u << 20) + 10, 'x');
  const std::string input = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n%" + huge + "\n[Event \"b\"]\n\n1. d4 0-1\n\n{" + huge +
                            "}\n\n[Event \"c\"]\n\n1. c4 *\n";
  write_file(tmp / "games.pgn", input);
  for (const std::vector<std::string>& how : {std::vector<std::string>{"games.pgn"}, {"-", "--chunk-size", "100000"},
                                              {"games.pgn", "--mmap", "--threads", "8"}}) {
    CliRun run;
    run.args = {"normalize", "-q", "--from", "pgn", "--rejects", "rejects.jsonl", "--summary", "summary.json", "--force"};
    run.args.insert(run.args.end(), how.begin(), how.end());
    run.cwd = tmp.path().string();
    if (how[0] == "-") run.stdin_bytes = input;
    const CliResult r = run_cli(run);
    SCOPED_TRACE(run.args.back());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(split_lines(r.out).size(), 3u + 2u + 2u);  // a, b and c
    const std::string summary = read_file(tmp / "summary.json");
    EXPECT_EQ(json_number(summary, "records"), 9u);
    EXPECT_EQ(json_number(summary, "invalid"), 2u);
    const std::vector<std::string> rejects = split_lines(read_file(tmp / "rejects.jsonl"));
    ASSERT_EQ(rejects.size(), 2u);
    EXPECT_NE(rejects[0].find(",\"line\":5,\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << rejects[0];
    EXPECT_NE(rejects[1].find(",\"line\":10,\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << rejects[1];
  }
}

// A game too large to read with a '{' in a ';' comment (":-{") and no '}' after it: the brace is comment text, so the
// game after it is read as the reader reads it (it was taken for text inside a {} comment, read past to the end).
TEST(CliInput, ABraceInALineCommentOfATooLargeGameOpensNoComment) {
  TempDir tmp;
  const std::string input = "[Event \"h\"]\n\n1. e4 ; :-{ " + std::string((16u << 20) + 10, 'x') +
                            "\n1... e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
  write_file(tmp / "games.pgn", input);
  for (const char* mmap : {"--no-mmap", "--mmap"}) {
    std::vector<std::string> args = {"normalize", "-q", tmp / "games.pgn", "--rejects", tmp / "rejects.jsonl",
                                     "--summary", tmp / "summary.json", "--force"};
    if (std::string(mmap) == "--mmap") args.push_back(mmap);
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(split_lines(r.out).size(), 2u) << mmap;  // b
    EXPECT_EQ(json_number(read_file(tmp / "summary.json"), "records"), 3u) << mmap;
    EXPECT_NE(read_file(tmp / "rejects.jsonl").find(",\"line\":1,\"column\":1,\"code\":\"GAME_TOO_LARGE\""),
              std::string::npos);
  }
}

// A game too large to read with a '{' in a tag value ([Annotator ":-{"]) and no '}' after it: a tag's value is no
// comment to the reader, so the games after it are read (the brace was taken to open a {} comment, and every game after
// it was read past as the too-large game's text, neither written nor counted).
TEST(CliInput, ABraceInATagValueOfATooLargeGameOpensNoComment) {
  TempDir tmp;
  const std::string input = "[Event \"h\"]\n[Annotator \":-{\"]\n\n1. e4 ; " + std::string((16u << 20) + 10, 'x') +
                            "\n1... e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n\n1. c4 *\n";
  for (const RunOneWay& run : normalize_every_way(tmp, "games.pgn", input, {}, 5)) {
    SCOPED_TRACE(run.how);
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(split_lines(run.result.out).size(), 2u + 2u);  // b and c
    EXPECT_EQ(json_number(run.summary, "records"), 5u);
    EXPECT_EQ(json_number(run.summary, "invalid"), 1u);
    EXPECT_NE(run.rejects.find(",\"line\":1,\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << run.rejects;
  }
}

// Files that each open with a byte-order mark, joined by `cat`, after a game too large to read: the next file's game
// starts at its BOM (blank to the reader), so it is read (its line did not start with '[', so every such game after the
// too-large one was read past with it).
TEST(CliInput, AGameAfterATooLargeGameAndAByteOrderMarkIsWritten) {
  TempDir tmp;
  const std::string bom = "\xEF\xBB\xBF";
  const std::string input = "[Event \"h\"]\n\n1. e4 ; " + std::string((16u << 20) + 10, 'x') + "\n1... e5 1-0\n" + bom +
                            "[Event \"b\"]\n\n1. d4 *\n" + bom + "[Event \"c\"]\n\n1. c4 *\n\n[Event \"d\"]\n\n1. Nf3 *\n";
  for (const RunOneWay& run : normalize_every_way(tmp, "games.pgn", input, "pgn", 5)) {
    SCOPED_TRACE(run.how);
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(split_lines(run.result.out).size(), 3u * 2u);  // b, c and d
    EXPECT_EQ(json_number(run.summary, "records"), 7u);
    EXPECT_EQ(json_number(run.summary, "invalid"), 1u);
    EXPECT_NE(run.rejects.find(",\"line\":1,\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << run.rejects;
  }
}

// A game too large to read without a result (or with a comment after it on its line) ends at the next game's tag line,
// as the reader ends it: the next game is written (it was read past with the too-large game, neither written nor
// counted).
TEST(CliInput, AGameAfterATooLargeGameWithoutAResultIsWritten) {
  TempDir tmp;
  std::string comment;
  while (comment.size() < (16u << 20) + 100) comment += std::string(79, 'c') + "\n";
  const std::string input = "[Event \"h\"]\n\n1. e4 {" + comment + "}\n\n[Event \"b\"]\n\n1. d4 {" + comment +
                            "} 1-0 {x\ny}\n\n[Event \"c\"]\n\n1. c4 *\n";
  const std::vector<RunOneWay> runs = normalize_every_way(tmp, "games.pgn", input, "pgn", 5);
  for (const RunOneWay& run : runs) {
    SCOPED_TRACE(run.how);
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(split_lines(run.result.out).size(), 2u);  // c
    EXPECT_EQ(json_number(run.summary, "records"), 4u);
    EXPECT_EQ(json_number(run.summary, "invalid"), 2u);
    const std::vector<std::string> rejects = split_lines(run.rejects);
    ASSERT_EQ(rejects.size(), 2u);
    EXPECT_NE(rejects[0].find(",\"line\":1,\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << rejects[0];
    EXPECT_NE(rejects[1].find("\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << rejects[1];
    EXPECT_NE(rejects[1].find("\"input\":\"[Event \\\"b\\\"]\""), std::string::npos) << rejects[1];
  }
}

// Two games without a result of 10 MiB each (a long comment): each ends at the next game's tags, as the reader reads
// them, so neither is too large to read and all are written (the two were taken for one game over 16 MiB: one
// GAME_TOO_LARGE, neither game's positions written).
TEST(CliInput, GamesWithoutAResultUnder16MiBAreNotOneTooLargeGame) {
  TempDir tmp;
  std::string comment;
  while (comment.size() < (10u << 20)) comment += std::string(79, 'c') + "\n";
  const std::string input = "[Event \"a\"]\n\n1. e4 {" + comment + "}\n\n[Event \"b\"]\n\n1. d4 {" + comment +
                            "}\n\n[Event \"c\"]\n\n1. c4 *\n";
  const std::vector<RunOneWay> runs = normalize_every_way(tmp, "games.pgn", input, "pgn", 5);
  for (const RunOneWay& run : runs) {
    SCOPED_TRACE(run.how);
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(split_lines(run.result.out).size(), 3u * 2u);
    EXPECT_EQ(json_number(run.summary, "records"), 6u);
    EXPECT_EQ(json_number(run.summary, "invalid"), 0u);
    EXPECT_EQ(run.rejects, "");
  }
}

// The games after a game too large to read whose comments end on the line of the result (`see [1] } 1-0`, a '[', ';'
// or '%' inside a comment opened on a line before) are each written: the '[' or ';' is the comment's text, so the game
// ended there (they were read past with the too-large game, neither written nor counted: 1 record for 5 games).
TEST(CliInput, GamesAfterATooLargeGameEndingInAMultiLineCommentAreWritten) {
  TempDir tmp;
  std::string comment;
  while (comment.size() < (16u << 20) + 100) comment += std::string(79, 'c') + "\n";
  const std::string input = "[Event \"big\"]\n\n1. e4 {" + comment + "see [1] } 1-0\n\n" +
                            "[Event \"b\"]\n\n1. d4 {a ;\nsee ; b } 0-1\n\n" + "[Event \"c\"]\n\n1. c4 {a\n%b } *\n\n" +
                            "[Event \"d\"]\n[Annotator \":-{\"]\n\n1. Nf3 {a\n[b]\n} e5 (1... c5 {x\n[y]}) 1-0\n\n" +
                            "[Event \"e\"]\n\n1. g3 *\n";
  const std::vector<RunOneWay> runs = normalize_every_way(tmp, "games.pgn", input, "pgn");
  for (const RunOneWay& run : runs) {
    SCOPED_TRACE(run.how);
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(split_lines(run.result.out).size(), 2u + 2u + 3u + 2u);  // b, c, d and e
    EXPECT_EQ(json_number(run.summary, "records"), 10u);
    EXPECT_EQ(json_number(run.summary, "invalid"), 1u);
    EXPECT_EQ(json_number(run.summary, "bytes_in"), input.size());
    EXPECT_EQ(line_count(run.rejects), 1u);
    EXPECT_NE(run.rejects.find(",\"line\":1,\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << run.rejects;
    EXPECT_TRUE(run.result.out == runs[0].result.out);
  }
}

// Games without tags after a game too large to read are read as the reader reads them: the too-large game ends at its
// result (outside comments and variations: not at the 1-0 in its variation), and the next line starts the next game
// (they were read past with it to the next tag line, neither written nor counted: 3 records for 6 games). A game
// that starts on the line where a too-large game ends (`1. c4 *` here) is still read past with it.
TEST(CliInput, GamesWithoutTagsAfterATooLargeGameAreWritten) {
  TempDir tmp;
  std::string comment;
  while (comment.size() < (16u << 20) + 100) comment += std::string(79, 'c') + "\n";
  const std::string input = "[Event \"big\"]\n\n1. e4 {" + comment + "} e5 (1... c5 1-0) 1-0\n1. d4 d5 *\n\n" +
                            "1. e4 {" + comment + "} e5 1-0 1. c4 *\n1. Nf3 {x\n[y]} (1. g3 1-0) 0-1\n" +
                            "[Event \"t\"]\n\n1. b3 *\n";
  const std::string second_big = std::to_string(
      1 + std::count(input.begin(), input.begin() + static_cast<std::ptrdiff_t>(input.rfind("1. e4 {")), '\n'));
  const std::vector<RunOneWay> runs = normalize_every_way(tmp, "games.pgn", input, "pgn");
  for (const RunOneWay& run : runs) {
    SCOPED_TRACE(run.how);
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(split_lines(run.result.out).size(), 3u + 2u + 2u);  // 1. d4 d5, 1. Nf3, [Event "t"]
    EXPECT_EQ(json_number(run.summary, "records"), 9u);
    EXPECT_EQ(json_number(run.summary, "invalid"), 2u);
    EXPECT_EQ(json_number(run.summary, "bytes_in"), input.size());
    const std::vector<std::string> rejects = split_lines(run.rejects);
    ASSERT_EQ(rejects.size(), 2u);
    EXPECT_NE(rejects[0].find(",\"line\":1,\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos) << rejects[0];
    EXPECT_NE(rejects[1].find(",\"line\":" + second_big + ",\"column\":1,\"code\":\"GAME_TOO_LARGE\""), std::string::npos)
        << rejects[1];
    EXPECT_NE(rejects[1].find("\"game\":3,"), std::string::npos) << rejects[1];
    EXPECT_TRUE(run.result.out == runs[0].result.out);
  }
}

// ---------------------------------------------------------------------------------------------------------
// stderr: the summary line, -q, progress.

TEST(CliStderr, SummaryLineUnlessQuiet) {
  CliResult r = run_cli({"dedup", "mixed.fen", "second.fen"}, kGoldenDir.string());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, expected("several_inputs_dedup.out"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"(^fenmill: 29 records: 19 valid \(0 repaired, 2 completed\), 10 invalid, 7 duplicates; 12 written; )")))
      << r.err;
  EXPECT_EQ(line_count(r.err), 1u);
  r = run_cli({"dedup", "-q", "mixed.fen", "second.fen"}, kGoldenDir.string());
  EXPECT_EQ(r.err, "");
  r = run_cli({"dedup", "--quiet", "mixed.fen", "second.fen"}, kGoldenDir.string());
  EXPECT_EQ(r.err, "");
}

// Standard error handed over non-blocking (O_NONBLOCK, as some spawners leave it; with `2>&1` it is standard output's
// pipe too) and full when the summary comes: stdio met EAGAIN and dropped the line, as it would an error message.
// Now the run waits for the reader to make room.
TEST(CliStderr, ANonBlockingFullStderrIsWaitedForNotDropped) {
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  ASSERT_EQ(::fcntl(fds[1], F_SETFL, ::fcntl(fds[1], F_GETFL) | O_NONBLOCK), 0);
  std::size_t filled = 0;
  for (const char block[4096] = {}; ::write(fds[1], block, sizeof block) > 0;) filled += sizeof block;
  const std::string input = (kGoldenDir / "mixed.fen").string();
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int null = ::open("/dev/null", O_RDWR);
    if (null < 0 || ::dup2(null, 0) < 0 || ::dup2(null, 1) < 0 || ::dup2(fds[1], 2) < 0) ::_exit(125);
    ::execl(FENMILL_BINARY, FENMILL_BINARY, "normalize", input.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  // The reader is slow: the run finds the pipe full (and, before, ended at once without its summary).
  for (int waited = 0; waited < 1000 && ::waitpid(child, nullptr, WNOHANG) == 0; waited += 10)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::string received;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) received.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  ::waitpid(child, nullptr, 0);
  ASSERT_GE(received.size(), filled);
  EXPECT_TRUE(std::regex_search(received.substr(filled), std::regex(R"(^fenmill: 24 records: .* 15 written; .*\n$)")))
      << received.substr(filled);
}

TEST(CliStderr, ProgressLineShowsSlowRatesAndTheEta) {
  EXPECT_EQ(progress_line(50'000'000, 200'000'000, 3'000'000, 2.0), "50.0 MB, 3000000 records, 1.50 M records/s, ETA 6 s");
  // A slow source still shows its rate (it was "0.00 M records/s").
  EXPECT_EQ(progress_line(1'000, 0, 37, 4.0), "0.0 MB, 37 records, 9 records/s");
  EXPECT_EQ(progress_line(1'000'000, 0, 25'000, 2.0), "1.0 MB, 25000 records, 12.5 k records/s");
  EXPECT_EQ(progress_line(0, 100, 0, 0.0), "0.0 MB, 0 records, 0 records/s");  // no ETA before the first byte
}

// The CSV header guess's note waits for the end of the run: printed when a later input was reached, it landed in the
// middle of the progress line ("\r12.0 MB, ... records/s   fenmill: note: ...").
TEST(CliStderr, CsvHeaderNoteIsNotPrintedIntoTheProgressLine) {
  TempDir tmp;
  write_file(tmp / "b.csv", "FEN\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
  const std::string mixed = golden("mixed.fen");
  CliRun run;
  run.args = {"normalize", "-q", "--progress", "--chunk-size", "64", "--fen-column", "0", "-", tmp / "b.csv"};
  std::size_t begin = 0;
  for (int part = 1; part <= 3; ++part) {  // stdin arrives slowly: the progress line is up when b.csv is reached
    std::size_t end = part == 3 ? mixed.size() : mixed.find('\n', mixed.size() * part / 3) + 1;
    run.stdin_pieces.push_back({mixed.substr(begin, end - begin), part == 1 ? 0 : 400});
    begin = end;
  }
  CliResult r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_NE(r.err.find('\r'), std::string::npos) << r.err;
  const std::string note = "fenmill: note: " + (tmp / "b.csv") + ": line 1 is read as the CSV header (its field 0, \"FEN\", "
                           "reads as a column name); --csv-header no reads it as a record\n";
  ASSERT_GE(r.err.size(), note.size());
  EXPECT_EQ(r.err.substr(r.err.size() - note.size()), note) << r.err;
  EXPECT_EQ(r.err[r.err.size() - note.size() - 1], '\n') << r.err;  // after the progress line's end
}

TEST(CliStderr, ProgressWhenForced) {
  // Progress is printed at most every 250 ms: stdin arrives in four parts 400 ms apart so that the run lasts
  // long enough (even when the machine is busy and the program starts late). The output must not change.
  const std::string mixed = golden("mixed.fen");
  CliRun run;
  run.args = {"normalize", "-q", "--progress", "--chunk-size", "64", "-"};
  std::size_t begin = 0;
  for (int part = 1; part <= 4; ++part) {
    std::size_t end = part == 4 ? mixed.size() : mixed.find('\n', mixed.size() * part / 4) + 1;
    run.stdin_pieces.push_back({mixed.substr(begin, end - begin), part == 1 ? 0 : 400});
    begin = end;
  }
  CliResult r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected("normalize_mixed.out"));
  EXPECT_NE(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("records"), std::string::npos) << r.err;

  // --no-progress: nothing, even on a terminal and with a slow input.
  if (!pty_available()) GTEST_SKIP() << "no pseudo-terminals here";
  run.args = {"normalize", "-q", "--no-progress", "--chunk-size", "64", "-"};
  run.stderr_is_tty = true;
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, expected("normalize_mixed.out"));
  EXPECT_EQ(r.err, "");
  // Not forced, stderr not a terminal: nothing either.
  run.args = {"normalize", "-q", "--chunk-size", "64", "-"};
  run.stderr_is_tty = false;
  r = run_cli(run);
  EXPECT_EQ(r.err, "");
}

// The line left when the run ends shows its totals. At most one line is printed per 250 ms: the updates for the
// last chunks, read in a burst, were skipped, and the line (under -q the only word on the run) kept the count of
// the first chunk of the burst ("0.0 MB, 13 records, ..." for a run of 24).
TEST(CliStderr, ProgressEndsOnTheRunsTotals) {
  const std::string mixed = golden("mixed.fen");
  CliRun run;
  run.args = {"normalize", "-q", "--progress", "--chunk-size", "64", "-o", "/dev/null", "-"};
  const std::size_t half = mixed.find('\n', mixed.size() / 2) + 1;
  run.stdin_pieces = {{mixed.substr(0, half), 0}, {mixed.substr(half), 400}};
  CliResult r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_NE(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.back(), '\n');
  const std::string last = r.err.substr(r.err.rfind('\r') + 1);
  EXPECT_EQ(last.rfind("0.0 MB, 24 records, ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(last.begin(), last.end(), '\n'), 1) << r.err;
}

// One of a thing is not "1 records" or "1 duplicates".
TEST(CliStderr, SummaryLineCountsInTheSingular) {
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";
  CliRun run;
  run.args = {"dedup", "-o", "/dev/null", "-"};
  run.stdin_bytes = start + start;
  CliResult r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("fenmill: 2 records: 2 valid (0 repaired, 0 completed), 0 invalid, 1 duplicate; 1 written; ", 0), 0u)
      << r.err;
  run.args = {"normalize", "-o", "/dev/null", "-"};
  run.stdin_bytes = start;
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("fenmill: 1 record: 1 valid (0 repaired, 0 completed), 0 invalid; 1 written; ", 0), 0u) << r.err;
}

// `fenmill validate big.fen` on a terminal: the report (standard output) and the progress line (standard error) share
// the screen, and each report line landed after the progress line's text ("\r1.2 MB, 20532 records, 40.7 k
// records/s   big.fen:15901:1: BAD_PIECE: ..."). Unless forced, progress is now off when what is written as the run
// goes reaches a terminal.
TEST(CliStderr, NoAutoProgressWhenTheOutputGoesToATerminal) {
  if (!pty_available()) GTEST_SKIP() << "no pseudo-terminals here";
  const std::string mixed = golden("mixed.fen");
  CliRun run;
  run.args = {"validate", "-q", "--chunk-size", "64", "-"};
  std::size_t begin = 0;
  for (int part = 1; part <= 4; ++part) {  // slow stdin, as in ProgressWhenForced
    std::size_t end = part == 4 ? mixed.size() : mixed.find('\n', mixed.size() * part / 4) + 1;
    run.stdin_pieces.push_back({mixed.substr(begin, end - begin), part == 1 ? 0 : 400});
    begin = end;
  }
  run.stderr_is_tty = true;
  CliResult r = run_cli(run);  // the report to a pipe: progress on the terminal
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("records"), std::string::npos) << r.err;
  run.stdout_is_tty = true;
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("RANK_SUM"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
  // The rejects on a terminal as they are written: the same.
  run.args = {"normalize", "-q", "--chunk-size", "64", "--rejects", "/dev/stdout", "-o", "/dev/null", "-"};
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("RANK_SUM"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
  // Forced: shown all the same.
  run.args = {"validate", "-q", "--progress", "--chunk-size", "64", "-"};
  r = run_cli(run);
  EXPECT_NE(r.err.find("records"), std::string::npos) << r.err;
}

// ---------------------------------------------------------------------------------------------------------
// Usage errors: exit 2, a message, no output.

TEST(CliUsage, BadArgumentsExitTwo) {
  const std::string mixed = (kGoldenDir / "mixed.fen").string();
  const std::vector<std::vector<std::string>> bad = {
      {},
      {"frobnicate", mixed},
      {"normalize"},
      {"normalize", "--to", "pgn", mixed},
      {"normalize", "--from", "xml", mixed},
      {"normalize", "--ep", "maybe", mixed},
      {"normalize", "--key", "everything", mixed},
      {"normalize", "--castling", "lowercase", mixed},
      {"normalize", "--threads", "-1", mixed},
      {"normalize", "--threads", "many", mixed},
      {"normalize", "--chunk-size", "0", mixed},
      {"normalize", "--count", mixed},
      {"validate", "--no-such-option", mixed},
      {"stats", "--json", mixed},
      {"validate", "--to", "epd", mixed},  // a report has no position format: --to was ignored
      {"stats", "--to", "bin", mixed},
      {"normalize", "--progress", "--no-progress", mixed},  // --no-progress won, silently (helper-67)
      {"validate", "--no-progress", mixed, "--progress"},
  };
  for (const auto& args : bad) {
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    SCOPED_TRACE(joined);
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("fenmill: ", 0), 0u) << r.err;  // worded like every other message: the tool's name first
  }
  CliResult r = run_cli({"normalize", "--no-such-option", mixed});
  EXPECT_EQ(r.err, "fenmill: normalize has no option --no-such-option (--help)\n");
  r = run_cli({"frobnicate", mixed});
  EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos) << r.err;
  r = run_cli({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* command : {"normalize", "dedup", "validate", "convert", "stats"})
    EXPECT_NE(r.out.find(command), std::string::npos) << command;
  r = run_cli({"dedup", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* option : {"--output", "--to", "--from", "--threads", "--rejects", "--summary", "--ep", "--repair",
                             "--key", "--count", "--chunk-size", "--quiet", "--progress", "--no-progress",
                             "--chess960", "--castling", "--fail-on-invalid", "--force"})
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
}

// An option of some subcommands only is refused by name on the others, not accepted and ignored: `normalize --key
// placement` ran as if it had done something. Hidden from the other subcommands' --help.
// A file whose name starts with '-' reads as a short option: CLI11 said "INPUT is required" when it was the only
// input, though one was given, and "not expected" otherwise; the error now says how to name it (helper-67).
TEST(CliUsage, AnUnknownShortOptionSaysHowToNameAFileStartingWithADash) {
  TempDir tmp;
  write_file(tmp / "-x.fen", "8/8/8/8/8/8/8/K6k w - - 0 1\n");
  write_file(tmp / "in.fen", "8/8/8/8/8/8/8/K6k w - - 0 1\n");
  const std::string hint = " (for a file named -x.fen, write ./-x.fen or put it after --) (--help)\n";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"normalize", "-x.fen"}, {"validate", "in.fen", "-x.fen"}, {"stats", "-x.fen", "in.fen"}, {"render", "-x.fen"}}) {
    CliResult r = run_cli(args, tmp.path().string());
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "fenmill: " + args[0] + " has no option -x" + hint);
  }
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"normalize", "-q", "./-x.fen"}, {"normalize", "-q", "--", "-x.fen"}, {"normalize", "-qo", "-", "in.fen"}}) {
    CliResult r = run_cli(args, tmp.path().string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "8/8/8/8/8/8/8/K6k w - - 0 1\n");
  }
}

TEST(CliUsage, OptionsOfOtherSubcommandsAreRefusedByName) {
  const std::string mixed = (kGoldenDir / "mixed.fen").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"normalize", "--key", "placement", mixed}, "--key applies to dedup and stats only, not to normalize"},
      {{"normalize", mixed, "--key=placement"}, "--key applies to dedup and stats only, not to normalize"},
      {{"normalize", mixed, "--key"}, "--key applies to dedup and stats only, not to normalize"},  // its value missing
      {{"convert", "--key", "full", mixed}, "--key applies to dedup and stats only, not to convert"},
      {{"validate", mixed, "--key", "position"}, "--key applies to dedup and stats only, not to validate"},
      {{"stats", "--count", mixed}, "--count applies to dedup only, not to stats"},
      {{"normalize", "--count", mixed}, "--count applies to dedup only, not to normalize"},
      {{"validate", "--to", "epd", mixed}, "--to applies to normalize, dedup and convert only, not to validate"},
      {{"dedup", "--json", mixed}, "--json applies to validate only, not to dedup"},
      {{"stats", "--html", "r.html", mixed}, "--html applies to validate only, not to stats"},
      {{"normalize", "-o", "out.fen", "--key", "placement", mixed}, "--key applies to dedup and stats only, not to normalize"},
      // Options no subcommand of these has, by name (CLI11 said "not expected: FILE --key", naming the input too).
      {{"render", "--key", "full", mixed}, "render has no option --key"},
      {{"render", mixed, "--threads=2"}, "render has no option --threads"},
      {{"normalize", "--bogus=3", mixed}, "normalize has no option --bogus"},
  };
  for (const auto& [args, message] : cases) {
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << message;
    EXPECT_EQ(r.out, "") << message;
    EXPECT_EQ(r.err, "fenmill: " + message + " (--help)\n");
  }
  for (const char* command : {"normalize", "convert", "validate"})
    EXPECT_EQ(run_cli({command, "--help"}).out.find("--key"), std::string::npos) << command;
  for (const char* command : {"dedup", "stats"})
    EXPECT_NE(run_cli({command, "--help"}).out.find("--key"), std::string::npos) << command;
  EXPECT_EQ(run_cli({"stats", "-q", "--key", "placement", mixed}).exit_code, 0);
  // The value of an option of its own is a value, whatever it looks like, as CLI11 reads it: `--rejects --count`
  // names a file (it was refused as a misplaced --count).
  TempDir tmp;
  CliRun run;
  run.cwd = tmp.path().string();
  run.args = {"normalize", "-q", mixed, "--rejects", "--count", "-o", "--key"};
  CliResult r = run_cli(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp.path() / "--count"));
  EXPECT_TRUE(fs::exists(tmp.path() / "--key"));
  run.args = {"validate", "-q", mixed, "--json-field", "--to", "--fen-column", "--json", "-o", "report.txt"};
  r = run_cli(run);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(fs::exists(tmp.path() / "report.txt"));
}

// stats counts distinct positions by --key: its help says so, not only "dedup key" (stats does no dedup).
TEST(CliUsage, StatsHelpSaysWhatKeyCounts) {
  CliResult r = run_cli({"stats", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  const std::size_t key = r.out.find("--key");
  ASSERT_NE(key, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("distinct_positions", key), std::string::npos) << r.out;
}

// --chunk-size cuts text only (binary input goes block by block, whatever the size): its help says so, as it did
// not, leaving it to look as if it applied to binary input too.
TEST(CliUsage, ChunkSizeHelpSaysBinaryInputGoesByBlock) {
  CliResult r = run_cli({"convert", "--help"});
  const std::size_t option = r.out.find("--chunk-size");
  ASSERT_NE(option, std::string::npos) << r.out;
  const std::size_t next = r.out.find("\n  -", option);  // the next option; the help may start on its own line
  EXPECT_NE(r.out.substr(option, next - option).find("binary input goes a block"), std::string::npos) << r.out;
}

// Started with standard input or output closed (`<&-`, `>&-`), fenmill must not hand descriptor 0 or 1 to a
// file it opens and then read or write that file as "-": a run that needs the closed stream is refused, and
// the output named with --force stays as it was (it used to be replaced by an empty file).
TEST(CliUsage, ClosedStandardStreamsAreRefusedNotReused) {
  TempDir tmp;
  const std::string keep = tmp / "keep.fen", out = tmp / "out.fen";
  const std::string line = "8/8/8/8/8/8/8/K6k w - - 0 1\n";
  write_file(keep, line);
  auto shell = [](const std::string& command) {
    int status = std::system(("'" FENMILL_BINARY "' " + command + " 2>/dev/null").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(shell("normalize - -q -o '" + keep + "' --force <&-"), 2);
  EXPECT_EQ(read_file(keep), line);
  EXPECT_EQ(shell("normalize '" + keep + "' - -q -o '" + out + "' <&-"), 2);  // not the file alone, silently
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(shell("normalize '" + keep + "' -q >&-"), 2);
  EXPECT_EQ(shell("validate '" + keep + "' >&-"), 2);
  EXPECT_EQ(shell("normalize '" + keep + "' -q --summary - -o '" + out + "' >&-"), 2);
  EXPECT_EQ(shell("normalize /dev/stdin -q -o '" + out + "' <&-"), 2);  // (used to read /dev/null: 0 records)
  EXPECT_EQ(shell("normalize /dev/fd/0 -q -o '" + out + "' <&-"), 2);
  EXPECT_EQ(shell("validate '" + keep + "' -q -o '" + (tmp / "r.txt") + "' --html /dev/stdout >&-"), 2);
  EXPECT_EQ(shell("render '8/8/8/8/8/8/8/K6k w - - 0 1' >&-"), 2);
  EXPECT_EQ(shell("render - -o '" + (tmp / "p.svg") + "' <&-"), 2);
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(shell("normalize '" + keep + "' -q -o '" + out + "' <&- >&-"), 0);  // needs neither
  EXPECT_EQ(read_file(out), line);
}

// A descriptor name must name a descriptor fenmill was started with. With descriptor 3 closed, -o's temporary
// file took number 3, and `--rejects /dev/fd/3` wrote the rejects into the output (exit 0); with standard error
// closed, `-o /dev/stderr` went to the /dev/null put in its place (exit 0, nothing written anywhere).
TEST(CliUsage, DescriptorNamesNeedAnOpenDescriptor) {
  TempDir tmp;
  const std::string in = tmp / "in.fen", out = tmp / "out.fen", err = tmp / "err";
  const std::string good = "8/8/8/8/8/8/8/K6k w - - 0 1\n", bad = "8/8/8/8/8/8/8/K7 w - - 0 1\n";
  write_file(in, good + bad);
  auto shell = [](const std::string& command) {
    int status = std::system(("'" FENMILL_BINARY "' " + command).c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  const std::string q_in = " -q '" + in + "'", q_out = " -o '" + out + "'", q_err = " 2> '" + err + "'";
  EXPECT_EQ(shell("normalize" + q_in + q_out + " --rejects /dev/fd/3 3>&-" + q_err), 2);
  EXPECT_NE(read_file(err).find("/dev/fd/3: descriptor 3 is not open"), std::string::npos) << read_file(err);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(shell("validate" + q_in + q_out + " --html /proc/self/fd/4 3>&- 4>&-" + q_err), 2);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(shell("render /dev/fd/3 -o '" + (tmp / "p.svg") + "' 3>&-" + q_err), 2);  // not drawn as a FEN
  EXPECT_FALSE(fs::exists(tmp / "p.svg"));
  EXPECT_EQ(shell("normalize" + q_in + " -o /dev/stderr 2>&-"), 2);
  EXPECT_EQ(shell("normalize" + q_in + " -o /dev/null --rejects /dev/fd/2 2>&-"), 2);
  // Open descriptors are written as before.
  EXPECT_EQ(shell("normalize" + q_in + q_out + " --rejects /dev/fd/3 3> '" + (tmp / "r.jsonl") + "'"), 0);
  EXPECT_EQ(read_file(out), good);
  EXPECT_NE(read_file(tmp / "r.jsonl").find("MISSING_KING"), std::string::npos);
  EXPECT_EQ(shell("normalize" + q_in + " -o /dev/stderr 2> '" + err + "'"), 0);
  EXPECT_EQ(read_file(err), good);
}

// -o /dev/stdin is descriptor 0, as /dev/stdout is 1: read as a plain name it said "already exists (use --force
// to overwrite)", and with --force a run as root renamed its output over the /dev/stdin symlink (helper-67).
TEST(CliUsage, DevStdinAsAnOutputIsDescriptorZero) {
  TempDir tmp;
  const std::string in = tmp / "in.fen", out = tmp / "out.fen", err = tmp / "err";
  const std::string good = "8/8/8/8/8/8/8/K6k w - - 0 1\n";
  write_file(in, good);
  auto shell = [&](const std::string& command) {
    int status = std::system(("'" FENMILL_BINARY "' " + command + " 2> '" + err + "'").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(shell("normalize -q '" + in + "' -o /dev/stdin 0<> '" + out + "'"), 0) << read_file(err);
  EXPECT_EQ(read_file(out), good);
  // Standard input read and written: refused like `-o /dev/fd/0`.
  EXPECT_EQ(shell("normalize -q - -o /dev/stdin 0<> '" + in + "'"), 2);
  EXPECT_NE(read_file(err).find("is an input of this run and also its output"), std::string::npos) << read_file(err);
  EXPECT_EQ(read_file(in), good);
  EXPECT_EQ(tmp.entries(), (std::vector<std::string>{"err", "in.fen", "out.fen"}));
}

// Standard output under another name (a symlink to /dev/stdout, or a spelling such as //dev/stdout) is descriptor 1
// too. With standard output redirected to a file it was a plain name: "already exists", and with --force the output
// was renamed onto the symlink (as root, `-o //dev/stdout --force` replaced the system's /dev/stdout with a file).
TEST(CliUsage, StdoutUnderAnyNameIsDescriptorOne) {
  TempDir tmp;
  const std::string in = tmp / "in.fen", out = tmp / "out.fen", link = tmp / "link", err = tmp / "err";
  const std::string good = "8/8/8/8/8/8/8/K6k w - - 0 1\n";
  write_file(in, good);
  fs::create_directory(tmp / "sub");
  fs::create_symlink("/dev/stdout", link);
  fs::create_symlink("link", tmp / "link2");  // a relative link to the link
  auto shell = [&](const std::string& command) {
    int status = std::system(("'" FENMILL_BINARY "' " + command + " 2> '" + err + "'").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  for (const std::string& name : {link, tmp.path().string() + "/./sub/../link", tmp / "link2"}) {
    SCOPED_TRACE(name);
    for (const char* force : {"", " --force"}) {
      std::filesystem::remove(out);
      EXPECT_EQ(shell("normalize -q '" + in + "' -o '" + name + "'" + force + " > '" + out + "'"), 0) << read_file(err);
      EXPECT_EQ(read_file(out), good);
      EXPECT_TRUE(fs::is_symlink(link));
      EXPECT_EQ(fs::read_symlink(link), "/dev/stdout");
    }
  }
  EXPECT_EQ(tmp.entries(), (std::vector<std::string>{"err", "in.fen", "link", "link2", "out.fen", "sub"}));
}

// MISSING_KING and TOO_MANY_KINGS say which side breaks the rule, in both variants.
TEST(CliOutput, KingCountMessagesNameTheSide) {
  CliRun run;
  run.args = {"validate", "-q", "-"};
  run.stdin_bytes = "4k3/8/8/8/8/8/8/8 w - - 0 1\n8/8/8/8/8/8/8/4K3 b - - 0 1\n3kk3/8/8/8/8/8/8/4K3 w - - 0 1\n";
  CliResult r = run_cli(run);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out,
            "<stdin>:1:1: MISSING_KING: each side needs exactly one king: White has none\n"
            "<stdin>:2:1: MISSING_KING: each side needs exactly one king: Black has none\n"
            "<stdin>:3:1: TOO_MANY_KINGS: each side needs exactly one king: Black has more than one (squares: d8 e8)\n");
  run.args = {"validate", "-q", "--variant", "xiangqi", "-"};
  run.stdin_bytes = "9/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n";
  r = run_cli(run);
  EXPECT_EQ(r.out, "<stdin>:1:1: MISSING_KING: each side needs exactly one general: Black has none\n");
}

// validate's text report is one line per invalid record, even for a file name holding a newline or a tab.
TEST(CliOutput, ValidateLinesEscapeControlBytesInFileNames) {
  TempDir tmp;
  const std::string name = "odd\nna\tme.fen";
  write_file(tmp / name, "8/8/8/8/8/8/8/8 w - - 0 1\n");
  CliResult r = run_cli({"validate", "-q", name}, tmp.path().string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "odd\\x0ana\\x09me.fen:1:1: MISSING_KING: each side needs exactly one king: neither side has one\n");
  // A name with a backslash must not print like a name with the byte it would spell.
  write_file(tmp / "odd\\x0ana\\x09me.fen", "8/8/8/8/8/8/8/8 w - - 0 1\n");
  r = run_cli({"validate", "-q", "odd\\x0ana\\x09me.fen"}, tmp.path().string());
  EXPECT_EQ(r.out, "odd\\x5cx0ana\\x5cx09me.fen:1:1: MISSING_KING: each side needs exactly one king: neither side has one\n");
}

// An error or a note on stderr is one line whatever the file name holds, as validate's report lines are: a
// newline in a name broke "fenmill: error: ..." in two, and an escape sequence went to the terminal as it was.
TEST(CliStderr, ErrorsAndNotesAreOneLineWhateverTheFileName) {
  TempDir tmp;
  write_file(tmp / "in.fen", "8/8/8/8/8/8/8/K6k w - - 0 1\n");
  write_file(tmp / "out\nx.fen", "precious\n");
  write_file(tmp / "c\nx.csv", "fen\n8/8/8/8/8/8/8/K6k w - - 0 1\n");
  CliResult r = run_cli({"normalize", "-q", "no\nsuch.fen"}, tmp.path().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "fenmill: error: no\\x0asuch.fen: No such file or directory\n");
  r = run_cli({"normalize", "-q", "in.fen", "-o", "out\nx.fen"}, tmp.path().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "fenmill: error: out\\x0ax.fen: already exists (use --force to overwrite)\n");
  r = run_cli({"normalize", "-q", "in.fen", "-o", "o\x1b[31m.zst"}, tmp.path().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("zstd -o o\\x1b[31m.zst\n"), std::string::npos) << r.err;
  r = run_cli({"normalize", "-q", "c\nx.csv", "--fen-column", "0"}, tmp.path().string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("fenmill: note: c\\x0ax.csv: line 1 is read as the CSV header", 0), 0u) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;  // render's own messages too.
  r = run_cli({"render", "no\nsuch", "-o", "x.svg"}, tmp.path().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "fenmill: error: no\\x0asuch: no such file (a FEN needs its '/' between ranks)\n");
  r = run_cli({"render", "missing/no\nsuch.fen", "-o", "x.svg"}, tmp.path().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "fenmill: error: missing/no\\x0asuch.fen: no such file\n");
}

// A report's name says nothing about positions: `validate --json -o rejects.jsonl` used to take .jsonl as
// --to jsonl and stop with "--to jsonl needs JSON Lines or PGN input".
TEST(CliOutput, ReportsGoToAnyName) {
  TempDir tmp;
  const std::string mixed = (kGoldenDir / "mixed.fen").string();
  const std::string report = run_cli({"validate", "-q", "--json", mixed}).out;
  const std::string stats = run_cli({"stats", "-q", mixed}).out;
  ASSERT_FALSE(report.empty());
  for (const char* name : {"r.jsonl", "r.csv", "r.bin", "r.epd"}) {
    SCOPED_TRACE(name);
    CliResult r = run_cli({"validate", "-q", "--json", mixed, "-o", tmp / name});
    EXPECT_EQ(r.exit_code, 1) << r.err;  // mixed.fen has invalid records
    EXPECT_EQ(read_file(tmp / name), report);
    r = run_cli({"stats", "-q", mixed, "-o", tmp / name, "--force"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(tmp / name), stats);
  }
}

// Every thread count and chunk size gives the same bytes (the property test does this at scale).
TEST(CliThreads, SameOutputForAnyThreadCount) {
  for (const char* threads : {"0", "1", "2", "8", "64"}) {
    SCOPED_TRACE(threads);
    CliResult r = run_cli({"dedup", "-q", "--count", "--threads", threads, "--chunk-size", "40", "mixed.fen"},
                          kGoldenDir.string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, expected("dedup_count.out"));
  }
}

}  // namespace
}  // namespace fenmill::cli_test
