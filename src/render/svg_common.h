// What every picture shares: options, the caption of a rejected position, XML-safe text and the
// <svg> frame. Pictures are drawn in integer user units (a board square or point is 100), so the same
// input always gives the same bytes and the picture stays crisp at any size (viewBox).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fenmill::render {

struct RenderOptions {
  int size = 360;          // width in pixels; the height follows the picture's shape
  bool flip = false;       // seen from Black's side
  bool embed_defs = true;  // piece shapes inside this SVG; false when a page holds them once (html_report.h)
};

// What is wrong with the position, shown under the board; an empty code means nothing is.
struct Caption {
  std::string_view code;
  std::string_view message;
};

// Fonts by role; generic families last so that every renderer finds something.
inline constexpr const char* kSansFont = "'DejaVu Sans', Verdana, Arial, Helvetica, sans-serif";
inline constexpr const char* kMonoFont = "'DejaVu Sans Mono', Menlo, Consolas, 'Courier New', monospace";

inline constexpr const char* kMarkColor = "#e0201b";  // the outline of an offending square or point

// Appends text escaped for XML content and attribute values. Bytes that are not valid UTF-8, control
// characters XML forbids, characters that are parse errors in HTML (DEL, C1 controls, noncharacters) and bidi
// embedding/override/isolate controls become U+FFFD: a rejected record may hold anything, the picture and the
// report must still parse, and show the record's characters in their order.
void append_xml_text(std::string& out, std::string_view text);

// printf into a std::string (integers and short strings only, so output is locale-independent).
void append_format(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Greedy word wrap at max_chars code points per line; a longer word is cut.
std::vector<std::string> wrap_words(std::string_view text, std::size_t max_chars);

// <svg ...> with the viewBox and the pixel size (height scaled from width).
void append_svg_open(std::string& out, int view_width, int view_height, int width_px);

// The caption's height in user units for a picture of the given inner width (0 without a code).
int caption_height(const Caption& caption, int width);
// Draws the caption: the code in bold red, then the message wrapped to the width; top at y.
void append_caption(std::string& out, const Caption& caption, int x, int y, int width);

}  // namespace fenmill::render
