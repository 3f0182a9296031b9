// The JSON Lines scanner's two forms (formats/json_runs.h: byte loops, and SSE2 16 bytes a step) must agree on
// every line: the same verdict, the same field (offsets, value, error message) and the same find_values spans.
// Lines are random JSON, mutated JSON and every prefix of them, with strings and whitespace and number runs of
// every length around the 16-byte steps, and with bytes after the line's end that would change the answer if they
// were read as the line's (a quote, a digit, a space, a backslash); some lines end exactly at the end of their heap
// block, so that ASan sees any read past them.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "cli_util.h"
#include "formats/jsonl.h"

namespace fenmill {
namespace {

using Scan = JsonlFieldFinder::Scan;

// Everything the finder says about one line: whether it is JSON, then per field what find and find_values give.
struct Verdict {
  bool json = false;
  std::vector<std::string> answers;
  bool operator==(const Verdict&) const = default;
};

std::string describe(const Verdict& v) {
  std::string out = v.json ? "json" : "not json";
  for (const std::string& answer : v.answers) out += " | " + answer;
  return out;
}

Verdict judge(JsonlFieldFinder& finder, Scan scan, std::string_view line) {
  Verdict v;
  v.json = JsonlFieldFinder::is_json(line, scan);
  for (std::string_view field : {std::string_view("fen"), std::string_view("a"), std::string_view("")}) {
    JsonlFieldFinder::Found found{};
    std::string error;
    if (finder.find(line, field, found, error))
      v.answers.push_back("found " + std::to_string(found.raw_begin) + "-" + std::to_string(found.raw_end) + " " +
                          std::string(found.value));
    else
      v.answers.push_back("error " + error);
  }
  for (std::string_view field : {std::string_view("count"), std::string_view("fen")}) {
    std::vector<JsonlFieldFinder::Span> spans;
    std::string answer = finder.find_values(line, field, spans) ? "values" : "no values";
    for (const JsonlFieldFinder::Span& span : spans) answer += " " + std::to_string(span.begin) + "-" + std::to_string(span.end);
    v.answers.push_back(answer);
  }
  return v;
}

class Generator {
 public:
  explicit Generator(unsigned seed) : rng_(seed) {}
  std::size_t below(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }
  template <class T>
  const T& pick(const std::vector<T>& items) { return items[below(items.size())]; }

  // JSON whitespace runs of every length, now and then a byte that looks like whitespace and is not.
  std::string space() {
    if (chance(55)) return "";
    std::string out;
    const std::size_t n = chance(70) ? below(3) + 1 : below(40) + 1;
    for (std::size_t i = 0; i < n; ++i) out += " \t\r\n"[below(4)];
    if (!clean_ && chance(3)) out.insert(below(out.size() + 1), 1, pick(std::vector<char>{'\v', '\f', '\0', '\xA0'}));
    return out;
  }

  std::string hex4() {
    static const std::vector<std::string> special = {"D800", "DBFF", "DC00", "DFFF", "d83d", "de00", "0000", "001f",
                                                     "FFFF", "00e9", "0022", "005C", "12G4", "12"};
    if (chance(50)) return special[below(special.size() - (clean_ ? 2 : 0))];
    std::string out;
    for (int i = 0; i < 4; ++i) out += "0123456789abcdefABCDEF"[below(22)];
    return out;
  }

  // A string token: plain runs of every length (across 16- and 32-byte steps), escapes of every kind (some
  // invalid), control bytes, UTF-8 valid and not.
  std::string string_token() {
    static const std::vector<std::string> valid = {"\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
                                                   "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x7F", " ", "'", "{", "]", ":"};
    static const std::vector<std::string> invalid = {"\\q", "\\", "\\u", "\x80", "\xC3", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                                     "\xE0\x80\x80", "\xC0\xAF", "\xFF", "\x01", "\x1F", "\t", "\n"};
    std::string out = "\"";
    const std::size_t parts = below(6);
    for (std::size_t i = 0; i < parts; ++i) {
      if (chance(45)) {
        const std::size_t n = chance(50) ? below(8) : below(70);
        for (std::size_t k = 0; k < n; ++k) out += "rnbqkpRNBQKP12345678/ -w"[below(24)];
      } else if (chance(25)) {
        out += "\\u" + hex4();
      } else {
        out += pick(!clean_ && chance(30) ? invalid : valid);
      }
    }
    if (clean_ || !chance(3)) out += '"';
    return out;
  }

  std::string digits(bool nonempty) {
    std::string out;
    const std::size_t n = (nonempty ? 1 : 0) + (chance(80) ? below(4) : below(40));
    for (std::size_t i = 0; i < n; ++i) out += static_cast<char>('0' + below(10));
    return out;
  }

