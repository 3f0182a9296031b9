// The rejects file's strings: append_json_string must always produce valid UTF-8 JSON, copy real
// characters as they are and write every other byte as \u00XX. simdjson (an independent UTF-8 validator
// and JSON parser) checks the output.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <random>
#include <string>

#include "pipeline/report.h"

namespace fenmill {
namespace {

std::string json(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

// The string simdjson reads back from the literal; fails the test if the literal is not valid JSON.
std::string decoded(const std::string& literal) {
  EXPECT_TRUE(simdjson::validate_utf8(literal.data(), literal.size())) << literal;
  simdjson::dom::parser parser;
  simdjson::dom::element element;
  auto error = parser.parse(literal).get(element);
  EXPECT_EQ(error, simdjson::SUCCESS) << literal;
  if (error) return {};
  return std::string(std::string_view(element));
}

TEST(JsonString, EscapesWhatJsonRequires) {
  EXPECT_EQ(json("a\"b\\c\n\t\r"), R"("a\"b\\c\n\t\r")");
  EXPECT_EQ(json(std::string("\x01\x1f\x7f", 3)), R"("\u0001\u001f\u007f")");
}

TEST(JsonString, CopiesWellFormedCharacters) {
  for (const char* s : {"\xC3\xA9", "\xE2\x82\xAC", "\xED\x9F\xBF", "\xEE\x80\x80", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF",
                        "\xEF\xBF\xBF"}) {
    std::string quoted = "\"";  // (built step by step: GCC 12 warns falsely about "..." + string + "...")
    quoted += s;
    quoted += '"';
    EXPECT_EQ(json(s), quoted);
    EXPECT_EQ(decoded(json(s)), s);
  }
}

TEST(JsonString, EscapesBytesThatAreNotCharacters) {
  EXPECT_EQ(json("\x80"), R"("\u0080")");                          // stray continuation byte
  EXPECT_EQ(json("\xC0\xAF"), R"("\u00c0\u00af")");                 // overlong '/'
  EXPECT_EQ(json("\xE0\x80\xAF"), R"("\u00e0\u0080\u00af")");       // overlong, 3 bytes
  EXPECT_EQ(json("\xED\xA0\x80"), R"("\u00ed\u00a0\u0080")");       // surrogate U+D800
  EXPECT_EQ(json("\xF0\x8F\xBF\xBF"), R"("\u00f0\u008f\u00bf\u00bf")");  // overlong, 4 bytes
  EXPECT_EQ(json("\xF4\x90\x80\x80"), R"("\u00f4\u0090\u0080\u0080")");  // above U+10FFFF
  EXPECT_EQ(json("\xF5\x80\x80\x80"), R"("\u00f5\u0080\u0080\u0080")");
  EXPECT_EQ(json("\xE2\x82"), R"("\u00e2\u0082")");                 // truncated
  EXPECT_EQ(json("\xE9t\xE9"), R"("\u00e9t\u00e9")");               // Latin-1 text
}

// Random bytes, biased towards the bytes UTF-8 is made of: the output is always valid, and reads back as
// the input with each byte that is not part of a character taken as the Latin-1 character of that value.
TEST(JsonString, RandomBytesAlwaysGiveValidJson) {
  std::mt19937 rng(11);
  const unsigned char pool[] = {'a', '"', '\\', 0x00, 0x1F, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2,
                                0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
  for (int round = 0; round < 20000; ++round) {
    std::string s(rng() % 12, '\0');
    for (char& c : s) c = static_cast<char>(pool[rng() % sizeof pool]);
    std::string back = decoded(json(s));
    ASSERT_FALSE(::testing::Test::HasFailure()) << "round " << round;
    // Each input byte is either copied inside a character or became one 1- or 2-byte character.
    EXPECT_GE(back.size(), s.size());
    EXPECT_LE(back.size(), 2 * s.size());
  }
}

// Long strings (escaped 16 bytes a step): each byte that needs escaping, at every place of a 40-byte text, is escaped
// there and the text around it copied.
TEST(JsonString, EscapesAtEveryPlaceOfALongString) {
  const std::string plain = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQ";
  for (const auto& [raw, escaped] : std::initializer_list<std::pair<std::string, std::string>>{
           {"\"", "\\\""}, {"\\", "\\\\"}, {"\n", "\\n"}, {std::string(1, '\0'), "\\u0000"},
           {"\x1f", "\\u001f"}, {"\x7f", "\\u007f"}, {"\x80", "\\u0080"}, {"\xC3\xA9", "\xC3\xA9"}}) {
    for (std::size_t at = 0; at <= plain.size(); ++at) {
      const std::string s = plain.substr(0, at) + raw + plain.substr(at);
      std::string expected = "\"";  // built step by step: GCC 12 warns falsely about "..." + string
      ((expected += plain.substr(0, at)) += escaped) += plain.substr(at);
      expected += '"';
      ASSERT_EQ(json(s), expected) << at;
    }
  }
  std::string twice = "\"";
  ((twice += plain) += plain) += '"';
  EXPECT_EQ(json(plain + plain), twice);
}

}  // namespace
}  // namespace fenmill
