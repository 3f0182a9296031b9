// From FEN text to a picture: parse, validate, then draw the board with the offending squares marked and
// the error as a caption, or, when no placement can be read, the message panel. Parsing and validating
// are done here step by step (not with normalize_fen) because a rejected position's board is still drawn.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/position.h"
#include "fen/errors.h"
#include "pipeline/job.h"
#include "render/svg_common.h"
#include "xiangqi/position.h"

namespace fenmill::render {

struct DiagnoseOptions {
  Variant variant = Variant::kAuto;  // auto: 10 ranks (xiangqi::looks_like_xiangqi) is Xiangqi
  bool chess960 = false;             // ParseOptions::chess960
  bool allow_operations = false;     // EPD: leave text after the fourth field alone
  bool repair = false;               // validate as --repair does (drop bad castling rights / ep square first)
};

struct FenDiagnosis {
  bool xiangqi = false;
  bool parsed = false;  // the placement was read: there is a board to draw
  ErrorCode code = ErrorCode::kOk;
  std::uint32_t column = 0;  // syntax errors
  std::uint8_t hints = 0;
  Position chess{};
  xiangqi::Position xq{};
  Bitboard chess_marks = 0;         // Verdict::squares
  xiangqi::Bitboard xq_marks = 0;   // xiangqi::Verdict::squares
  bool ok() const { return code == ErrorCode::kOk; }
};

FenDiagnosis diagnose_fen(std::string_view text, const DiagnoseOptions& options);

// The message as `fenmill validate` words it (squares and hints included); empty for a valid position.
std::string diagnosis_message(const FenDiagnosis& d);

// The picture for a diagnosis: the board (offending squares marked, caption under it) when it parsed,
// else the message panel showing `text` around the error's column.
std::string diagnosis_svg(const FenDiagnosis& d, std::string_view text, const Caption& caption, const RenderOptions& options);

// diagnose_fen + diagnosis_svg with the diagnosis's own code and message as the caption.
std::string render_fen_svg(std::string_view text, const DiagnoseOptions& diagnose, const RenderOptions& options,
                           FenDiagnosis* diagnosis = nullptr);

}  // namespace fenmill::render
