#include "render/html_report.h"

#include <algorithm>

#include "formats/jsonl.h"
#include "io/input_source.h"
#include "pgn/errors.h"
#include "render/render_fen.h"
#include "render/svg_chess.h"
#include "render/svg_message.h"
#include "xiangqi/errors.h"

namespace fenmill::render {
namespace {

constexpr const char* kStyle = R"(body{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;margin:24px;color:#222;background:#fafafa}
h1{font-size:1.6em;margin:0 0 .3em}h2{font-size:1.2em;margin:1.4em 0 .5em}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #ccc;padding:4px 10px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.code{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-weight:bold;color:#c0151b}
.rejects{display:grid;grid-template-columns:repeat(auto-fill,minmax(400px,1fr));gap:16px}
.reject{background:#fff;border:1px solid #ddd;border-radius:8px;padding:12px}
.reject h3{font-size:1em;margin:0 0 .4em;word-break:break-all}.where{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace}
.reject p{margin:.3em 0}pre{background:#f3f3f3;padding:6px;margin:.4em 0;white-space:pre-wrap;word-break:break-all}
.picture svg{max-width:100%;height:auto}
)";

void append_count_row(std::string& out, const char* name, std::uint64_t n) {
  append_format(out, "<tr><th>%s</th><td class=\"n\">%llu</td></tr>\n", name, static_cast<unsigned long long>(n));
}

// Index in outcome.reported of the first record with this code, or -1. A PGN game's code and a FEN record's may
// share a name (CLOCK_RANGE): each row of the table links to its own kind.
long first_with_code(const RunOutcome& outcome, std::string_view code, bool pgn) {
  for (std::size_t i = 0; i < outcome.reported.size(); ++i)
    if (outcome.reported[i].code == code && outcome.reported[i].pgn == pgn) return static_cast<long>(i);
  return -1;
}

void append_code_row(std::string& out, const RunOutcome& outcome, std::string_view name, std::string_view message,
                     std::uint64_t n, bool pgn) {
  out += "<tr><td class=\"code\">";
  long first = first_with_code(outcome, name, pgn);
  if (first >= 0) append_format(out, "<a href=\"#reject-%ld\">", first + 1);
  append_xml_text(out, name);
  if (first >= 0) out += "</a>";
  append_format(out, "</td><td class=\"n\">%llu</td><td>", static_cast<unsigned long long>(n));
  append_xml_text(out, message);
  out += "</td></tr>\n";
}

// A code's meaning in the words of its records' variant (a Xiangqi rank has 9 points and a general, not a king):
// that of the first record shown with it, else the run's.
std::string_view code_meaning(const Job& job, const RunOutcome& outcome, ErrorCode code) {
  const long first = first_with_code(outcome, error_name(code), false);
  const bool xiangqi =
      first >= 0 ? outcome.reported[static_cast<std::size_t>(first)].xiangqi : job.variant == Variant::kXiangqi;
  return xiangqi ? xiangqi::message_for(code) : error_message(code);
}

void append_summary(std::string& out, const Job& job, const RunOutcome& outcome) {
  const Counts& c = outcome.counts;
  out += "<p>Inputs: ";
  for (std::size_t i = 0; i < job.inputs.size(); ++i) {
    if (i) out += ", ";
    out += "<code>";
    append_xml_text(out, input_name(job.inputs[i]));
    out += "</code>";
  }
  out += "</p>\n<table class=\"summary\">\n";
  append_count_row(out, "records", c.records);
  append_count_row(out, "valid", c.valid);
  append_count_row(out, "invalid", c.invalid);
  if (c.games) append_count_row(out, "PGN games", c.games);
  out += "</table>\n";
  if (c.invalid == 0) return;
  out += "<h2>Invalid records by code</h2>\n<table class=\"codes\">\n<tr><th>code</th><th>records</th><th>meaning</th></tr>\n";
  for (int i = 1; i < kErrorCodeCount; ++i)
    if (std::uint64_t n = c.invalid_by_code[i])
      append_code_row(out, outcome, error_name(ErrorCode(i)), code_meaning(job, outcome, ErrorCode(i)), n, false);
  for (int i = 1; i < kPgnErrorCount; ++i)
    if (std::uint64_t n = c.invalid_games_by_code[i])
      append_code_row(out, outcome, pgn_error_name(PgnError(i)), pgn_error_message(PgnError(i)), n, true);
  out += "</table>\n";
}

// The value of the JSON string whose opening quote stands just before `column` (a JSON Lines FEN field written
// with escapes: \/ for every '/', as some writers do), or "" when there is none.
std::string json_string_at(std::string_view text, std::uint32_t column) {
  if (column < 2 || column - 2 >= text.size() || text[column - 2] != '"') return {};
  std::size_t end = column - 1;
  while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
  std::string value;
  if (end >= text.size() || !JsonlFieldFinder::string_value(text.substr(column - 2, end - column + 3), value)) return {};
  return value;
}

// The picture of one rejected record, or "" for a PGN game (no single position to draw).
std::string picture(const Job& job, const ReportedReject& r, const RenderOptions& options) {
  ErrorCode code;
  if (r.pgn || !error_from_name(r.code, code)) return {};
  Caption caption{r.code, r.message};
  // The line of the record that the column counts in (a CSV row may span several), and the column in it.
  std::string_view text = r.input;
  std::uint32_t column = r.column;
  if (column != 0) {
    const std::size_t at = std::min(r.column_at != std::string::npos ? r.column_at : column - 1, text.size());
    const std::size_t nl = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
    const std::size_t line_start = nl == std::string_view::npos ? 0 : nl + 1;
    text = text.substr(line_start, text.find('\n', line_start) - line_start);
    column = static_cast<std::uint32_t>(at - line_start + 1);
  }
  if (is_syntax_error(code)) return message_svg(caption, text, column, options, r.column);
  std::string_view fen = fen_in_record(text, column);
  std::string unescaped;
  if (fen.find('\\') != std::string_view::npos && !(unescaped = json_string_at(text, column)).empty()) fen = unescaped;
  DiagnoseOptions diagnose;
  diagnose.variant = r.xiangqi ? Variant::kXiangqi : Variant::kChess;
  diagnose.chess960 = job.normalize.chess960;
  diagnose.repair = job.normalize.repair;
  diagnose.allow_operations = true;  // EPD operations after the position are no concern of the picture
  FenDiagnosis d = diagnose_fen(fen, diagnose);
  if (!d.parsed) return message_svg(caption, text, column, options, r.column);
  if (d.code != code) d.chess_marks = d.xq_marks = 0;  // judged differently here: better no marks than wrong ones
  return diagnosis_svg(d, fen, Caption{}, options);     // the entry above the board says what is wrong
}

void append_reject(std::string& out, const Job& job, const ReportedReject& r, std::size_t index,
                   const RenderOptions& options) {
  append_format(out, "<section class=\"reject\" id=\"reject-%zu\">\n<h3><span class=\"where\">", index + 1);
  append_xml_text(out, r.file);
  append_format(out, ":%llu:%u</span> <span class=\"code\">", static_cast<unsigned long long>(r.line), r.column);
  append_xml_text(out, r.code);
  out += "</span></h3>\n<p>";
  append_xml_text(out, r.message);
  out += "</p>\n";
  if (r.input_bytes != 0)
    append_format(out, "<p>The record is %llu bytes long: the %zu bytes around column %u are shown.</p>\n",
                  static_cast<unsigned long long>(r.input_bytes), r.input.size(), r.column);
  out += "<pre>";
  if (r.input_skipped != 0) out += "\xE2\x80\xA6";  // …
  append_xml_text(out, r.input);
  if (r.input_bytes != 0 && r.input_skipped + r.input.size() < r.input_bytes) out += "\xE2\x80\xA6";
  out += "</pre>\n";
  std::string svg = picture(job, r, options);
  if (!svg.empty()) (out += "<div class=\"picture\">\n") += svg + "</div>\n";
  out += "</section>\n";
}

}  // namespace

std::string_view fen_in_record(std::string_view input, std::uint32_t column) {
  std::size_t begin = column > 1 ? std::min<std::size_t>(column - 1, input.size()) : 0;
  std::string_view fen = input.substr(begin);
  std::size_t end = fen.find_first_of(column > 1 ? ",\"\t" : ",\"");
  return fen.substr(0, end);
}

std::string html_report(const Job& job, const RunOutcome& outcome) {
  const Counts& c = outcome.counts;
  std::string out;
  out.reserve(4096 + outcome.reported.size() * 6000);
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  append_format(out, "<title>fenmill validate: %llu invalid of %llu records</title>\n",
                static_cast<unsigned long long>(c.invalid), static_cast<unsigned long long>(c.records));
  out += "<style>\n";
  out += kStyle;
  out += "</style>\n</head>\n<body>\n";
  // The chess piece shapes once for the whole page; every board below refers to them.
  out += "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>\n";
  out += chess_piece_defs();
  out += "</defs></svg>\n<h1>fenmill validate</h1>\n";
  append_summary(out, job, outcome);
  if (!outcome.reported.empty()) {
    out += "<h2>Rejected records</h2>\n";
    if (outcome.reported.size() < c.invalid)
      append_format(out, "<p>The first %zu of %llu rejected records.</p>\n", outcome.reported.size(),
                    static_cast<unsigned long long>(c.invalid));
    out += "<div class=\"rejects\">\n";
    RenderOptions options;
    options.embed_defs = false;
    for (std::size_t i = 0; i < outcome.reported.size(); ++i) append_reject(out, job, outcome.reported[i], i, options);
    out += "</div>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace fenmill::render
