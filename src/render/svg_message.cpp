#include "render/svg_message.h"

#include <algorithm>

#include "core/utf8.h"

namespace fenmill::render {
namespace {

constexpr int kWidth = 930;  // as wide as a chess picture
constexpr int kPanelX = 20;
constexpr int kInner = kWidth - 2 * kPanelX - 60;
constexpr std::size_t kBefore = 24, kAfter = 20;  // bytes of context shown around the column

bool continuation(std::string_view s, std::size_t i) {
  return i < s.size() && utf8_continuation(s[i]);
}

// Bytes of the character at s[i]: a whole UTF-8 sequence when it looks like one, else 1.
std::size_t char_length(std::string_view s, std::size_t i) {
  std::size_t n = 1;
  if (static_cast<unsigned char>(s[i]) >= 0xC0)
    while (continuation(s, i + n) && n < 4) ++n;
  return n;
}

// The text with the byte at `column` highlighted, cut to a window around it.
void append_excerpt(std::string& out, std::string_view text, std::uint32_t column, int x, int y) {
  append_format(out, "<text x=\"%d\" y=\"%d\" font-family=\"%s\" font-size=\"28\" fill=\"#222\" xml:space=\"preserve\" "
                "style=\"white-space:pre\">", x, y, kMonoFont);
  std::size_t at = column == 0 ? text.size() : std::min<std::size_t>(column - 1, text.size());
  std::size_t begin = at > kBefore ? at - kBefore : 0;
  while (continuation(text, begin)) ++begin;
  std::size_t length = at < text.size() ? char_length(text, at) : 0;
  std::size_t end = std::min(text.size(), at + length + kAfter);
  while (continuation(text, end)) ++end;
  if (begin > 0) out += "\xE2\x80\xA6";  // …
  append_xml_text(out, text.substr(begin, at - begin));
  if (column != 0) {
    append_format(out, "<tspan fill=\"%s\" font-weight=\"bold\" text-decoration=\"underline\">", kMarkColor);
    bool blank = length == 0 || text[at] == ' ' || text[at] == '\t';
    if (blank)
      out += "\xE2\x90\xA3";  // ␣: the error is at a blank or past the end
    else
      append_xml_text(out, text.substr(at, length));
    out += "</tspan>";
  }
  append_xml_text(out, text.substr(at + length, end - at - length));
  if (end < text.size()) out += "\xE2\x80\xA6";
  out += "</text>\n";
}

}  // namespace

std::string message_svg(const Caption& caption, std::string_view text, std::uint32_t column, const RenderOptions& options,
                        std::uint32_t shown_column) {
  const int caption_top = kPanelX + 56;
  const int excerpt_top = caption_top + caption_height(caption, kInner);
  const int height = excerpt_top + 110;
  std::string out;
  append_svg_open(out, kWidth, height, options.size);
  append_format(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", kWidth, height);
  append_format(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"14\" fill=\"#fff4f3\" stroke=\"%s\" stroke-width=\"4\"/>\n",
                kPanelX, kPanelX, kWidth - 2 * kPanelX, height - 2 * kPanelX, kMarkColor);
  append_format(out, "<text x=\"%d\" y=\"%d\" font-family=\"%s\" font-size=\"28\" fill=\"#555\">No board: this record is not a position</text>\n",
                kPanelX + 30, kPanelX + 50, kSansFont);
  append_caption(out, caption, kPanelX + 30, caption_top, kInner);
  if (column != 0)
    append_format(out, "<text x=\"%d\" y=\"%d\" font-family=\"%s\" font-size=\"24\" fill=\"#555\">column %u</text>\n",
                  kPanelX + 30, excerpt_top + 30, kSansFont, shown_column != 0 ? shown_column : column);
  append_excerpt(out, text, column, kPanelX + 30, excerpt_top + 72);
  out += "</svg>\n";
  return out;
}

}  // namespace fenmill::render
