#include "formats/jsonl.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include <simdjson.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fenmill {
namespace {

constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

// Bytes that a string may hold as they are with nothing more to check: printable ASCII but '"' and '\\'.
constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x80; ++c) plain[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return plain;
}();

const char* skip_space(const char* p, const char* end) {
  while (p < end && is_space(*p)) ++p;
  return p;
}

// The string whose opening quote is at `p`: past its closing quote, or null when it is not a JSON string (not
// closed, a control character, an escape other than \" \\ \/ \b \f \n \r \t \uXXXX). Any \uXXXX is grammar, lone
// surrogates included. Bytes from 0x80 are only noted: the caller checks the line's UTF-8 once.
const char* scan_string(const char* p, const char* end, bool& escaped, bool& non_ascii) {
  ++p;
  for (;;) {
#if defined(__SSE2__)
    // 16 bytes at a time to the first '"', '\\', control character or byte from 0x80 (negative as signed: one
    // compare finds both); the last bytes, which a 16-byte load would overrun, one at a time.
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i special =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), _mm_cmplt_epi8(v, space));
      if (const int mask = _mm_movemask_epi8(special)) {
        p += __builtin_ctz(static_cast<unsigned>(mask));
        break;
      }
      p += 16;
    }
#endif
    while (p < end && kPlain[static_cast<unsigned char>(*p)]) ++p;
    if (p == end) return nullptr;
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"') return p + 1;
    if (c == '\\') {
      escaped = true;
      if (end - p < 2) return nullptr;
      const char e = p[1];
      if (e == 'u') {
        if (end - p < 6 || hex_digit(p[2]) < 0 || hex_digit(p[3]) < 0 || hex_digit(p[4]) < 0 || hex_digit(p[5]) < 0)
          return nullptr;
        p += 6;
      } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
        p += 2;
      } else {
        return nullptr;
      }
    } else if (c < 0x20) {
      return nullptr;
    } else {
      non_ascii = true;  // the whole run of them
      while (p < end && static_cast<unsigned char>(*p) >= 0x80) ++p;
    }
  }
}

