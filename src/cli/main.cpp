// fenmill's command line: parses arguments into a Job, runs it, turns errors into exit codes.
// Exceptions stop here; the engine below reports errors as values.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "cli/render_command.h"
#include "cli/path_check.h"
#include "cli/standard_streams.h"
#include "cli/whole_number.h"
#include "formats/binary_file.h"
#include "io/file_extension.h"
#include "io/input_peek.h"
#include "pipeline/chunk_feed.h"
#include "pipeline/report.h"
#include "pipeline/run.h"
#include "render/html_report.h"

namespace {

using fenmill::Command;
using fenmill::Job;

struct SubcommandSpec {
  const char* name;
  Command command;
  const char* help;
};

constexpr SubcommandSpec kSubcommands[] = {
    {"normalize", Command::kNormalize, "parse, validate, normalize and write every position"},
    {"dedup", Command::kDedup, "the same, keeping only the first occurrence of each position"},
    {"validate", Command::kValidate, "report invalid records (exit 1 if any, 0 if none)"},
    {"convert", Command::kConvert, "change format (fen, epd, bin), normalizing on the way"},
    {"stats", Command::kStats, "counts: records, valid, invalid by code, distinct positions, ..."},
};

// Options every subcommand shares; the string fields are resolved after parsing.
struct RawOptions {
  std::string to, from = "auto", ep = "legal", key = "position", castling = "xfen", plies, variant,
                  letters = "ucci", with_tags, csv_header = "auto";
  bool progress = false, no_progress = false;
};

// `writes_positions`: the subcommand's output is positions in a format --to picks; validate and stats write a
// report, so --to would be accepted and ignored there: it is not an option of theirs (kOwnedOptions).
void add_common_options(CLI::App* sub, Job& job, RawOptions& raw, bool writes_positions) {
  sub->add_option("INPUT", job.inputs, "input files; - for stdin; several are one stream in order")
      ->required()
      ->check(fenmill::cli::non_empty_path());  // (`"$IN"` with IN unset said ": No such file or directory")
  sub->add_option("-o,--output", job.output, writes_positions ? "output path, - for stdout (the default)"
                                                              : "report path, - for stdout (the default)");
  if (writes_positions)
    sub->add_option("--to", raw.to,
                    "output format: fen, epd, bin, csv (CSV input, FEN column replaced) or jsonl (JSON Lines input, "
                    "FEN field replaced), both also from PGN input (one row per position); default from the output's "
                    "extension, else fen")
        ->check(CLI::IsMember({"fen", "epd", "bin", "csv", "jsonl"}));
  sub->add_option("--from", raw.from,
                  "input format: auto (by extension: .epd .pgn .csv .tsv .jsonl .ndjson .bin, also under .zst; else by content), "
                  "fen, epd, "
                  "pgn, csv, jsonl, bin")
      ->check(CLI::IsMember({"auto", "fen", "epd", "csv", "jsonl", "bin", "pgn"}));
  sub->add_option("--fen-column", job.fen_column, "CSV: the FEN column's header name or 0-based index (default FEN or fen)");
  sub->add_option("--csv-header", raw.csv_header,
                  "CSV: whether the first row is a header: yes, no, or auto (yes with a column name; with an index, "
                  "yes when that field reads as a column name, not as a position however damaged)")
      ->check(CLI::IsMember({"auto", "yes", "no"}));
  sub->add_option("--json-field", job.json_field, "JSON Lines: the field holding the FEN (default fen)");
  sub->add_option("--variant", raw.variant, "chess (the default), xiangqi, or auto (per record: 10 ranks of 9 points is Xiangqi)")
      ->check(CLI::IsMember({"chess", "xiangqi", "auto"}));
  sub->add_option("--xiangqi-letters", raw.letters, "Xiangqi output letters: ucci (B elephant, N horse) or document (E, H)")
      ->check(CLI::IsMember({"ucci", "document"}));
  sub->add_option("--plies", raw.plies, "PGN: only plies FROM:TO of each game (0 = start position; either end may be empty)");
  sub->add_option("--every", job.every, "PGN: every Nth ply from the first selected one")->transform(fenmill::cli::whole_number_in(1, 1 << 30));
  sub->add_flag("--variations", job.follow_variations, "PGN: also emit the positions of variations (skipped by default)");
  sub->add_option("--with-tags", raw.with_tags, "PGN to CSV/JSONL: tags to add as columns/fields, e.g. Site,WhiteElo");
  sub->add_option("--threads", job.threads, "worker threads, 0 = all cores")->transform(fenmill::cli::whole_number_in(0, 1024));
  sub->add_option("--rejects", job.rejects_path, "write rejected records as JSON Lines to this file")
      ->check(fenmill::cli::non_empty_path());
  sub->add_option("--summary", job.summary_path, "write the run's counts as JSON to this file")
      ->check(fenmill::cli::non_empty_path());
  sub->add_option("--ep", raw.ep, "en-passant square: legal (keep if a capture is legal), pseudo, keep")
      ->check(CLI::IsMember({"legal", "pseudo", "keep"}));
  sub->add_flag("--repair", job.normalize.repair,
                "drop impossible castling rights / ep squares and fix impossible clocks instead of rejecting");
  sub->add_flag("--chess960", job.normalize.chess960, "read KQkq as X-FEN (outermost rook) everywhere");
  sub->add_option("--castling", raw.castling, "Chess960 castling notation: xfen or shredder")
      ->check(CLI::IsMember({"xfen", "shredder"}));
  sub->add_option("--chunk-size", job.chunk_size, "bytes per parallel chunk of text input; binary input goes a block (4096 records) a chunk (tests and tuning)")->transform(fenmill::cli::whole_number_in(1, 1 << 30));
  sub->add_flag("--force", job.force, "overwrite existing output files");
  sub->add_flag("--mmap", job.mmap, "memory-map whole regular input files, read in order (default: each worker maps its own FEN/EPD range)");
  sub->add_flag("--fail-on-invalid", job.fail_on_invalid, "exit 1 if any record is invalid");
  sub->add_flag("-q,--quiet", job.quiet, "no summary line on stderr");
  CLI::Option* progress =
      sub->add_flag("--progress", raw.progress, "show progress on stderr even when it is not a terminal, or the output is one");
  // Both given, --no-progress won without a word.
  sub->add_flag("--no-progress", raw.no_progress, "never show progress")->excludes(progress);
}

// An option some subcommands take and the others would accept and ignore (`normalize --key placement` looked as
// if it had done something): those others do not declare it (so their --help does not show it), and using it
// there is refused by name (misplaced_option) rather than with CLI11's bare "not expected".
struct OwnedOption {
  const char* name;
  const char* owners;  // the subcommands it applies to, for the message
  bool (*applies)(Command);
};

constexpr OwnedOption kOwnedOptions[] = {
    {"--to", "normalize, dedup and convert", fenmill::writes_positions},
    {"--key", "dedup and stats", [](Command c) { return c == Command::kDedup || c == Command::kStats; }},
    {"--count", "dedup", [](Command c) { return c == Command::kDedup; }},
    {"--json", "validate", [](Command c) { return c == Command::kValidate; }},
    {"--html", "validate", [](Command c) { return c == Command::kValidate; }},
};

// The first argument (after the subcommand, before a `--`) naming an option of other subcommands, or none of
// this one's, as a message; empty if none. Looked for before parsing, so that `normalize --key` without its value is refused the same way.
// The value of one of the subcommand's own options is skipped, as CLI11 takes it whatever it looks like:
// `--rejects --count` names a rejects file.
std::string misplaced_option(int argc, char** argv, const CLI::App& app) {
  const SubcommandSpec* spec = nullptr;
  for (const SubcommandSpec& s : kSubcommands)
    if (argc > 1 && std::strcmp(argv[1], s.name) == 0) spec = &s;
  if (spec == nullptr && !(argc > 1 && std::strcmp(argv[1], "render") == 0)) return {};
  const CLI::App* sub = app.get_subcommand(argv[1]);
  for (int i = 2; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
    const std::string_view arg = argv[i];
    if (const CLI::Option* own = arg.starts_with('-') ? sub->get_option_no_throw(argv[i]) : nullptr;
        own != nullptr && own->get_items_expected_min() > 0) {
      ++i;
      continue;
    }
    for (const OwnedOption& o : kOwnedOptions)
      if (spec != nullptr && !o.applies(spec->command) && arg.starts_with(o.name) &&
          (arg.size() == std::strlen(o.name) || arg[std::strlen(o.name)] == '='))
        return std::string(o.name) + " applies to " + o.owners + " only, not to " + spec->name;
    // Any other long option it lacks, by name: CLI11's "not expected" listed the input that the option's value
    // had been taken for (`render --key full a.fen`: "not expected: a.fen --key").
    if (arg.size() > 2 && arg.starts_with("--")) {
      const std::string name(arg.substr(0, arg.find('=')));
      if (sub->get_option_no_throw(name) == nullptr) return std::string(argv[1]) + " has no option " + name;
    }
    // A short one it lacks, most often a file whose name starts with '-': CLI11 said "INPUT is required" when that
    // was the only input (`normalize -x.fen`), else "not expected", neither saying how to name such a file.
    if (arg.size() > 1 && arg[0] == '-' && arg[1] != '-' && sub->get_option_no_throw(std::string(arg.substr(0, 2))) == nullptr)
      return std::string(argv[1]) + " has no option " + std::string(arg.substr(0, 2)) + " (for a file named " +
             fenmill::one_line(arg) + ", write ./" + fenmill::one_line(arg) + " or put it after --)";
  }
  return {};
}

// "FROM:TO", "FROM:", ":TO" or "N" (one ply); false if malformed.
bool parse_plies(const std::string& text, Job& job) {
  if (text.empty()) return true;
  // Digits only; a number past what 32 bits hold means "beyond any game" and is kept at the largest (no game
  // has 4 billion plies, so it selects what any such number would).
  auto number = [](const std::string& s, std::uint32_t& out) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return false;
    std::uint64_t value = 0;
    for (char c : s) value = std::min<std::uint64_t>(value * 10 + static_cast<std::uint64_t>(c - '0'), UINT32_MAX);
    out = static_cast<std::uint32_t>(value);
    return true;
  };
  std::size_t colon = text.find(':');
  if (colon == std::string::npos) return number(text, job.ply_from) && number(text, job.ply_to);
  std::string from = text.substr(0, colon), to = text.substr(colon + 1);
  return (from.empty() || number(from, job.ply_from)) && (to.empty() || number(to, job.ply_to));
}