  // Numbers of every shape, most well formed.
  std::string number() {
    if (!clean_ && chance(8))
      return pick(std::vector<std::string>{"-", "01", "-01", "1.", ".5", "1e", "1e+", "1.e5", "+1", "--1", "0x1F",
                                           "1E400", "-0", "0.0e-0", "123456789012345678901234567890", "1ee5", "Infinity"});
    std::string out = chance(30) ? "-" : "";
    out += chance(20) ? "0" : std::string(1, static_cast<char>('1' + below(9))) + digits(false);
    if (chance(30)) out += "." + digits(!chance(5));
    if (chance(25)) out += std::string(chance(50) ? "e" : "E") + (chance(50) ? "" : chance(50) ? "+" : "-") + digits(!chance(5));
    return out;
  }

  std::string value(int depth) {
    switch (below(depth > 4 ? 6 : 8)) {
      case 0:
      case 1:
        return string_token();
      case 2:
      case 3:
        return number();
      case 4:
        return pick(clean_ ? std::vector<std::string>{"true", "false", "null"}
                           : std::vector<std::string>{"true", "false", "null", "tru", "nul", "falsey", "True"});
      case 5:
        return pick(std::vector<std::string>{"{}", "[]", "{ }", "[\t]", "\"\""});
      case 6: {
        std::string out = "[" + space();
        const std::size_t n = below(5);
        for (std::size_t i = 0; i < n; ++i) out += (i ? "," + space() : "") + value(depth + 1) + space();
        return out + (clean_ || chance(97) ? "]" : "");
      }
      default:
        return object(depth + 1);
    }
  }

  std::string object(int depth) {
    static const std::vector<std::string> names = {"\"fen\"", "\"a\"", "\"count\"", "\"f\\u0065n\"", "\"\"", "\"id\"",
                                                   "\"eval\"", "\"fen\\ud800\"", "\"fe\"", "\"fenx\""};
    std::string out = "{" + space();
    const std::size_t n = below(6), fen = depth == 1 && chance(60) ? below(n + 1) : n + 1;  // where "fen" goes
    for (std::size_t i = 0; i <= n; ++i) {
      if (i == n && fen != n) break;
      if (i) out += "," + space();
      out += (i == fen ? "\"fen\"" : chance(80) ? pick(names) : string_token()) + space() + (clean_ || chance(98) ? ":" : "") + space();
      out += (i == fen || (depth == 1 && chance(40)) ? string_token() : value(depth)) + space();
    }
    return out + (clean_ || chance(97) ? "}" : "");
  }

  // Half the lines are JSON but for mutations; the others have a few errors of their own.
  std::string line() {
    clean_ = chance(50);
    std::string out = space() + (chance(85) ? object(1) : value(1)) + space();
    if (!clean_ && chance(3)) out += pick(std::vector<std::string>{"x", ",", "}", "\"", "1"});
    return out;
  }

  // A few random edits: replace, insert, delete, cut, or copy a piece elsewhere.
  std::string mutate(std::string s) {
    static const std::string alphabet = "{}[]\",:\\ 0123456789-+.eEtrufalsn\t\r\n/u\x01\x1f\x7f\x80\xC3\xA9\xFF";
    const std::size_t edits = below(4);
    for (std::size_t e = 0; e < edits; ++e) {
      const std::size_t at = below(s.size() + 1);
      switch (below(5)) {
        case 0:
          if (at < s.size()) s[at] = alphabet[below(alphabet.size())];
          break;
        case 1:
          s.insert(at, 1, alphabet[below(alphabet.size())]);
          break;
        case 2:
          s.erase(at, below(4));
          break;
        case 3:
          s.resize(at);
          break;
        default: {
          const std::size_t from = below(s.size() + 1);
          s.insert(at, s.substr(from, below(40)));
        }
      }
    }
    return s;
  }

 private:
  std::mt19937 rng_;
  bool clean_ = false;
};

class JsonlScanDiff : public ::testing::Test {
 protected:
  // The line's verdict from both forms, with `after` just past its end in memory, and then again at the very end
  // of a heap block of its exact size.
  void check(const std::string& line, std::string_view after) {
    std::string buffer = line;
    buffer += after;
    const std::string_view in_buffer(buffer.data(), line.size());
    const Verdict scalar = judge(scalar_, Scan::kScalar, in_buffer);
    const Verdict vector = judge(vector_, Scan::kVector, in_buffer);
    ASSERT_EQ(scalar, vector) << "line: " << line << "\nscalar: " << describe(scalar) << "\nvector: " << describe(vector);
    const std::unique_ptr<char[]> exact(new char[line.size() + 1]);  // + 1: not empty for an empty line
    std::memcpy(exact.get(), line.data(), line.size());
    const Verdict at_end = judge(vector_, Scan::kVector, std::string_view(exact.get(), line.size()));
    ASSERT_EQ(scalar, at_end) << "line: " << line << "\nscalar: " << describe(scalar) << "\nvector: " << describe(at_end);
    ++checked_;
    accepted_ += scalar.json;
    found_ += scalar.answers[0].starts_with("found");
  }
  std::string_view after(Generator& gen) {
    static const std::vector<std::string> tails = {"\"", "\"}", "0", "5e5", " ", "\\", "\\u0041\"", "}", "]",
                                                   ",\"fen\":\"x\"}", std::string(32, ' '), std::string(1, '\0'), "\x80"};
    return gen.pick(tails);
  }

