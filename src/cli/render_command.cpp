#include "cli/render_command.h"
#include "cli/path_check.h"
#include "cli/whole_number.h"

#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <functional>

#include "fen/text_cursor.h"
#include "formats/binary_file.h"
#include "io/atomic_output.h"
#include "io/byte_order_mark.h"
#include "io/input_peek.h"
#include "io/input_source.h"
#include "pipeline/chunk_feed.h"
#include "pipeline/report.h"
#include "render/render_fen.h"

namespace fenmill::cli {
namespace {

namespace fs = std::filesystem;

const char* format_name(InputFormat format) {
  switch (format) {
    case InputFormat::kCsv: return "CSV";
    case InputFormat::kJsonl: return "JSON Lines";
    case InputFormat::kBinary: return "binary";
    case InputFormat::kPgn: return "PGN";
    case InputFormat::kEpd: return "EPD";
    case InputFormat::kFen: break;
  }
  return "FEN";
}

bool path_exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

// Whether a name that is no file was meant as one rather than as a FEN: no blank in it, and its last part has
// an extension (a FEN has no '.') or the directory before it exists (a FEN's ranks are no directories).
bool reads_as_path(const std::string& input) {
  if (input.find_first_of(" \t") != std::string::npos) return false;
  const std::size_t slash = input.rfind('/');
  const std::string_view last = slash == std::string::npos ? std::string_view(input) : std::string_view(input).substr(slash + 1);
  const std::size_t dot = last.rfind('.');
  if (dot != std::string_view::npos && dot + 1 < last.size()) return true;
  if (slash == std::string::npos) return false;
  struct stat st;
  return ::stat(slash == 0 ? "/" : input.substr(0, slash).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Calls on_line(text, number) for every non-blank line until it returns false; false with `error` on a
// read failure. Streams: memory stays bounded by the longest line.
bool for_each_record(InputSource& source, const std::function<bool(std::string_view, std::uint64_t)>& on_line,
                     std::string& error) {
  std::uint64_t number = 0;
  auto line = [&](std::string_view text) {
    ++number;
    if (number == 1 && starts_with_utf8_bom(text)) text.remove_prefix(3);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    return is_blank_line(text) || on_line(text, number);
  };
  // Feeds the complete lines of `bytes`; returns how many bytes were used, or npos to stop.
  auto feed = [&](std::string_view bytes) -> std::size_t {
    std::size_t start = 0;
    for (std::size_t nl; (nl = bytes.find('\n', start)) != std::string_view::npos; start = nl + 1)
      if (!line(bytes.substr(start, nl - start))) return std::string_view::npos;
    return start;
  };
  if (std::string_view all = source.mapped(); !all.empty()) {
    std::size_t used = feed(all);
    if (used != std::string_view::npos && used < all.size()) line(all.substr(used));
    return true;
  }
  std::string buffer;
  for (;;) {
    std::size_t got = source.read(buffer, std::size_t{1} << 20, error);
    if (!error.empty()) return false;
    std::size_t used = feed(buffer);
    if (used == std::string_view::npos) return true;
    buffer.erase(0, used);
    if (got == 0) break;
  }
  if (!buffer.empty()) line(buffer);
  return true;
}

bool write_file(const std::string& path, const std::string& bytes, bool force, std::string& error) {
  std::unique_ptr<AtomicOutput> out = AtomicOutput::open(path, force, error);
  if (!out) return false;
  if (!out->write(bytes)) {
    error = out->error();
    return false;
  }
  return out->commit(error);
}

}  // namespace

RenderCommand::RenderCommand(CLI::App& app) {
  sub_ = app.add_subcommand("render", "draw positions as SVG, marking what makes a position invalid");
  sub_->add_option("INPUT", args_.input,
                   "a FEN (in quotes), or a file of FEN/EPD lines (the first record is drawn; - for stdin)")
      ->required()
      ->check(fenmill::cli::non_empty_path());
  CLI::Option* output = sub_->add_option("-o,--output", args_.output, "the SVG file, - for stdout (the default)");
  sub_->add_option("--each", args_.each_dir, "one SVG per record in this directory, named by line: DIR/line-000042.svg")
      ->excludes(output)
      ->check(fenmill::cli::non_empty_path());
  sub_->add_option("--variant", args_.variant, "chess, xiangqi, or auto (10 ranks is Xiangqi; the default)")
      ->check(CLI::IsMember({"chess", "xiangqi", "auto"}));
  sub_->add_flag("--flip", args_.flip, "draw the board from Black's side");
  sub_->add_option("--size", args_.size, "picture width in pixels (default 360; it scales without loss)")
      ->transform(fenmill::cli::whole_number_in(16, 100000));
  sub_->add_flag("--chess960", args_.chess960, "read KQkq as X-FEN (outermost rook)");
  sub_->add_flag("--force", args_.force, "overwrite existing files");
  sub_->add_flag("-q,--quiet", args_.quiet, "no notes on stderr");
}

bool RenderCommand::selected() const { return sub_->parsed(); }

int RenderCommand::run() const {
  const RenderArgs& a = args_;
  render::DiagnoseOptions diagnose;
  diagnose.variant = a.variant == "chess" ? Variant::kChess : a.variant == "xiangqi" ? Variant::kXiangqi : Variant::kAuto;
  diagnose.chess960 = a.chess960;
  render::RenderOptions options;
  options.size = a.size;
  options.flip = a.flip;

  std::string error;
  std::uint64_t pictures = 0, invalid = 0;
  bool sniff_epd = false;  // the first record decides between FEN and EPD (set below)
  bool each_dir_made = false;
  // Draws one record; false stops (after an error, or after the first record without --each).
  auto draw = [&](std::string_view text, std::uint64_t line) {
    if (sniff_epd) diagnose.allow_operations = fen_or_epd(text) == InputFormat::kEpd;
    sniff_epd = false;
    render::FenDiagnosis d;
    std::string svg = render::render_fen_svg(text, diagnose, options, &d);
    std::string path = a.output;
    if (!a.each_dir.empty()) {
      char name[40];
      std::snprintf(name, sizeof name, "line-%06llu.svg", static_cast<unsigned long long>(line));
      path = (fs::path(a.each_dir) / name).string();
      // Made for the first picture: a run with nothing to draw leaves no directory behind, as one that cannot start.
      if (!each_dir_made) {
        std::error_code ec;
        fs::create_directories(a.each_dir, ec);
        if (ec) {
          error = a.each_dir + ": " + ec.message();
          return false;
        }
        each_dir_made = true;
      }
    }
    if (!write_file(path, svg, a.force, error)) return false;
    ++pictures;
    if (!d.ok()) {
      ++invalid;
      if (!a.quiet && a.each_dir.empty())
        std::fprintf(stderr, "fenmill: line %llu: %s: %s\n", static_cast<unsigned long long>(line),
                     std::string(error_name(d.code)).c_str(), render::diagnosis_message(d).c_str());
    }
    return !a.each_dir.empty();
  };

  bool is_file = a.input == "-" || path_exists(a.input);
  if (!is_file && a.input.find('/') == std::string::npos) {
    std::fprintf(stderr, "fenmill: error: %s: no such file (a FEN needs its '/' between ranks)\n", one_line(a.input).c_str());
    return kExitUsageOrIo;
  }
  if (!is_file && reads_as_path(a.input)) {
    std::fprintf(stderr, "fenmill: error: %s: no such file\n", one_line(a.input).c_str());
    return kExitUsageOrIo;
  }
  if (is_file) {
    // The extension decides as it does for validate (any case, under .zst too); render reads lines of FEN or EPD.
    const InputFormat format = a.input == "-" ? InputFormat::kFen : input_format_of(Job{}, a.input);
    if (format != InputFormat::kFen && format != InputFormat::kEpd) {
      std::fprintf(stderr, "fenmill: error: %s: render draws FEN or EPD lines, not %s records (validate --html draws "
                   "the rejected ones of any format)\n", one_line(a.input).c_str(), format_name(format));
      return kExitUsageOrIo;
    }
    diagnose.allow_operations = format == InputFormat::kEpd;
    // A fenmill binary file under a text name or on stdin (one named .bin is refused above): its header is no FEN
    // line, and drawing it as one said only BAD_PIECE. Its first bytes are peeked (stdin's are kept for the read),
    // no further than bytes that cannot start the magic; an error is the open's below to report.
    const std::string_view magic = kBinaryMagicText;
    std::string head, peek_error;
    if (peek_input(a.input, magic.size(), head, peek_error,
                   [&](std::string_view h) { return h.size() >= magic.size() || !magic.starts_with(h); }) &&
        starts_with_binary_magic(head)) {
      std::fprintf(stderr, "fenmill: error: %s: render draws FEN or EPD lines, not binary records (it starts with "
                   "FENMILLB, a fenmill binary file)\n", one_line(input_name(a.input)).c_str());
      return kExitUsageOrIo;
    }
  }
  // Stdin or a name that says nothing: EPD when the first record holds a ;, as --from auto reads it.
  sniff_epd = is_file && (a.input == "-" || !has_format_extension(a.input));
  // --each's directory is made with the first picture: a run that cannot start leaves nothing behind.
  std::unique_ptr<InputSource> source;
  if (is_file && !(source = InputSource::open(a.input, error))) {
    std::fprintf(stderr, "fenmill: error: %s\n", one_line(error).c_str());
    return kExitUsageOrIo;
  }
  if (source) {
    if (!for_each_record(*source, draw, error) && error.empty()) error = input_name(a.input) + ": cannot read";
  } else {
    draw(a.input, 1);
  }
  if (!error.empty()) {
    // --each publishes each picture whole as it goes: those written before the failure stay, and are said.
    std::string kept;
    if (!a.each_dir.empty() && pictures > 0)
      kept = " (" + std::to_string(pictures) + (pictures == 1 ? " picture written before it is" : " pictures written before it are") +
             " kept in " + a.each_dir + ")";
    std::fprintf(stderr, "fenmill: error: %s\n", one_line(error + kept).c_str());
    return kExitUsageOrIo;
  }
  // Nothing to draw is a data problem with or without --each (which said "0 pictures", exit 0, and nothing under -q).
  if (pictures == 0) {
    std::fprintf(stderr, "fenmill: %s holds no record to draw\n", one_line(input_name(a.input)).c_str());
    return kExitDataProblem;
  }
  if (!a.quiet && !a.each_dir.empty())
    std::fprintf(stderr, "fenmill: %llu %s in %s (%llu of %s)\n", static_cast<unsigned long long>(pictures),
                 pictures == 1 ? "picture" : "pictures", one_line(a.each_dir).c_str(),
                 static_cast<unsigned long long>(invalid), invalid == 1 ? "an invalid position" : "invalid positions");
  return kExitOk;
}

}  // namespace fenmill::cli