void resolve(Job& job, const RawOptions& raw, bool count) {
  using fenmill::OutputFormat;
  std::string to = raw.to;
  // validate and stats write a report: the output's name (report.jsonl, stats.csv) says nothing about positions.
  if (to.empty() && job.writes_positions()) {
    to = fenmill::has_extension(job.output, ".epd")     ? "epd"
         : fenmill::has_extension(job.output, ".bin")   ? "bin"
         // (.tsv too: CSV rows with TABs, as fenmill reads a .tsv input; it wrote FEN lines under that name)
         : fenmill::has_extension(job.output, ".csv") || fenmill::has_extension(job.output, ".tsv") ? "csv"
         // (.ndjson too: fenmill reads it as JSON Lines, and wrote FEN lines under it that it could not read back)
         : fenmill::has_extension(job.output, ".jsonl") || fenmill::has_extension(job.output, ".ndjson") ? "jsonl"
                                               : "fen";
  }
  job.to = to == "epd"     ? OutputFormat::kEpd
           : to == "bin"   ? OutputFormat::kBinary
           : to == "csv"   ? OutputFormat::kCsv
           : to == "jsonl" ? OutputFormat::kJsonl
                           : OutputFormat::kFen;
  job.from_auto = raw.from == "auto";
  job.from = raw.from == "epd"     ? fenmill::InputFormat::kEpd
             : raw.from == "csv"   ? fenmill::InputFormat::kCsv
             : raw.from == "jsonl" ? fenmill::InputFormat::kJsonl
             : raw.from == "bin"   ? fenmill::InputFormat::kBinary
             : raw.from == "pgn"   ? fenmill::InputFormat::kPgn
                                   : fenmill::InputFormat::kFen;
  job.normalize.ep = raw.ep == "pseudo" ? fenmill::EpPolicy::kPseudo
                     : raw.ep == "keep" ? fenmill::EpPolicy::kKeep
                                        : fenmill::EpPolicy::kLegal;
  job.key = raw.key == "full"            ? fenmill::DedupLevel::kFull
            : raw.key == "placement-stm" ? fenmill::DedupLevel::kPlacementSide
            : raw.key == "placement"     ? fenmill::DedupLevel::kPlacement
                                         : fenmill::DedupLevel::kPosition;
  job.castling_notation = raw.castling == "shredder" ? fenmill::CastlingNotation::kShredder : fenmill::CastlingNotation::kXFen;
  job.progress = raw.no_progress ? 0 : raw.progress ? 1 : -1;
  job.count = count;
  for (std::size_t start = 0; start < raw.with_tags.size();) {
    std::size_t comma = raw.with_tags.find(',', start);
    if (comma == std::string::npos) comma = raw.with_tags.size();
    std::string tag = raw.with_tags.substr(start, comma - start);
    const std::size_t first = tag.find_first_not_of(" \t");  // "Event, Site" is two names
    if (first != std::string::npos) job.with_tags.push_back(tag.substr(first, tag.find_last_not_of(" \t") - first + 1));
    start = comma + 1;
  }
  job.variant = raw.variant == "xiangqi" ? fenmill::Variant::kXiangqi
                : raw.variant == "auto"  ? fenmill::Variant::kAuto
                                         : fenmill::Variant::kChess;
  job.variant_given = !raw.variant.empty();
  job.csv_header = raw.csv_header == "yes" ? Job::CsvHeader::kYes
                   : raw.csv_header == "no" ? Job::CsvHeader::kNo
                                            : Job::CsvHeader::kAuto;
  job.xiangqi_letters = raw.letters == "document" ? fenmill::xiangqi::Letters::kWxf : fenmill::xiangqi::Letters::kUcci;
  if (job.chunk_size == 0) job.chunk_size = 1;
}