  JsonlFieldFinder scalar_{Scan::kScalar}, vector_{Scan::kVector};
  std::size_t checked_ = 0, accepted_ = 0, found_ = 0;
};

TEST_F(JsonlScanDiff, RandomAndMutatedLines) {
  Generator gen(69);
  for (int i = 0; i < 100000; ++i) {
    std::string line = gen.line();
    if (gen.chance(30)) line = gen.mutate(line);
    check(line, after(gen));
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(accepted_, 25000u);  // both verdicts well represented, and the field found often
  EXPECT_GT(checked_ - accepted_, 25000u);
  EXPECT_GT(found_, 15000u);
  std::printf("%zu lines, %zu JSON, %zu with the field found\n", checked_, accepted_, found_);
}

TEST_F(JsonlScanDiff, EveryPrefix) {
  Generator gen(8259);
  for (int i = 0; i < 600; ++i) {
    const std::string line = gen.chance(50) ? gen.line() : gen.mutate(gen.line());
    for (std::size_t cut = 0; cut <= line.size(); ++cut) {
      check(line.substr(0, cut), line.substr(cut));  // the rest of the line right after the cut
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(accepted_, 1000u);
}

// Runs of each kind ending at every offset from the line's end and crossing every 16- and 32-byte step: strings
// (plain, with an escape or a non-ASCII character at the end), whitespace and digits.
TEST_F(JsonlScanDiff, RunsEndingEverywhere) {
  Generator gen(16);
  const std::vector<std::string> string_ends = {"", "\\\"", "\\u00e9", "\xC3\xA9", "\\", "\x01", "\x80", "\\ud800"};
  for (std::size_t n = 0; n <= 80; ++n) {
    const std::string run(n, 'a'), spaces(n, ' '), digits(n ? n : 1, '7');
    for (const std::string& last : string_ends) {
      for (const std::string& tail : {std::string("\"}"), std::string("\""), std::string("\" }  "), std::string("")}) {
        check("{\"fen\":\"" + run + last + tail, after(gen));
        check("{\"n\":1,\"fen\":\"" + last + run + tail, after(gen));
        check("[\"" + run + last + tail, after(gen));
        if (HasFatalFailure()) return;
      }
    }
    for (const std::string& tail : {std::string("}"), std::string(""), std::string(" "), std::string("x}")}) {
      check("{\"fen\":\"x\"" + spaces + tail, after(gen));
      check("{\"fen\":\"x\",\"n\":" + digits + tail, after(gen));
      check("{\"fen\":\"x\",\"n\":-0." + digits + "e+" + digits + tail, after(gen));
      check("{\"n\":" + digits + "." + spaces + tail, after(gen));
      check(spaces + "[" + spaces + digits + spaces + "]" + tail, after(gen));
      check("{" + spaces + "\"fen\"" + spaces + ":" + spaces + "\"x\"" + spaces + tail, after(gen));
      if (HasFatalFailure()) return;
    }
  }
}

// End to end, FENMILL_NO_SIMD=1 takes the byte loops (json_runs::Scalar) and gives the same run: output written
// back as JSON Lines, rejects (code, column, message) and counts, on real FENs in JSON Lines and generated lines.
TEST(JsonlScanDiffCli, NoSimdGivesTheSameRun) {
  using cli_test::read_file;
  cli_test::TempDir dir;
  const std::vector<std::string> fens = cli_test::split_lines(read_file(std::string(FENMILL_SOURCE_DIR) + "/tests/data/demo.fen"));
  Generator gen(17);
  std::string input;
  for (std::size_t i = 0; i < 3000; ++i) {
    std::string line = "{\"id\":" + std::to_string(i) + ",\"fen\":\"" + fens[i % fens.size()] + "\",\"eval\":{\"cp\":" +
                       std::to_string(static_cast<int>(i % 300) - 150) + ",\"depth\":20},\"note\":\"caf\\u00e9 \\\"x\\\"\"}";
    if (i % 3 == 1) line = gen.mutate(line);
    if (i % 3 == 2) line = gen.line();
    std::erase(line, '\n');
    input += line + "\n";
  }
  cli_test::write_file(dir / "in.jsonl", input);
  std::vector<std::string> runs;
  for (bool scalar : {false, true}) {
    if (scalar) ::setenv("FENMILL_NO_SIMD", "1", 1);
    const std::string tag = scalar ? "scalar" : "vector";
    const cli_test::CliResult r = cli_test::run_cli({"normalize", "-q", "--to", "jsonl", dir / "in.jsonl", "--rejects",
                                                     dir / (tag + ".rej"), "--summary", dir / (tag + ".json")});
    ::unsetenv("FENMILL_NO_SIMD");
    runs.push_back(r.out + read_file(dir / (tag + ".rej")) + std::to_string(r.exit_code));
  }
  EXPECT_GT(cli_test::split_lines(runs[0]).size(), 2500u);
  EXPECT_NE(runs[0].find("JSON_FIELD"), std::string::npos);
  EXPECT_TRUE(runs[0] == runs[1]) << "FENMILL_NO_SIMD changed the run";
}

}  // namespace
}  // namespace fenmill
