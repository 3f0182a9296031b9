// JSON Lines in the shape of the lichess evaluation dump (tests/data/evals_sample.jsonl, made by
// scripts/make_eval_jsonl.sh from real positions): --to jsonl changes the fen field only, the result is
// valid JSON, and a second pass changes nothing.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <random>
#include <regex>
#include <string>

#include "cli_util.h"
#include "formats/jsonl.h"

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


// RFC 8259 sets no limit on a number's size or precision, and its grammar lets a string escape any code unit, a
// lone surrogate included: such lines are valid JSON and only their FEN field matters. simdjson's DOM parser,
// which validated each line before, rejected all of these as JSON_FIELD.
TEST(JsonlRoundTrip, BigNumbersAndLoneSurrogatesElsewhereAreValidJson) {
  TempDir dir;
  const std::string in = "4k3/8/8/8/8/8/8/4K3 w - -";  // normalized: the default clocks are added
  const std::string out = in + " 0 1";
  const std::vector<std::pair<std::string, std::string>> prefix_suffix = {
      {"{\"fen\": \"", "\", \"n\": 123456789012345678901234567890}"},
      {"{\"n\": -123456789012345678901234567890.5e-3, \"fen\": \"", "\"}"},
      {"{\"fen\": \"", "\", \"n\": 18446744073709551616}"},  // 2^64
      {"{\"fen\": \"", "\", \"n\": 1e400}"},
      {"{\"fen\": \"", "\", \"n\": -1e400}"},
      {"{\"eval\": {\"cp\": 1E+999, \"depth\": [1e400, -0.0e-999]}, \"fen\": \"", "\"}"},
      {"{\"s\": \"\\ud800\", \"fen\": \"", "\"}"},        // a lone high surrogate before the field
      {"{\"fen\": \"", "\", \"s\": \"\\ud800\"}"},        // ... as the field's neighbour
      {"{\"fen\": \"", "\", \"s\": \"\\udc00x\\uDBFF\"}"},  // lone low, then high at the end
      {"{\"fen\": \"", "\", \"s\": \"\\ud800\\u0041\"}"},  // a high surrogate followed by no low one
      {"{\"\\ud800\": 1, \"fen\": \"", "\"}"},            // in a member name
      {"{\"fen\": \"", "\", \"s\": [\"\\udfff\", {\"\\ud800\": 1e400}]}"},
  };
  std::string input, expected;
  for (const auto& [prefix, suffix] : prefix_suffix) {
    input += prefix + in + suffix + "\n";
    expected += prefix + out + suffix + "\n";
  }
  write_file(dir / "valid.jsonl", input);
  CliResult r = run_cli({"normalize", "-q", "--to", "jsonl", dir / "valid.jsonl", "--rejects", dir / "rejects.jsonl",
                         "--summary", dir / "s.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  EXPECT_EQ(read_file(dir / "rejects.jsonl"), "");
  EXPECT_NE(read_file(dir / "s.json").find("\"valid\": 12, \"invalid\": 0"), std::string::npos) << read_file(dir / "s.json");
  // To FEN, the same positions.
  r = run_cli({"normalize", "-q", dir / "valid.jsonl"});
  EXPECT_EQ(split_lines(r.out), std::vector<std::string>(prefix_suffix.size(), out));
}

// Lines that break the grammar anywhere keep the reject code they had under simdjson's DOM validation.
TEST(JsonlRoundTrip, SyntaxErrorsAnywhereAreStillJsonField) {
  TempDir dir;
  const std::string k = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  const std::vector<std::string> bad = {
      "{\"fen\": \"" + k + "\" \"x\": 1}",      // missing comma
      "{\"fen\": \"" + k + "\",}",              // trailing comma
      "{\"n\": 01, \"fen\": \"" + k + "\"}",    // leading zero
      "{\"fen\": \"" + k + "\", \"n\": 1.}",    // no fraction digits
      "{\"fen\": \"" + k + "\", \"n\": .5}",
      "{\"fen\": \"" + k + "\", \"n\": 1e}",    // no exponent digits
      "{\"fen\": \"" + k + "\", \"n\": +1}",
      "{\"fen\": \"" + k + "\", \"n\": -}",
      "{\"fen\": \"" + k + "\", \"n\": 1e400x}",  // a big number, then garbage
      "{\"fen\": \"" + k + "\", \"n\": 0x10}",
      "{\"fen\": \"" + k + "\", \"n\": NaN}",
      "{\"fen\": \"" + k + "\"} x",             // trailing content
      "{\"fen\": \"" + k + "\"}{}",
      "{\"fen\": \"" + k + "\", \"b\": tru}",   // bad literals
      "{\"fen\": \"" + k + "\", \"b\": nulll}",
      "{\"fen\": \"" + k + "\", \"b\": False}",
      "{\"fen\" \"" + k + "\"}",                // missing colon
      "{\"fen\": \"" + k + "\", \"s\": \"open}",  // unclosed string
      "{\"fen\": \"" + k + "\", \"s\": \"a\\qb\"}",  // bad escape
      "{\"fen\": \"" + k + "\", \"s\": \"\\ud80\"}",  // \u with three hex digits
      "{\"fen\": \"" + k + "\", \"s\": \"\\u12g4\"}",
      "{\"fen\": \"" + k + "\", \"s\": \"tab\tinside\"}",  // a raw control character
      "{\"fen\": \"" + k + "\", \"s\": \"\xC3\x28\"}",     // invalid UTF-8
      "{\"fen\": \"" + k + "\", \"s\": \"\xED\xA0\x80\"}", // a surrogate encoded in UTF-8
      "{\"fen\": \"" + k + "\", \"s\": \"\xC0\xAF\"}",     // overlong
      "{\"fen\": \"" + k + "\", \"a\": [1, 2}",  // mismatched brackets
      "{\"fen\": \"" + k + "\", \"a\": [1 2]}",
      "{\"fen\": \"" + k + "\", \"a\": [1,]}",
      "{\"fen\": \"" + k + "\", 1: 2}",          // a name that is not a string
      "{\"fen\": \"" + k + "\"",                 // unclosed object
      "[{\"fen\": \"" + k + "\"}]",              // valid JSON, not an object
      "{\"x\": {\"fen\": \"" + k + "\"}}",       // the field only nested
      "{\"fen\": \"" + k + "\\ud800\"}",         // the FEN itself escapes a lone surrogate: no UTF-8 value
      "{\"fen\": 5}",
  };
  std::string input;
  for (const std::string& line : bad) input += line + "\n";
  input += "{\"fen\": \"" + k + "\", \"n\": 1e400}\n";
  write_file(dir / "bad.jsonl", input);
  CliResult r = run_cli({"normalize", "-q", "--to", "jsonl", dir / "bad.jsonl", "--rejects", dir / "rejects.jsonl",
                         "--summary", dir / "s.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"fen\": \"" + k + "\", \"n\": 1e400}\n");
  const std::string summary = read_file(dir / "s.json");
  EXPECT_NE(summary.find("\"invalid_by_code\": {\"JSON_FIELD\": " + std::to_string(bad.size()) + "}"), std::string::npos)
      << summary;
  std::vector<std::string> rejects = split_lines(read_file(dir / "rejects.jsonl"));
  ASSERT_EQ(rejects.size(), bad.size());
  for (std::size_t i = 0; i < bad.size(); ++i)
    EXPECT_NE(rejects[i].find("\"line\":" + std::to_string(i + 1) + ",\"column\":1,\"code\":\"JSON_FIELD\""),
              std::string::npos)
        << rejects[i];
}

TEST(JsonlRoundTrip, FieldFinderNamesValuesAndOffsets) {
  JsonlFieldFinder finder;
  JsonlFieldFinder::Found found{};
  std::string error;
  auto value = [&](std::string_view line) -> std::string {
    if (!finder.find(line, "fen", found, error)) return "error: " + error;
    EXPECT_EQ(line.substr(found.raw_begin, 1), "\"") << line;
    EXPECT_EQ(line.substr(found.raw_end - 1, 1), "\"") << line;
    return std::string(found.value);
  };
  EXPECT_EQ(value(" {\"fen\" : \"a b\" } \r"), "a b");
  EXPECT_EQ(found.raw_begin, 10u);
  EXPECT_EQ(found.raw_end, 15u);
  // A second member of the name: readers differ in which one they take, and writing the first back would leave
  // the other standing, so the line is refused (names compare unescaped here too).
  for (std::string_view twice : {"{\"fen\": \"first\", \"fen\": \"second\"}", "{\"fen\": \"a\", \"x\": {}, \"f\\u0065n\": 1}",
                                 "{\"fen\": 1, \"fen\": \"a\"}"})
    EXPECT_EQ(value(twice), "error: field \"fen\" appears more than once (which one holds the FEN is ambiguous)") << twice;
  EXPECT_EQ(value("{\"f\\u0065n\": \"escaped name\"}"), "escaped name");      // names compare unescaped
  EXPECT_EQ(value("{\"x\": {\"fen\": \"nested\"}, \"fen\": \"top\"}"), "top");  // only top-level members
  EXPECT_EQ(value("{\"fen\": \"\\/\\\\\\\"\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20AC\\ud83d\\ude00\"}"),
            "/\\\"\b\f\n\r\tA\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  EXPECT_EQ(value("{\"fen\": \"caf\xC3\xA9\"}"), "caf\xC3\xA9");
  EXPECT_EQ(value("{\"fen\": \"\"}"), "");
  EXPECT_EQ(value("{\"fen\": \"\\ud800\"}"), "error: field \"fen\" escapes a lone surrogate: not a string of Unicode characters");
  EXPECT_EQ(value("{\"fen\": \"\\udc00\\ud800\"}").substr(0, 6), "error:");
  EXPECT_EQ(value("{\"fen\": null}"), "error: field \"fen\" is not a string");
  EXPECT_EQ(value("{\"fen\": [\"x\"]}"), "error: field \"fen\" is not a string");
  EXPECT_EQ(value("{}"), "error: no field \"fen\"");
  EXPECT_EQ(value("\"fen\""), "error: not a JSON object");
  EXPECT_EQ(value(""), "error: not valid JSON");
  EXPECT_EQ(value("{\"fen\": \"x\"} {"), "error: not valid JSON");
}

// The JSON grammar of RFC 8259 as regular expressions, for numbers and for ASCII strings: the scanner must agree
// on every short token over the characters that matter.
TEST(JsonlRoundTrip, NumbersAndStringsFollowTheGrammarExactly) {
  const std::regex number("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
  const std::regex string("\"([^\"\\\\\\x00-\\x1f]|\\\\[\"\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})*\"");
  std::mt19937 rng(5);
  auto random_token = [&](std::string_view alphabet, std::size_t max_size) {
    std::string token(std::uniform_int_distribution<std::size_t>(1, max_size)(rng), ' ');
    for (char& c : token) c = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
    return token;
  };
  int valid_numbers = 0, valid_strings = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::string n = random_token("-+.eE0123456789", 7);
    const bool expected = std::regex_match(n, number);
    valid_numbers += expected;
    ASSERT_EQ(JsonlFieldFinder::is_json("[" + n + "]"), expected) << n;
    ASSERT_EQ(JsonlFieldFinder::is_json("{\"fen\": \"x\", \"n\": " + n + "}"), expected) << n;
    std::string s(1, '"');
    s += random_token("\"\\/bfnrtu0aFgD8\x01\x1f ", 8);
    s += '"';
    const bool expected_string = std::regex_match(s, string);
    valid_strings += expected_string;
    ASSERT_EQ(JsonlFieldFinder::is_json(s), expected_string) << s;
    ASSERT_EQ(JsonlFieldFinder::is_json("{" + s + ": " + s + "}"), expected_string) << s;
  }
  EXPECT_GT(valid_numbers, 10000);  // both verdicts are well represented
  EXPECT_GT(valid_strings, 5000);
}

// Against simdjson's DOM parser on lines mutated at random: where it accepts, so must the scanner; where it
// reports a structural, literal, control-character, UTF-8 or unclosed-string error, the scanner must reject.
// Its NUMBER_ERROR and STRING_ERROR verdicts are left out: they mix syntax errors with valid big numbers and
// lone surrogates (the grammar test above covers both).
TEST(JsonlRoundTrip, ScannerAgreesWithSimdjsonOnMutatedLines) {
  const std::vector<std::string> seeds = {
      "{\"fen\": \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\", \"evals\": [{\"pvs\": [{\"cp\": -14, \"line\": \"e2e4\"}], "
      "\"knodes\": 7, \"depth\": 21}]}",
      "{\"fen\":\"8/8/8/8/8/8/8/8 w - -\",\"a\":[true,false,null,{},[],\"\\u00e9\\n\"],\"b\":{\"c\":-0.5e+3}}",
      " [ 1 , \"caf\xC3\xA9\" , { \"k\" : [ ] } ] ",
  };
  const std::string alphabet = "{}[]\",:\\ 0123456789-+.eEtrufalsn\t\r\x01\x7f\xC3\xA9\xFF/ubx";
  std::mt19937 rng(8259);
  simdjson::dom::parser parser;
  int accepted = 0, rejected = 0;
  for (int i = 0; i < 300000; ++i) {
    std::string line = seeds[static_cast<std::size_t>(i) % seeds.size()];
    const int edits = std::uniform_int_distribution<int>(0, 3)(rng);
    for (int e = 0; e < edits && !line.empty(); ++e) {
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, line.size() - 1)(rng);
      const char c = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
      switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
        case 0: line[at] = c; break;
        case 1: line.insert(line.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default: line.erase(at, 1); break;
      }
    }
    const simdjson::error_code error = parser.parse(line).error();
    if (error == simdjson::NUMBER_ERROR || error == simdjson::STRING_ERROR ||
        error == simdjson::NUMBER_OUT_OF_RANGE)
      continue;
    const bool valid = error == simdjson::SUCCESS;
    ASSERT_EQ(JsonlFieldFinder::is_json(line), valid) << line << " (simdjson: " << simdjson::error_message(error) << ")";
    (valid ? accepted : rejected) += 1;
  }
  EXPECT_GT(accepted, 10000);
  EXPECT_GT(rejected, 100000);
}

}  // namespace
}  // namespace fenmill::cli_test
