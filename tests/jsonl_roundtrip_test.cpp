// JSON Lines in the shape of the lichess evaluation dump (tests/data/evals_sample.jsonl, made by
// scripts/make_eval_jsonl.sh from real positions): --to jsonl changes the fen field only, the result is
// valid JSON, and a second pass changes nothing.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

#include "cli_util.h"

namespace fenmill::cli_test {
namespace {

TEST(JsonlRoundTrip, EvalDumpShapeOnlyFenChanges) {
  std::string sample = std::string(FENMILL_SOURCE_DIR) + "/tests/data/evals_sample.jsonl";
  std::vector<std::string> in = split_lines(read_file(sample));
  ASSERT_EQ(in.size(), 1000u);
  CliResult first = run_cli({"normalize", "-q", "--to", "jsonl", sample});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  std::vector<std::string> out = split_lines(first.out);
  ASSERT_EQ(out.size(), in.size());
  simdjson::ondemand::parser parser;
  for (std::size_t i = 0; i < in.size(); ++i) {
    // The dump's FENs have 4 fields; the normalized ones get the default clocks " 0 1", nothing else moves.
    std::size_t at = in[i].find("\", \"evals\"");
    ASSERT_NE(at, std::string::npos);
    std::string expected = in[i];
    expected.insert(at, " 0 1");
    EXPECT_EQ(out[i], expected) << "line " << i + 1;
    simdjson::padded_string json(out[i]);
    simdjson::ondemand::document doc = parser.iterate(json);
    std::string_view fen;
    ASSERT_EQ(doc["fen"].get_string().get(fen), simdjson::SUCCESS);
    std::int64_t depth;
    ASSERT_EQ(doc["evals"].at(0)["depth"].get_int64().get(depth), simdjson::SUCCESS) << out[i];
  }
  TempDir dir;
  write_file(dir / "once.jsonl", first.out);
  CliResult second = run_cli({"normalize", "-q", "--to", "jsonl", dir / "once.jsonl"});
  EXPECT_EQ(second.out, first.out);
  // Dedup by position: 967 distinct first-four-fields among these 1000 (counted with sort -u).
  CliResult dedup_jsonl = run_cli({"dedup", "-q", sample});
  EXPECT_EQ(split_lines(dedup_jsonl.out).size(), 967u);
}

}  // namespace
}  // namespace fenmill::cli_test
