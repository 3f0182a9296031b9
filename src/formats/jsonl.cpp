#include "formats/jsonl.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include <simdjson.h>

#include "formats/json_runs.h"

namespace fenmill {
namespace {

using json_runs::is_digit;
using json_runs::is_space;

constexpr int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

// Compact JSON has no space between tokens: one test of the first byte settles most calls (no byte above ' ' is
// JSON whitespace).
template <class Runs>
[[gnu::always_inline]] inline const char* skip_space(const char* p, const char* end) {
  if (p == end || static_cast<unsigned char>(*p) > ' ') return p;
  return Runs::space(p, end);
}

// The string whose opening quote is at `p`: past its closing quote, or null when it is not a JSON string (not
// closed, a control character, an escape other than \" \\ \/ \b \f \n \r \t \uXXXX). Any \uXXXX is grammar, lone
// surrogates included. Bytes from 0x80 are only noted: the caller checks the line's UTF-8 once.
template <class Runs>
[[gnu::always_inline]] inline const char* scan_string(const char* p, const char* end, bool& escaped, bool& non_ascii) {
  ++p;
  for (;;) {
    p = Runs::plain(p, end);
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
      p = Runs::high(p, end);
    }
  }
}

// The number starting at `p`: past it, or null when it breaks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
// What follows it is the caller's business (01: the number is 0, then a 1 where a comma belongs).
template <class Runs>
const char* scan_number(const char* p, const char* end) {
  if (*p == '-') ++p;
  if (p == end) return nullptr;
  if (*p == '0') {
    ++p;
  } else if (is_digit(*p)) {
    p = Runs::digits(p, end);
  } else {
    return nullptr;
  }
  if (p < end && *p == '.') {
    const char* digits = ++p;
    p = Runs::digits(p, end);
    if (p == digits) return nullptr;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    const char* digits = p;
    p = Runs::digits(p, end);
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

// `stack` twice as large, for deeper nesting: out of line, as it seldom runs.
[[gnu::noinline]] char* grow(std::string& stack) {
  stack.resize(stack.size() * 2 + 15);  // 15 first: within std::string's own buffer, no allocation
  return stack.data();
}

// Whitespace skipped, whether the next byte is `c` (left unread). The byte is tested first: compact JSON has no
// whitespace between tokens.
template <class Runs>
[[gnu::always_inline]] inline bool next_is(const char*& p, const char* end, char c) {
  if (p < end && *p == c) return true;
  p = skip_space<Runs>(p, end);
  return p < end && *p == c;
}

// The finished member's offsets in `text`, leaving `member` empty for the next one.
JsonlFieldFinder::Span take_span(std::string_view text, Member& member) {
  const Member m = std::exchange(member, Member{});
  return {static_cast<std::size_t>(m.begin - text.data()), static_cast<std::size_t>(m.end - text.data())};
}

// Whether `text` is one JSON value (RFC 8259), whitespace around it allowed. With `want_field`, also the first
// member of the top-level object named `field` (and whether another one has that name: `member.repeated`), or
// with `every` all of them in order (`member` is then scratch).
// Nesting depth is bounded by memory only (`stack`, whose size is its capacity: [0, depth) are the open containers,
// '{' or '['). Written with one label per state rather than a state variable: each state's branches then predict
// on their own. `Runs` skips whitespace, digits and string bodies (formats/json_runs.h).
template <class Runs>
bool scan_json_with(std::string_view text, bool want_field, std::string_view field, Member& member,
                    std::string& stack, std::string& key, std::vector<JsonlFieldFinder::Span>* every) {
  const char* p = text.data();
  const char* const end = p + text.size();
  std::size_t depth = 0;
  char* open = stack.data();
  auto push = [&](char c) {
    if (depth == stack.size()) open = grow(stack);
    open[depth++] = c;
  };
  bool non_ascii = false;
  bool capture = false;  // this value is the field's

value:
  p = skip_space<Runs>(p, end);
  if (p == end) return false;
  if (capture) member = Member{p, nullptr, false, false};
  switch (*p) {
    case '{':
      if (next_is<Runs>(++p, end, '}')) {
        ++p;  // empty: a whole value
        break;
      }
      push('{');
      if (capture) member.depth = depth;
      capture = false;
      goto name;
    case '[':
      if (next_is<Runs>(++p, end, ']')) {
        ++p;
        break;
      }
      push('[');
      if (capture) member.depth = depth;
      capture = false;
      goto value;
    case '"': {
      bool escaped = false;
      if (!(p = scan_string<Runs>(p, end, escaped, non_ascii))) return false;
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
      if (!(p = scan_number<Runs>(p, end))) return false;
      break;
  }
  if (capture) {
    member.end = p;
    if (every) every->push_back(take_span(text, member));
  }
  capture = false;

after_value:
  p = skip_space<Runs>(p, end);
  if (depth == 0) {
    if (p != end) return false;  // more after the value
    // Bytes from 0x80 are grammar only inside strings; there they must be UTF-8 (no overlong forms, no surrogates).
    return !non_ascii || simdjson::validate_utf8(text.data(), text.size());
  }
  if (p == end) return false;
  if (*p == ',') {
    ++p;
    if (open[depth - 1] == '[') goto value;
    goto name;
  }
  if (*p != (open[depth - 1] == '{' ? '}' : ']')) return false;
  ++p;
  if (depth == member.depth && member.begin && !member.end) {  // the field's container closed
    member.end = p;
    if (every) every->push_back(take_span(text, member));
  }
  --depth;
  goto after_value;

name:
  if (!next_is<Runs>(p, end, '"')) return false;
  {
    const char* start = p;
    bool escaped = false;
    if (!(p = scan_string<Runs>(p, end, escaped, non_ascii))) return false;
    if (want_field && depth == 1 && (!member.begin || !every)) {
      const std::string_view inner(start + 1, static_cast<std::size_t>(p - start - 2));
      const bool named = escaped ? unescape(inner, key) && key == field : inner == field;
      if (!member.begin)
        capture = named;
      else
        member.repeated = member.repeated || named;
    }
  }
  if (!next_is<Runs>(p, end, ':')) return false;
  ++p;
  goto value;
}

// The 16-bytes-a-step runs where SSE2 is (every x86-64), unless FENMILL_NO_SIMD is set (to compare the paths end to
// end); the byte loops elsewhere, and for texts under 16 bytes, which the vector runs do not take.
bool vector_runs_chosen() {
#if defined(__SSE2__)
  return std::getenv("FENMILL_NO_SIMD") == nullptr;
#else
  return false;
#endif
}

bool use_vector_runs(JsonlFieldFinder::Scan scan) {
  static const bool chosen = vector_runs_chosen();
  return scan == JsonlFieldFinder::Scan::kChosen ? chosen : scan == JsonlFieldFinder::Scan::kVector;
}

bool scan_json(std::string_view text, bool vector, bool want_field, std::string_view field, Member& member,
               std::string& stack, std::string& key, std::vector<JsonlFieldFinder::Span>* every = nullptr) {
#if defined(__SSE2__)
  if (vector && text.size() >= 16)
    return scan_json_with<json_runs::Sse2>(text, want_field, field, member, stack, key, every);
#else
  (void)vector;
#endif
  return scan_json_with<json_runs::Scalar>(text, want_field, field, member, stack, key, every);
}

}  // namespace

JsonlFieldFinder::JsonlFieldFinder(Scan scan) : vector_(use_vector_runs(scan)) {}

bool JsonlFieldFinder::find(std::string_view line, std::string_view field, Found& out, std::string& error) {
  Member member;
  if (!scan_json(line, vector_, true, field, member, stack_, key_)) {
    error = "not valid JSON";
    return false;
  }
  std::size_t first = 0;  // the line is JSON: it has a byte other than whitespace
  while (is_space(line[first])) ++first;
  if (line[first] != '{') {
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
  if (scan_json(line, vector_, true, field, scratch, stack_, key_, &out)) return true;
  out.clear();
  return false;
}

bool JsonlFieldFinder::is_json(std::string_view text, Scan scan) {
  Member member;
  std::string stack, key;
  return scan_json(text, use_vector_runs(scan), false, {}, member, stack, key);
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