// Binary output holds one variant. Without --variant it is the first input's when that is read as a fenmill binary
// file (FORMAT.md: reading one back needs no option), else `fallback`. Standard input is peeked too (the stream is
// kept for the run: io/input_peek.h), up to the header and no further than bytes that cannot start the magic (a
// FEN typed on a terminal is not waited for); other streams (a named FIFO) are left to the run, which opens them
// after its checks.
fenmill::Variant binary_input_variant(const Job& job, const std::string& path, fenmill::Variant fallback) {
  struct stat st;
  const bool stream = fenmill::cli::names_standard_input(path);
  if (!stream && (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))) return fallback;
  const bool named = !job.from_auto || fenmill::has_format_extension(path);  // else the content decides
  if (named && fenmill::input_format_of(job, path) != fenmill::InputFormat::kBinary) return fallback;
  const std::string_view magic(fenmill::kBinaryMagic, sizeof fenmill::kBinaryMagic);
  const auto enough = [&](std::string_view head) {
    return head.size() >= fenmill::kFileHeaderSize || !magic.starts_with(head.substr(0, magic.size()));
  };
  std::string head, error;  // an error is the run's to report
  fenmill::BinaryHeader header;
  if (!fenmill::peek_input(path, fenmill::kFileHeaderSize, head, error, enough) ||
      fenmill::parse_header(reinterpret_cast<const std::uint8_t*>(head.data()), head.size(), header) != fenmill::BinaryStatus::kOk)
    return fallback;
  return header.variant == fenmill::BinaryVariant::kXiangqi ? fenmill::Variant::kXiangqi : fenmill::Variant::kChess;
}

