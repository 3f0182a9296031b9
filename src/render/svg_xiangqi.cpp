#include "render/svg_xiangqi.h"

namespace fenmill::render {
namespace {

using xiangqi::kFileCount;
using xiangqi::kRankCount;

// Layout in user units: 100 between points, rank digits on the left, file letters and a status line
// below, the side-to-move disc on the right.
constexpr int kPoint = 100;
constexpr int kLeft = 100;
constexpr int kTop = 70;
constexpr int kLinesWidth = (kFileCount - 1) * kPoint;   // 800
constexpr int kLinesHeight = (kRankCount - 1) * kPoint;  // 900
constexpr int kWidth = kLeft + kLinesWidth + 130;
constexpr int kBelowBoard = 160;
constexpr int kDisc = 44;  // piece radius

constexpr const char* kCjkFont =
    "KaiTi, STKaiti, 'Kaiti SC', 'AR PL UKai CN', 'Noto Serif CJK SC', 'Noto Serif CJK TC', 'Source Han Serif SC', "
    "'Songti SC', SimSun, 'WenQuanYi Micro Hei', 'WenQuanYi Zen Hei', 'Noto Sans CJK SC', 'Microsoft YaHei', serif";
constexpr const char* kLineColour = "#5a3a1a";
constexpr const char* kPieceColour[2] = {"#b3261e", "#1f1f1f"};
// In xiangqi::PieceType order: general, advisor, elephant, horse, chariot, cannon, soldier.
constexpr const char* kCharacters[2][xiangqi::kPieceTypeCount] = {
    {"帥", "仕", "相", "傌", "俥", "炮", "兵"},
    {"將", "士", "象", "馬", "車", "砲", "卒"},
};

int point_x(int file, bool flip) { return kLeft + (flip ? kFileCount - 1 - file : file) * kPoint; }
int point_y(int rank, bool flip) { return kTop + (flip ? rank : kRankCount - 1 - rank) * kPoint; }

// The small corner marks on the cannons' and soldiers' starting points (half marks on the edge files).
void append_point_marks(std::string& out) {
  static constexpr int kMarked[][2] = {{1, 2}, {7, 2}, {1, 7}, {7, 7}, {0, 3}, {2, 3}, {4, 3}, {6, 3}, {8, 3},
                                       {0, 6}, {2, 6}, {4, 6}, {6, 6}, {8, 6}};
  append_format(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" d=\"", kLineColour);
  for (const auto& p : kMarked) {
    int x = point_x(p[0], false), y = point_y(p[1], false);
    for (int dx : {-1, 1}) {
      if ((p[0] == 0 && dx < 0) || (p[0] == kFileCount - 1 && dx > 0)) continue;
      for (int dy : {-1, 1}) append_format(out, "M%d %dV%dH%d", x + dx * 8, y + dy * 24, y + dy * 8, x + dx * 24);
    }
  }
  out += "\"/>\n";
}

void append_board(std::string& out) {
  append_format(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"8\" fill=\"#f2d8a7\"/>\n", kLeft - 56,
                kTop - 56, kLinesWidth + 112, kLinesHeight + 112);
  append_format(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"5\"/>\n",
                kLeft - 10, kTop - 10, kLinesWidth + 20, kLinesHeight + 20, kLineColour);
  append_format(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"3\" d=\"", kLineColour);
  for (int r = 0; r < kRankCount; ++r) append_format(out, "M%d %dH%d", kLeft, kTop + r * kPoint, kLeft + kLinesWidth);
  // Files: the edge files run through; the inner ones stop at the river.
  for (int f = 0; f < kFileCount; ++f) {
    int x = kLeft + f * kPoint;
    if (f == 0 || f == kFileCount - 1)
      append_format(out, "M%d %dV%d", x, kTop, kTop + kLinesHeight);
    else
      append_format(out, "M%d %dV%dM%d %dV%d", x, kTop, kTop + 4 * kPoint, x, kTop + 5 * kPoint, kTop + kLinesHeight);
  }
  // Palace diagonals (files d-f, three ranks at each end).
  for (int top : {kTop, kTop + 7 * kPoint})
    append_format(out, "M%d %dL%d %dM%d %dL%d %d", kLeft + 3 * kPoint, top, kLeft + 5 * kPoint, top + 2 * kPoint,
                  kLeft + 5 * kPoint, top, kLeft + 3 * kPoint, top + 2 * kPoint);
  out += "\"/>\n";
  append_point_marks(out);
  append_format(out, "<g font-family=\"%s\" font-size=\"60\" fill=\"%s\" text-anchor=\"middle\">", kCjkFont, kLineColour);
  append_format(out, "<text x=\"%d\" y=\"%d\">楚 河</text><text x=\"%d\" y=\"%d\">漢 界</text></g>\n", kLeft + 2 * kPoint,
                kTop + 4 * kPoint + 71, kLeft + 6 * kPoint, kTop + 4 * kPoint + 71);
}

void append_coordinates(std::string& out, bool flip) {
  append_format(out, "<g font-family=\"%s\" font-size=\"30\" fill=\"#555\" text-anchor=\"middle\">\n", kSansFont);
  for (int r = 0; r < kRankCount; ++r)
    append_format(out, "<text x=\"28\" y=\"%d\">%d</text>", point_y(r, flip) + 11, r);
  out += "\n";
  for (int f = 0; f < kFileCount; ++f)
    append_format(out, "<text x=\"%d\" y=\"%d\">%c</text>", point_x(f, flip), kTop + kLinesHeight + 88, 'a' + f);
  out += "\n</g>\n";
}

void append_pieces(std::string& out, const xiangqi::Position& pos, bool flip) {
  for (xiangqi::Color c : {xiangqi::kRed, xiangqi::kBlack}) {
    if (!pos.by_color[c]) continue;
    append_format(out, "<g stroke=\"%s\">\n", kPieceColour[c]);
    xiangqi::for_each_point(pos.by_color[c], [&](xiangqi::Square s) {
      int x = point_x(xiangqi::file_of(s), flip), y = point_y(xiangqi::rank_of(s), flip);
      append_format(out,
                    "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"#fbeccb\" stroke-width=\"4\"/>"
                    "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"none\" stroke-width=\"2\"/>\n",
                    x, y, kDisc, x, y, kDisc - 7);
    });
    out += "</g>\n";
    append_format(out, "<g font-family=\"%s\" font-size=\"54\" fill=\"%s\" text-anchor=\"middle\">\n", kCjkFont,
                  kPieceColour[c]);
    xiangqi::for_each_point(pos.by_color[c], [&](xiangqi::Square s) {
      xiangqi::PieceType t = pos.type_on(s);
      if (t == xiangqi::kPieceTypeCount) return;
      append_format(out, "<text x=\"%d\" y=\"%d\">%s</text>\n", point_x(xiangqi::file_of(s), flip),
                    point_y(xiangqi::rank_of(s), flip) + 19, kCharacters[c][t]);
    });
    out += "</g>\n";
  }
}

}  // namespace

std::string xiangqi_svg(const xiangqi::Position& pos, xiangqi::Bitboard marked, const Caption& caption,
                        const RenderOptions& options) {
  const bool flip = options.flip;
  const int caption_top = kTop + kLinesHeight + kBelowBoard;
  const int height = caption_top + caption_height(caption, kLinesWidth);
  std::string out;
  out.reserve(16384);
  append_svg_open(out, kWidth, height, options.size);
  append_format(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", kWidth, height);
  append_board(out);
  append_coordinates(out, flip);
  append_pieces(out, pos, flip);
  if (marked) {
    append_format(out, "<g fill=\"none\" stroke=\"%s\" stroke-width=\"8\">\n", kMarkColor);
    xiangqi::for_each_point(marked & xiangqi::kAllSquares, [&](xiangqi::Square s) {
      append_format(out, "<rect x=\"%d\" y=\"%d\" width=\"96\" height=\"96\" rx=\"12\"/>\n",
                    point_x(xiangqi::file_of(s), flip) - 48, point_y(xiangqi::rank_of(s), flip) - 48);
    });
    out += "</g>\n";
  }
  bool mover_at_bottom = (pos.side_to_move == xiangqi::kRed) != flip;
  append_format(out, "<circle cx=\"%d\" cy=\"%d\" r=\"18\" fill=\"%s\" stroke=\"#1f1f1f\" stroke-width=\"3\"/>\n",
                kLeft + kLinesWidth + 85, mover_at_bottom ? kTop + kLinesHeight - 50 : kTop + 50,
                pos.side_to_move == xiangqi::kRed ? "#c8102e" : "#1f1f1f");
  append_format(out, "<text x=\"%d\" y=\"%d\" font-family=\"%s\" font-size=\"26\" fill=\"#444\">%s to move \xC2\xB7 move %u</text>\n",
                kLeft - 56, kTop + kLinesHeight + 138, kSansFont, pos.side_to_move == xiangqi::kRed ? "Red" : "Black",
                pos.fullmove_number);
  append_caption(out, caption, kLeft - 56, caption_top, kLinesWidth + 112);
  out += "</svg>\n";
  return out;
}

}  // namespace fenmill::render
