#include "render/svg_common.h"

#include <cstdarg>
#include <cstdio>

#include "core/utf8.h"

namespace fenmill::render {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Whether a character may be written as it is. Not: the C0 controls but tab, LF and CR (XML forbids them);
// DEL, the C1 controls and the noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF), which XML allows but which
// are parse errors in HTML (the report holds the pictures); and the bidi embedding, override and isolate
// controls (U+202A..U+202E, U+2066..U+2069), which would show a record's bytes in another order than they
// stand in, its marked column elsewhere.
bool shown_as_is(std::uint32_t c) {
  if (c < 0x20) return c == '\t' || c == '\n' || c == '\r';
  if (c >= 0x7F && c <= 0x9F) return false;
  if ((c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE) return false;
  return !(c >= 0x202A && c <= 0x202E) && !(c >= 0x2066 && c <= 0x2069);
}

// The code point of the well-formed UTF-8 sequence of n bytes at s[i].
std::uint32_t decode(std::string_view s, std::size_t i, std::size_t n) {
  static constexpr unsigned char kLeadBits[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  std::uint32_t c = static_cast<unsigned char>(s[i]) & kLeadBits[n];
  for (std::size_t k = 1; k < n; ++k) c = c << 6 | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return c;
}

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Byte length of the first max_chars code points of s.
std::size_t prefix_bytes(std::string_view s, std::size_t max_chars) {
  std::size_t i = 0, chars = 0;
  while (i < s.size() && chars < max_chars) {
    ++i;
    while (i < s.size() && utf8_continuation(s[i])) ++i;
    ++chars;
  }
  return i;
}

constexpr int kCodeFontSize = 32;
constexpr int kMessageFontSize = 28;
constexpr int kLineHeight = 36;
constexpr int kCharWidth = 15;  // a generous average advance of the sans font at kMessageFontSize

}  // namespace

void append_xml_text(std::string& out, std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t n = utf8_sequence_length(text, i);
    if (n == 0 || !shown_as_is(decode(text, i, n))) {
      out += kReplacement;  // one for each byte of invalid UTF-8, one for a character
      i += n == 0 ? 1 : n;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.append(text.substr(i, n));
    }
    i += n;
  }
}

void append_format(std::string& out, const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  int n = std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (n > 0) out.append(buffer, static_cast<std::size_t>(n) < sizeof buffer ? static_cast<std::size_t>(n) : sizeof buffer - 1);
}

std::vector<std::string> wrap_words(std::string_view text, std::size_t max_chars) {
  std::vector<std::string> lines;
  std::string line;
  if (max_chars == 0) max_chars = 1;
  while (!text.empty()) {
    std::size_t space = text.find(' ');
    std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (word.empty()) continue;
    if (!line.empty() && code_points(line) + 1 + code_points(word) <= max_chars) {
      line += ' ';
      line += word;
      continue;
    }
    if (!line.empty()) lines.push_back(std::move(line));
    line.clear();
    while (code_points(word) > max_chars) {
      std::size_t cut = prefix_bytes(word, max_chars);
      lines.emplace_back(word.substr(0, cut));
      word.remove_prefix(cut);
    }
    line = word;
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

void append_svg_open(std::string& out, int view_width, int view_height, int width_px) {
  int height_px = static_cast<int>((static_cast<long long>(width_px) * view_height + view_width / 2) / view_width);
  append_format(out,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
                width_px, height_px, view_width, view_height);
}

int caption_height(const Caption& caption, int width) {
  if (caption.code.empty()) return 0;
  std::size_t lines = wrap_words(caption.message, static_cast<std::size_t>(width / kCharWidth)).size();
  return 20 + kLineHeight * static_cast<int>(1 + lines) + 10;
}

void append_caption(std::string& out, const Caption& caption, int x, int y, int width) {
  if (caption.code.empty()) return;
  int baseline = y + 20 + kCodeFontSize;
  append_format(out, "<text x=\"%d\" y=\"%d\" font-family=\"%s\" font-size=\"%d\" font-weight=\"bold\" fill=\"%s\">",
                x, baseline, kSansFont, kCodeFontSize, kMarkColor);
  append_xml_text(out, caption.code);
  out += "</text>\n";
  for (const std::string& line : wrap_words(caption.message, static_cast<std::size_t>(width / kCharWidth))) {
    baseline += kLineHeight;
    append_format(out, "<text x=\"%d\" y=\"%d\" font-family=\"%s\" font-size=\"%d\" fill=\"#222\">", x, baseline,
                  kSansFont, kMessageFontSize);
    append_xml_text(out, line);
    out += "</text>\n";
  }
}

}  // namespace fenmill::render