// "1 record", "2 records".
const char* plural(std::uint64_t n, const char* one, const char* many) { return n == 1 ? one : many; }

void print_summary(const Job& job, const fenmill::RunOutcome& o) {
  const auto& c = o.counts;
  double mb = static_cast<double>(o.bytes_in) / 1e6;
  std::fprintf(stderr, "fenmill: %llu %s: %llu valid (%llu repaired, %llu completed), %llu invalid",
               static_cast<unsigned long long>(c.records), plural(c.records, "record", "records"),
               static_cast<unsigned long long>(c.valid), static_cast<unsigned long long>(c.repaired),
               static_cast<unsigned long long>(c.completed), static_cast<unsigned long long>(c.invalid));
  if (job.dedup() || job.command == fenmill::Command::kStats)
    std::fprintf(stderr, ", %llu %s", static_cast<unsigned long long>(c.duplicates),
                 plural(c.duplicates, "duplicate", "duplicates"));
  if (job.writes_positions()) std::fprintf(stderr, "; %llu written", static_cast<unsigned long long>(c.written));
  std::fprintf(stderr, "; %.1f MB in %.2f s (%.0f MB/s)\n", mb, o.seconds, o.seconds > 0 ? mb / o.seconds : 0.0);
}

// A file size limit (`ulimit -f`) met by an output is an I/O error like a full disk. At its default action
// SIGXFSZ killed the run with no word from fenmill (exit 153, and a core dump where those are on); ignored, the
// write fails with EFBIG instead, and the run says "File too large", removes its temporary files and exits 2.
// (Left alone when the caller set it otherwise.)
void write_past_file_size_limit_fails() {
  struct sigaction current;
  if (::sigaction(SIGXFSZ, nullptr, &current) == 0 && !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL)
    ::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace

int main(int argc, char** argv) {
  const fenmill::cli::ClosedStreams closed = fenmill::cli::occupy_closed_standard_streams();
  fenmill::cli::wait_for_room_on_stderr();
  write_past_file_size_limit_fails();
  CLI::App app{"fenmill: bulk chess position normalizer, validator and deduplicator"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "fenmill 0.1.0");
  // CLI11's own usage errors, worded like fenmill's: "fenmill: <what> (--help)". Set before the subcommands,
  // which copy it.
  app.failure_message([](const CLI::App*, const CLI::Error& e) { return "fenmill: " + std::string(e.what()) + " (--help)\n"; });
  Job job;
  RawOptions raw;
  bool count = false;
  for (const SubcommandSpec& spec : kSubcommands) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.help);
    add_common_options(sub, job, raw, fenmill::writes_positions(spec.command));
    if (spec.command == Command::kDedup || spec.command == Command::kStats)
      sub->add_option("--key", raw.key, "dedup key (stats: what distinct_positions counts): full, position, placement-stm, placement")
          ->check(CLI::IsMember({"full", "position", "placement-stm", "placement"}));
    if (spec.command == Command::kDedup) sub->add_flag("--count", count, "append each position's number of occurrences (after a tab; a count column or key with --to csv/jsonl)");
    if (spec.command == Command::kValidate) sub->add_flag("--json", job.json, "report as JSON Lines");
    if (spec.command == Command::kValidate)
      sub->add_option("--html", job.html_path, "also write an HTML report of the rejected records, with pictures")
          ->check(fenmill::cli::non_empty_path());
    sub->callback([&job, spec] { job.command = spec.command; });
  }
  fenmill::cli::RenderCommand render(app);
  // CLI11 would only say "A subcommand is required" for a misspelt one.
  const auto known = [&app](const char* name) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == name) return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !known(argv[1])) {
    std::fprintf(stderr, "fenmill: unknown command '%s': use normalize, dedup, validate, convert, stats or render (--help)\n",
                 argv[1]);
    return fenmill::kExitUsageOrIo;
  }
  if (const std::string message = misplaced_option(argc, argv, app); !message.empty()) {
    std::fprintf(stderr, "fenmill: %s (--help)\n", message.c_str());
    return fenmill::kExitUsageOrIo;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : fenmill::kExitUsageOrIo;
  }
  if (render.selected()) {
    const fenmill::cli::RenderArgs& a = render.args();
    const std::string no_output;  // --each writes files in a directory
    if (!fenmill::cli::closed_streams_unused(closed, {a.input}, {a.each_dir.empty() ? &a.output : &no_output}))
      return fenmill::kExitUsageOrIo;
    return render.run();
  }
  resolve(job, raw, count);
  if (!parse_plies(raw.plies, job)) {
    std::fprintf(stderr, "fenmill: --plies takes FROM:TO (e.g. 10:40, 0:, :20)\n");
    return fenmill::kExitUsageOrIo;
  }
  if (job.ply_from > job.ply_to) {
    std::fprintf(stderr, "fenmill: --plies %s selects nothing: FROM is after TO\n", raw.plies.c_str());
    return fenmill::kExitUsageOrIo;
  }
  // Under any of its names: `- /dev/stdin` read a redirected file twice, and from a pipe gave the second nothing.
  if (auto first = std::find_if(job.inputs.begin(), job.inputs.end(), fenmill::cli::names_standard_input);
      first != job.inputs.end()) {
    auto second = std::find_if(first + 1, job.inputs.end(), fenmill::cli::names_standard_input);
    if (second != job.inputs.end()) {
      std::fprintf(stderr, "fenmill: standard input ('-') can be read only once%s\n",
                   *first == *second ? "" : (" (" + *first + " and " + *second + " both name it)").c_str());
      return fenmill::kExitUsageOrIo;
    }
  }
  if (!fenmill::cli::closed_streams_unused(closed, job.inputs,
                                           {&job.output, &job.rejects_path, &job.summary_path, &job.html_path}))
    return fenmill::kExitUsageOrIo;
  if (!job.with_tags.empty() && !job.writes_positions()) {
    std::fprintf(stderr, "fenmill: --with-tags adds columns to the positions written; validate and stats write a report\n");
    return fenmill::kExitUsageOrIo;
  }
  if (!job.with_tags.empty() && job.to != fenmill::OutputFormat::kCsv && job.to != fenmill::OutputFormat::kJsonl) {
    std::fprintf(stderr, "fenmill: --with-tags adds CSV columns or JSON Lines fields: use --to csv or --to jsonl\n");
    return fenmill::kExitUsageOrIo;
  }
  if (!job.variant_given && job.to == fenmill::OutputFormat::kBinary && !job.inputs.empty())
    job.variant = binary_input_variant(job, job.inputs.front(), job.variant);
  if (fenmill::has_extension(job.output, ".zst")) {  // the output would be plain text under a name that says zstd
    std::fprintf(stderr, "fenmill: output is not compressed; write to standard output and pipe it: -o - | zstd -o %s\n",
                 fenmill::one_line(job.output).c_str());
    return fenmill::kExitUsageOrIo;
  }
  if (job.variant == fenmill::Variant::kAuto && job.to == fenmill::OutputFormat::kBinary) {
    std::fprintf(stderr, "fenmill: a binary file holds one variant: use --variant chess or --variant xiangqi\n");
    return fenmill::kExitUsageOrIo;
  }
  if (job.count && job.to == fenmill::OutputFormat::kBinary) {
    std::fprintf(stderr, "fenmill: --count writes text; it cannot be combined with binary output\n");
    return fenmill::kExitUsageOrIo;
  }
  // --count fills the key named count: the FEN must not be the one it would overwrite. (The CSV column is checked
  // against the header, which names it or is indexed: chunk_feed.cpp.)
  if (job.count && job.to == fenmill::OutputFormat::kJsonl && job.json_field == "count") {
    std::fprintf(stderr, "fenmill: --count would write the number of occurrences over the FEN, which is in the key "
                 "named count\n");
    return fenmill::kExitUsageOrIo;
  }
  for (std::size_t i = 0; i < job.with_tags.size(); ++i) {
    const std::string& tag = job.with_tags[i];
    const char* problem = nullptr;
    if (tag.empty() || tag.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      problem = "is not a PGN tag name (letters, digits, _)";
    else if (tag == "fen" || tag == "FEN")  // the output's own column: a second "fen" key or column hides the position
      problem = "names the fen column the output already has (the position)";
    else if (job.count && tag == "count")
      problem = "names the count column --count adds";
    else if (std::find(job.with_tags.begin(), job.with_tags.begin() + static_cast<std::ptrdiff_t>(i), tag) !=
             job.with_tags.begin() + static_cast<std::ptrdiff_t>(i))
      problem = "is named twice (a JSON object or CSV header needs each name once)";
    if (problem) {
      std::fprintf(stderr, "fenmill: --with-tags: '%s' %s\n", tag.c_str(), problem);
      return fenmill::kExitUsageOrIo;
    }
  }
  try {
    fenmill::RunOutcome outcome =
        fenmill::run_job(job, [&job](const fenmill::RunOutcome& o) { return fenmill::render::html_report(job, o); });
    if (outcome.exit_code == fenmill::kExitUsageOrIo) {
      std::fprintf(stderr, "fenmill: error: %s\n", fenmill::one_line(outcome.error).c_str());
      return outcome.exit_code;
    }
    if (!job.quiet) print_summary(job, outcome);
    return outcome.exit_code;
  } catch (const std::bad_alloc&) {  // its what() is "std::bad_alloc"
    // Only dedup and stats keep anything per position; the rest is threads x chunk size.
    const bool keeps_positions = job.command == fenmill::Command::kDedup || job.command == fenmill::Command::kStats;
    std::fprintf(stderr, "fenmill: error: out of memory (%sfewer --threads or a smaller --chunk-size need less)\n",
                 !keeps_positions ? ""
                 : job.count      ? "dedup --count keeps 21-38 bytes per distinct position; "
                                  : "dedup and stats keep 11-23 bytes per distinct position; ");
    return fenmill::kExitUsageOrIo;
  } catch (const std::exception& e) {
    // oneTBB reports a thread it could not start as "pthread_create has failed: ...": say what to change.
    if (std::strstr(e.what(), "pthread_create") != nullptr)
      std::fprintf(stderr, "fenmill: error: could not start a worker thread (%s): out of memory or over a process limit "
                   "(ulimit -v, -u); fewer --threads need less\n", e.what());
    else
      std::fprintf(stderr, "fenmill: error: %s\n", fenmill::one_line(e.what()).c_str());
    return fenmill::kExitUsageOrIo;
  }
}