// The number starting at `p`: past it, or null when it breaks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
// What follows it is the caller's business (01: the number is 0, then a 1 where a comma belongs).
const char* scan_number(const char* p, const char* end) {
  if (*p == '-') ++p;
  if (p == end) return nullptr;
  if (*p == '0') {
    ++p;
  } else if (is_digit(*p)) {
    while (p < end && is_digit(*p)) ++p;
  } else {
    return nullptr;
  }
  if (p < end && *p == '.') {
    const char* digits = ++p;
    while (p < end && is_digit(*p)) ++p;
    if (p == digits) return nullptr;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    const char* digits = p;
    while (p < end && is_digit(*p)) ++p;
    if (p == digits) return nullptr;
  }
  return p;
}

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out.push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code >> 6)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (code >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (code >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

std::uint32_t hex4(const char* p) {
  return static_cast<std::uint32_t>(hex_digit(p[0]) << 12 | hex_digit(p[1]) << 8 | hex_digit(p[2]) << 4 | hex_digit(p[3]));
}

// The UTF-8 value of the inside of a string that scan_string accepted; false when it escapes a lone surrogate,
// which no UTF-8 text can hold.
bool unescape(std::string_view inner, std::string& out) {
  out.clear();
  std::size_t i = 0;
  while (i < inner.size()) {
    std::size_t slash = inner.find('\\', i);
    if (slash == std::string_view::npos) slash = inner.size();
    out.append(inner.data() + i, slash - i);
    i = slash;
    if (i == inner.size()) break;
    const char e = inner[i + 1];
    if (e != 'u') {
      out.push_back(e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e);
      i += 2;
      continue;
    }
    std::uint32_t code = hex4(inner.data() + i + 2);
    i += 6;
    if (code >= 0xD800 && code < 0xDC00) {
      if (i + 6 > inner.size() || inner[i] != '\\' || inner[i + 1] != 'u') return false;
      const std::uint32_t low = hex4(inner.data() + i + 2);
      if (low < 0xDC00 || low >= 0xE000) return false;
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
      i += 6;
    } else if (code >= 0xDC00 && code < 0xE000) {
      return false;
    }
    append_utf8(out, code);
  }
  return true;
}

// Where the value of a top-level member with the wanted name is: [begin, end) is its raw token, of any type (a
// string's quotes included).
struct Member {
  const char* begin = nullptr;
  const char* end = nullptr;
  bool string = false;
  bool escaped = false;
  std::size_t depth = 0;  // when the value is a container: the stack size inside it
  bool repeated = false;  // (first member only) another top-level member has the same name
};

// The finished member's offsets in `text`, leaving `member` empty for the next one.
JsonlFieldFinder::Span take_span(std::string_view text, Member& member) {
  const Member m = std::exchange(member, Member{});
  return {static_cast<std::size_t>(m.begin - text.data()), static_cast<std::size_t>(m.end - text.data())};
}

// Whether `text` is one JSON value (RFC 8259), whitespace around it allowed. With `want_field`, also the first
// member of the top-level object named `field` (and whether another one has that name: `member.repeated`), or
// with `every` all of them in order (`member` is then scratch).
// Nesting depth is bounded by memory only (`stack`). Written with one label per state rather than a state
// variable: each state's branches then predict on their own.
bool scan_json(std::string_view text, bool want_field, std::string_view field, Member& member, std::string& stack,
               std::string& key, std::vector<JsonlFieldFinder::Span>* every = nullptr) {
  const char* p = text.data();
  const char* const end = p + text.size();
  stack.clear();
  bool non_ascii = false;
  bool capture = false;  // this value is the field's

value:
  p = skip_space(p, end);
  if (p == end) return false;
  if (capture) member = Member{p, nullptr, false, false};
  switch (*p) {
    case '{':
      p = skip_space(p + 1, end);
      if (p < end && *p == '}') {
        ++p;  // empty: a whole value
        break;
      }
      stack.push_back('{');
      if (capture) member.depth = stack.size();
      capture = false;
      goto name;
    case '[':
      p = skip_space(p + 1, end);
      if (p < end && *p == ']') {
        ++p;
        break;
      }
      stack.push_back('[');
      if (capture) member.depth = stack.size();
      capture = false;
      goto value;
    case '"': {
      bool escaped = false;
      if (!(p = scan_string(p, end, escaped, non_ascii))) return false;
      if (capture) member = Member{member.begin, p, true, escaped};
      break;
    }
    case 't':
      if (end - p < 4 || std::memcmp(p, "true", 4) != 0) return false;
      p += 4;
      break;
    case 'f':
      if (end - p < 5 || std::memcmp(p, "false", 5) != 0) return false;
      p += 5;
      break;
    case 'n':
      if (end - p < 4 || std::memcmp(p, "null", 4) != 0) return false;
      p += 4;
      break;
    default:
      if (*p != '-' && !is_digit(*p)) return false;
      if (!(p = scan_number(p, end))) return false;
      break;
  }
  if (capture) {
    member.end = p;
    if (every) every->push_back(take_span(text, member));
  }
  capture = false;

after_value:
  p = skip_space(p, end);
  if (stack.empty()) {
    if (p != end) return false;  // more after the value
    // Bytes from 0x80 are grammar only inside strings; there they must be UTF-8 (no overlong forms, no surrogates).
    return !non_ascii || simdjson::validate_utf8(text.data(), text.size());
  }
  if (p == end) return false;
  if (*p == ',') {
    ++p;
    if (stack.back() == '[') goto value;
    goto name;
  }
  if (*p != (stack.back() == '{' ? '}' : ']')) return false;
  ++p;
  if (stack.size() == member.depth && member.begin && !member.end) {  // the field's container closed
    member.end = p;
    if (every) every->push_back(take_span(text, member));
  }
  stack.pop_back();
  goto after_value;

name:
  p = skip_space(p, end);
  if (p == end || *p != '"') return false;
  {
    const char* start = p;
    bool escaped = false;
    if (!(p = scan_string(p, end, escaped, non_ascii))) return false;
    if (want_field && stack.size() == 1 && (!member.begin || !every)) {
      const std::string_view inner(start + 1, static_cast<std::size_t>(p - start - 2));
      const bool named = escaped ? unescape(inner, key) && key == field : inner == field;
      if (!member.begin)
        capture = named;
      else
        member.repeated = member.repeated || named;
    }
  }
  p = skip_space(p, end);
  if (p == end || *p != ':') return false;
  ++p;
  goto value;
}

}  // namespace

bool JsonlFieldFinder::find(std::string_view line, std::string_view field, Found& out, std::string& error) {
  Member member;
  if (!scan_json(line, true, field, member, stack_, key_)) {
    error = "not valid JSON";
    return false;
  }
  if (line[line.find_first_not_of(" \t\n\r")] != '{') {
    error = "not a JSON object";
    return false;
  }
  if (!member.begin) {
    error = "no field \"" + std::string(field) + "\"";
    return false;
  }
  if (member.repeated) {  // readers differ in which one they take, and writing one back would leave the other
    error = "field \"" + std::string(field) + "\" appears more than once (which one holds the FEN is ambiguous)";
    return false;
  }
  if (!member.string) {
    error = "field \"" + std::string(field) + "\" is not a string";
    return false;
  }
  const std::string_view inner(member.begin + 1, static_cast<std::size_t>(member.end - member.begin - 2));
  if (member.escaped && !unescape(inner, value_)) {
    error = "field \"" + std::string(field) + "\" escapes a lone surrogate: not a string of Unicode characters";
    return false;
  }
  out.value = member.escaped ? std::string_view(value_) : inner;
  out.raw_begin = static_cast<std::size_t>(member.begin - line.data());
  out.raw_end = static_cast<std::size_t>(member.end - line.data());
  return true;
}

bool JsonlFieldFinder::find_values(std::string_view line, std::string_view field, std::vector<Span>& out) {
  out.clear();
  Member scratch;
  if (scan_json(line, true, field, scratch, stack_, key_, &out)) return true;
  out.clear();
  return false;
}

bool JsonlFieldFinder::is_json(std::string_view text) {
  Member member;
  std::string stack, key;
  return scan_json(text, false, {}, member, stack, key);
}

bool JsonlFieldFinder::string_value(std::string_view raw_token, std::string& out) {
  if (raw_token.size() < 2 || raw_token.front() != '"' || raw_token.back() != '"' || !is_json(raw_token)) return false;
  return unescape(raw_token.substr(1, raw_token.size() - 2), out);
}

std::size_t JsonlFieldFinder::raw_offset(std::string_view raw_token, std::size_t decoded) {
  std::size_t i = 1, n = 0;  // past the opening quote
  while (i + 1 < raw_token.size() && n < decoded) {
    if (raw_token[i] != '\\') {
      ++i, ++n;
      continue;
    }
    if (raw_token[i + 1] != 'u') {  // \" \\ \/ \b \f \n \r \t: one byte
      i += 2, ++n;
      continue;
    }
    if (i + 6 > raw_token.size()) break;  // not from a token scan_string accepted
    const std::uint32_t code = hex4(raw_token.data() + i + 2);
    i += 6;
    if (code >= 0xD800 && code < 0xDC00) {  // a surrogate pair: one 4-byte character
      i += 6;
      n += 4;
    } else {
      n += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    }
  }
  return i;
}

}  // namespace fenmill
