#include "render/svg_chess.h"

namespace fenmill::render {
namespace {

// Layout in user units: 100 per square, rank digits on the left, file letters and a status line below,
// the side-to-move disc on the right.
constexpr int kSquare = 100;
constexpr int kLeft = 60;
constexpr int kTop = 40;
constexpr int kBoard = 8 * kSquare;
constexpr int kWidth = kLeft + kBoard + 70;
constexpr int kBelowBoard = 110;  // file letters and the status line

constexpr const char* kLight = "#f0d9b5";
constexpr const char* kDark = "#b58863";

// One shape per piece type in a 100 x 100 box, without fill or stroke colour of their own: the <use>
// gives fill and stroke, and `color` for the inner lines (dark on white pieces, light on black ones).
constexpr const char* kBase = "<rect x=\"24\" y=\"78\" width=\"52\" height=\"10\" rx=\"4\"/>";
constexpr const char* kFoot = "<path d=\"M28 78H72\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\"/>";
constexpr const char* kShapes[kPieceTypeCount] = {
    // pawn: head, collar, body
    "<path d=\"M41 50C41 62 35 70 31 78H69C65 70 59 62 59 50Z\"/>"
    "<rect x=\"38\" y=\"44\" width=\"24\" height=\"6\" rx=\"3\"/><circle cx=\"50\" cy=\"31\" r=\"13\"/>",
    // knight: a horse's head facing left, with an eye
    "<path d=\"M32 78L44 54L28 61Q20 60 20 52L22 45L40 26L45 13L52 23C66 28 74 44 74 78Z\"/>"
    "<circle cx=\"37\" cy=\"38\" r=\"3.5\" fill=\"currentColor\" stroke=\"none\"/>",
    // bishop: mitre with a slit, knob and collar
    "<path d=\"M38 70C28 58 36 46 50 30C64 46 72 58 62 70Z\"/><circle cx=\"50\" cy=\"24\" r=\"6\"/>"
    "<rect x=\"34\" y=\"70\" width=\"32\" height=\"8\" rx=\"2\"/>"
    "<path d=\"M44 54L56 42M37 70H63\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\"/>",
    // rook: tower with battlements
    "<path d=\"M33 40H67L70 78H30Z\"/><path d=\"M28 18H38V26H45V18H55V26H62V18H72V40H28Z\"/>"
    "<path d=\"M31 40H69\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\"/>",
    // queen: five-pointed crown with balls
    "<path d=\"M30 78L22 36L34 56L36 28L45 54L50 22L55 54L64 28L66 56L78 36L70 78Z\"/>"
    "<circle cx=\"22\" cy=\"32\" r=\"5\"/><circle cx=\"36\" cy=\"24\" r=\"5\"/><circle cx=\"50\" cy=\"18\" r=\"5\"/>"
    "<circle cx=\"64\" cy=\"24\" r=\"5\"/><circle cx=\"78\" cy=\"32\" r=\"5\"/>"
    "<path d=\"M31 68H69\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\"/>",
    // king: cross over a two-lobed crown
    "<path d=\"M46 10H54V18H62V26H54V50H46V26H38V18H46Z\"/>"
    "<path d=\"M30 78C22 62 26 46 40 45C45 45 48 49 50 53C52 49 55 45 60 45C74 46 78 62 70 78Z\"/>"
    "<path d=\"M31 68H69\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\"/>",
};
constexpr char kPieceIds[kPieceTypeCount] = {'p', 'n', 'b', 'r', 'q', 'k'};

void append_piece_def(std::string& out, int type) {
  append_format(out, "<g id=\"fm-%c\" stroke-width=\"3\" stroke-linejoin=\"round\">%s%s%s</g>\n", kPieceIds[type],
                kShapes[type], kBase, kFoot);
}

// Top-left corner of a square on the picture.
int square_x(Square s, bool flip) { return kLeft + (flip ? 7 - file_of(s) : file_of(s)) * kSquare; }
int square_y(Square s, bool flip) { return kTop + (flip ? rank_of(s) : 7 - rank_of(s)) * kSquare; }

char castling_letter(Color c, Square rook) {
  int file = file_of(rook);
  char letter = file == 7 ? 'K' : file == 0 ? 'Q' : static_cast<char>('A' + file);
  return c == kWhite ? letter : static_cast<char>(letter - 'A' + 'a');
}

// "White to move · castling Kq · en passant e3 · move 17"
std::string status_line(const Position& pos) {
  std::string s = pos.side_to_move == kWhite ? "White to move" : "Black to move";
  std::string castling;
  for (Color c : {kWhite, kBlack})
    for (CastlingSide side : {kKingSide, kQueenSide})
      if (pos.castling_rook[c][side] < 64) castling += castling_letter(c, pos.castling_rook[c][side]);
  if (!castling.empty()) s += " \xC2\xB7 castling " + castling;
  if (pos.ep_square < 64) {
    s += " \xC2\xB7 en passant ";
    s += static_cast<char>('a' + file_of(pos.ep_square));
    s += static_cast<char>('1' + rank_of(pos.ep_square));
  }
  s += " \xC2\xB7 move " + std::to_string(pos.fullmove_number);
  return s;
}

}  // namespace

std::string chess_piece_defs() {
  std::string out;
  for (int t = 0; t < kPieceTypeCount; ++t) append_piece_def(out, t);
  return out;
}

std::string chess_svg(const Position& pos, Bitboard marked, const Caption& caption, const RenderOptions& options) {
  const bool flip = options.flip;
  const int caption_top = kTop + kBoard + kBelowBoard;
  const int height = caption_top + caption_height(caption, kBoard);
  std::string out;
  out.reserve(8192);
  append_svg_open(out, kWidth, height, options.size);
  if (options.embed_defs) {
    out += "<defs>\n";
    for (int t = 0; t < kPieceTypeCount; ++t)
      if (pos.by_type[t]) append_piece_def(out, t);
    out += "</defs>\n";
  }
  append_format(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", kWidth, height);

  // Squares: the light colour everywhere, then one path for the dark squares (a1 is dark).
  append_format(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n<path fill=\"%s\" d=\"", kLeft,
                kTop, kBoard, kBoard, kLight, kDark);
  for (Square s = 0; s < 64; ++s)
    if ((file_of(s) + rank_of(s)) % 2 == 0)
      append_format(out, "M%d %dh100v100h-100z", square_x(s, flip), square_y(s, flip));
  out += "\"/>\n";
  append_format(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#6b4f36\" stroke-width=\"2\"/>\n",
                kLeft, kTop, kBoard, kBoard);

  // Coordinates: rank digits left of the board, file letters under it.
  append_format(out, "<g font-family=\"%s\" font-size=\"30\" fill=\"#555\" text-anchor=\"middle\">\n", kSansFont);
  for (int i = 0; i < 8; ++i) {
    int rank = flip ? i : 7 - i;
    int file = flip ? 7 - i : i;
    append_format(out, "<text x=\"%d\" y=\"%d\">%c</text>", kLeft / 2, kTop + i * kSquare + 61, '1' + rank);
    append_format(out, "<text x=\"%d\" y=\"%d\">%c</text>\n", kLeft + i * kSquare + 50, kTop + kBoard + 40, 'a' + file);
  }
  out += "</g>\n";

  // Pieces, white then black; fill, stroke and detail colour come from the group.
  static constexpr const char* kColours[2] = {"fill=\"#fafafa\" stroke=\"#1a1a1a\" color=\"#1a1a1a\"",
                                              "fill=\"#2b2b2b\" stroke=\"#000\" color=\"#eee\""};
  for (Color c : {kWhite, kBlack}) {
    if (!pos.by_color[c]) continue;
    append_format(out, "<g %s>\n", kColours[c]);
    for (Bitboard b = pos.by_color[c]; b; b &= b - 1) {
      Square s = lsb(b);
      PieceType t = pos.type_on(s);
      if (t == kPieceTypeCount) continue;
      append_format(out, "<use xlink:href=\"#fm-%c\" x=\"%d\" y=\"%d\"/>\n", kPieceIds[t], square_x(s, flip),
                    square_y(s, flip));
    }
    out += "</g>\n";
  }

  // What is wrong, on top of everything on the board.
  if (marked) {
    append_format(out, "<g fill=\"none\" stroke=\"%s\" stroke-width=\"8\">\n", kMarkColor);
    for (Bitboard b = marked; b; b &= b - 1)
      append_format(out, "<rect x=\"%d\" y=\"%d\" width=\"92\" height=\"92\"/>\n", square_x(lsb(b), flip) + 4,
                    square_y(lsb(b), flip) + 4);
    out += "</g>\n";
  }

  // Side to move: a disc beside the edge of the side that moves.
  bool mover_at_bottom = (pos.side_to_move == kWhite) != flip;
  append_format(out, "<circle cx=\"%d\" cy=\"%d\" r=\"20\" %s stroke-width=\"3\"/>\n", kLeft + kBoard + 35,
                mover_at_bottom ? kTop + kBoard - 50 : kTop + 50,
                pos.side_to_move == kWhite ? "fill=\"#fafafa\" stroke=\"#1a1a1a\"" : "fill=\"#2b2b2b\" stroke=\"#000\"");
  append_format(out, "<text x=\"%d\" y=\"%d\" font-family=\"%s\" font-size=\"26\" fill=\"#444\">", kLeft,
                kTop + kBoard + 88, kSansFont);
  append_xml_text(out, status_line(pos));
  out += "</text>\n";
  append_caption(out, caption, kLeft, caption_top, kBoard);
  out += "</svg>\n";
  return out;
}

}  // namespace fenmill::render
