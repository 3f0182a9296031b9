#include "render/render_fen.h"

#include "fen/epd_operations.h"
#include "fen/normalize.h"
#include "fen/parse.h"
#include "fen/validate.h"
#include "pipeline/report.h"
#include "render/svg_chess.h"
#include "render/svg_message.h"
#include "render/svg_xiangqi.h"
#include "xiangqi/detect.h"
#include "xiangqi/parse.h"
#include "xiangqi/validate.h"

namespace fenmill::render {

namespace {

// An EPD record's hmvc / fmvn operations set the clocks, as normalize_fen reads them: the caption's move number is
// the one `convert --to fen` writes, and a bad operand is the syntax error validate reports. False (with the code
// and column in `d`) on such an error.
template <typename Pos>
bool read_epd_clocks(std::string_view text, std::uint32_t rest, const DiagnoseOptions& options, Pos& pos, FenDiagnosis& d) {
  if (!options.allow_operations || rest >= text.size()) return true;
  bool clock_repaired = false;
  d.code = apply_epd_clocks(text, rest, pos, options.repair, clock_repaired, d.column);
  d.parsed = d.ok();
  return d.parsed;
}

}  // namespace

FenDiagnosis diagnose_fen(std::string_view text, const DiagnoseOptions& options) {
  FenDiagnosis d;
  d.xiangqi = options.variant == Variant::kXiangqi ||
              (options.variant == Variant::kAuto && xiangqi::looks_like_xiangqi(text));
  if (d.xiangqi) {
    // As the chess path below: EPD operations and --repair's fullmove 0 are read, not taken for errors.
    xiangqi::ParseOptions po;
    po.allow_operations = options.allow_operations;
    po.repair = options.repair;
    xiangqi::ParseResult pr = xiangqi::parse_fen(text, d.xq, po);
    d.parsed = pr.ok();
    d.code = pr.code;
    d.column = pr.column;
    if (!d.parsed || !read_epd_clocks(text, pr.rest, options, d.xq, d)) return d;
    xiangqi::Verdict v = xiangqi::validate(d.xq);
    d.code = v.code;
    d.hints = v.hints;
    d.xq_marks = v.squares;
    return d;
  }
  ParseOptions po;
  po.chess960 = options.chess960;
  po.allow_operations = options.allow_operations;
  po.repair = options.repair;
  ParseResult pr = parse_fen(text, d.chess, po);
  d.parsed = pr.ok();
  d.code = pr.code;
  d.column = pr.column;
  if (!d.parsed || !read_epd_clocks(text, pr.rest, options, d.chess, d)) return d;
  Position checked = d.chess;  // the board is drawn as written, whatever validate looks at
  Verdict v = validate(checked, options.repair);
  d.code = v.code;
  d.hints = v.hints;
  NormalizeOptions as_read;
  as_read.chess960 = options.chess960;
  as_read.repair = options.repair;
  as_read.allow_operations = options.allow_operations;
  if (castling_valid_as_chess960(text, v.code, as_read)) d.hints |= kHintChess960;
  d.chess_marks = v.squares;
  return d;
}

std::string diagnosis_message(const FenDiagnosis& d) {
  if (d.ok()) return {};
  Reject r{};
  r.code = d.code;
  r.hints = d.hints;
  r.squares = d.xiangqi ? 0 : d.chess_marks;
  r.xiangqi_squares = d.xiangqi ? d.xq_marks : 0;
  r.xiangqi = d.xiangqi;
  return reject_message(r);
}

std::string diagnosis_svg(const FenDiagnosis& d, std::string_view text, const Caption& caption, const RenderOptions& options) {
  if (!d.parsed) return message_svg(caption, text, d.column, options);
  if (d.xiangqi) return xiangqi_svg(d.xq, d.xq_marks, caption, options);
  return chess_svg(d.chess, d.chess_marks, caption, options);
}

std::string render_fen_svg(std::string_view text, const DiagnoseOptions& diagnose, const RenderOptions& options,
                           FenDiagnosis* diagnosis) {
  FenDiagnosis d = diagnose_fen(text, diagnose);
  std::string message = diagnosis_message(d);
  Caption caption;
  if (!d.ok()) caption = Caption{error_name(d.code), message};
  std::string svg = diagnosis_svg(d, text, caption, options);
  if (diagnosis) *diagnosis = d;
  return svg;
}

}  // namespace fenmill::render
