#include "pipeline/chunk_feed.h"

#include <algorithm>
#include <cctype>

#include "fen/text_cursor.h"
#include "formats/csv.h"
#include "io/byte_order_mark.h"
#include "io/file_extension.h"
#include "io/input_source.h"
#include "io/input_peek.h"
#include "pgn/game_reader.h"

namespace fenmill {
namespace {

// Whether --fen-column gives a 0-based index rather than a header name.
bool column_is_index(std::string_view column) {
  return !column.empty() && column.size() < 9 && column.find_first_not_of("0123456789") == std::string_view::npos;
}

// A CSV field that reads as a column name rather than a position, even a damaged one: fewer than 7 slashes, a
// letter that is no piece letter and not "w" (or a byte outside ASCII), and digits only where there is no slash.
// So "FEN", "FEN/EPD", "fen2", "FEN.1", "Position (FEN)", "Позиция" are names; "rnbqkbxr/pppppppp/8/...", "8/8/8",
// "rnbqkbnr w", "r1bq/pp", "-" and an empty field are records (so is "rank", of piece letters only). A guess
// either way: the run says which it made (resolve()), and --csv-header settles it.
bool reads_as_column_name(std::string_view field) {
  constexpr std::string_view kPositionLetters = "pnbrqkaechwPNBRQKAECHW";  // chess and Xiangqi pieces, side
  while (!field.empty() && (field.front() == ' ' || field.front() == '\t')) field.remove_prefix(1);
  while (!field.empty() && (field.back() == ' ' || field.back() == '\t')) field.remove_suffix(1);
  const auto slashes = std::count(field.begin(), field.end(), '/');
  if (slashes >= 7) return false;
  auto letter = [](char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; };
  const bool foreign = std::any_of(field.begin(), field.end(), [&](char c) {
    return (letter(c) && kPositionLetters.find(c) == std::string_view::npos) || static_cast<unsigned char>(c) >= 0x80;
  });
  const bool digits = field.find_first_of("0123456789") != std::string_view::npos;
  return foreign && !(digits && slashes > 0);
}

// Whether `s` holds no record: nothing but line ends and the bytes of what the chunk processor skips as a blank
// line (blanks, CR, NUL: is_trailing_junk), after a byte-order mark if it starts with one.
bool only_blanks(std::string_view s) {
  if (starts_with_utf8_bom(s)) s.remove_prefix(3);
  return std::all_of(s.begin(), s.end(), [](char c) { return c == '\n' || is_trailing_junk(c); });
}

// Whether an input read as text starts with the binary format's magic: a fenmill binary file under a text name
// (x.fen) or --from, every record of which was rejected as a garbled FEN with no word on why. A range chunk is
// not read yet: its file's first bytes are.
bool chunk_opens_binary_file(const Chunk& chunk) {
  if (chunk.range_end == 0) return chunk.offset == 0 && starts_with_binary_magic(chunk.bytes);
  char head[sizeof kBinaryMagic];
  std::string error;  // a read error is the range reader's to report
  return chunk.offset == 0 && chunk.source->read_at(head, sizeof head, 0, error) == sizeof head &&
         starts_with_binary_magic(std::string_view(head, sizeof head));
}

}  // namespace

// EPD rather than FEN: the first record holds a ';', which ends an EPD operation and is in no FEN. (Read as
// FEN, every record of an EPD collection on stdin was rejected, its first operation taken for a clock.)
InputFormat fen_or_epd(std::string_view s) {
  return s.substr(0, s.find('\n')).find(';') != std::string_view::npos ? InputFormat::kEpd : InputFormat::kFen;
}

// For --from auto and a name that says nothing (stdin, .txt, no extension): PGN starts with a tag or a move
// number (PGN without tags), or with `{` comments, `%` escapes or `;` comment lines before a tag, a move number or
// a result; JSON Lines with an object (`{`
// then `"` or `}`); CSV with a header naming a FEN column (FEN, fen, or the --fen-column name); EPD with a ';'
// in its first record. No FEN line holds '[', '{', '%', ';' or ','. `settled`: no longer input starting with
// `head` could be sniffed otherwise.
InputFormat sniff_format(std::string_view head, std::string_view fen_column, bool& settled) {
  auto skip_blanks = [](std::string_view& s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n')) s.remove_prefix(1);
  };
  std::string_view s = head;
  settled = true;
  if (starts_with_utf8_bom(s)) s.remove_prefix(3);
  skip_blanks(s);
  if (s.empty()) {
    settled = false;
    return InputFormat::kFen;
  }
  if (s.front() == '[') return InputFormat::kPgn;
  if (s.front() == '{') {
    std::string_view inside = s.substr(1);
    skip_blanks(inside);
    settled = !inside.empty();
    if (inside.empty() || inside.front() == '"' || inside.front() == '}') return InputFormat::kJsonl;
  }
  // Comments before the first game are PGN only if a game follows (a tag or a move number): a FEN or EPD file
  // that opens with a `;` or `%` note stays FEN, its note line a reject rather than its positions lost.
  bool had_comment = false;
  while (!s.empty() && (s.front() == '{' || s.front() == '%' || s.front() == ';')) {
    std::size_t end = s.find(s.front() == '{' ? '}' : '\n');
    if (end == std::string_view::npos) {  // all comment so far
      settled = false;
      return InputFormat::kPgn;
    }
    s.remove_prefix(end + 1);
    skip_blanks(s);
    had_comment = true;
  }
  // PGN without tags opens with a move number ("1."), which no FEN placement can start with.
  std::size_t digits = s.find_first_not_of("0123456789");
  const bool move_number = digits > 0 && digits < s.size() && s[digits] == '.';
  if (move_number) return InputFormat::kPgn;
  settled = s.find('\n') != std::string_view::npos;  // what follows looks at the first line
  if (had_comment) {
    bool result = false;
    for (std::string_view r : kPgnResults) result = result || s.starts_with(r);
    if (s.empty() || s.front() == '[' || result) return InputFormat::kPgn;
    return fen_or_epd(s);
  }
  std::string_view header = csv_without_cr(s.substr(0, s.find('\n')));
  for (char sep : {',', '\t', ';'})
    if (csv_column_index(header, "FEN", sep) >= 0 || csv_column_index(header, "fen", sep) >= 0 ||
        (!fen_column.empty() && !column_is_index(fen_column) && csv_column_index(header, fen_column, sep) >= 0))
      return InputFormat::kCsv;
  return fen_or_epd(s);
}

// A JSON document holding an array of objects (`[` then `{`), which a PGN tag (`[` then its name) never is.
bool is_json_array(std::string_view head) {
  std::size_t at = starts_with_utf8_bom(head) ? 3 : 0;
  at = head.find_first_not_of(" \t\r\n", at);
  if (at == std::string_view::npos || head[at] != '[') return false;
  at = head.find_first_not_of(" \t\r\n", at + 1);
  return at != std::string_view::npos && head[at] == '{';
}

bool has_format_extension(std::string_view name) {
  if (has_extension(name, ".zst")) name.remove_suffix(4);
  for (std::string_view ext : {".fen", ".epd", ".bin", ".pgn", ".csv", ".tsv", ".jsonl", ".ndjson"})
    if (has_extension(name, ext)) return true;
  return false;
}

InputFormat input_format_of(const Job& job, std::string_view name) {
  if (!job.from_auto) return job.from;
  if (has_extension(name, ".zst")) name.remove_suffix(4);
  if (has_extension(name, ".epd")) return InputFormat::kEpd;
  if (has_extension(name, ".bin")) return InputFormat::kBinary;
  if (has_extension(name, ".pgn")) return InputFormat::kPgn;
  if (has_extension(name, ".csv") || has_extension(name, ".tsv")) return InputFormat::kCsv;
  if (has_extension(name, ".jsonl") || has_extension(name, ".ndjson")) return InputFormat::kJsonl;
  return InputFormat::kFen;
}

// --from auto: a name that says nothing (stdin, .dat, .zst alone) is a binary file when its content starts with
// the binary format's magic; else its text format is sniffed from its first bytes, read until the sniff is
// settled (or kSniffBytes): the same bytes whatever --chunk-size is, and no waiting on a slow pipe for more than
// its first line.
InputFormat ChunkFeed::format_by_name_or_content(const std::string& path) {
  InputFormat format = input_format_of(job_, path);
  if (decided_by_name(path)) return format;
  auto settled = [&](std::string_view head) {
    bool done = false;
    sniff_format(head, job_.fen_column, done);
    return head.size() >= kBinaryMagicText.size() && done;
  };
  std::string head, error;
  if (!peek_input(path, kSniffBytes, head, error, settled)) return format;  // the reader reports the error
  if (starts_with_binary_magic(head)) return InputFormat::kBinary;
  if (is_json_array(head) && setup_error_.empty())  // read as PGN, it was one BAD_TAG "game"
    setup_error_ = input_name(path) + ": a JSON array, not JSON Lines (one object per line): jq -c '.[]' turns one into the other";
  bool done;
  return sniff_format(head, job_.fen_column, done);
}

ChunkFeed::ChunkFeed(const Job& job)
    : job_(job), pgn_cutter_(std::max<std::size_t>(job.chunk_size / kPgnChunkShare, 1)) {
  std::size_t binary = 0;
  for (const std::string& path : job.inputs) {
    input_formats_.push_back(format_by_name_or_content(path));
    binary += input_formats_.back() == InputFormat::kBinary;
    // Games are replayed with chess rules: Xiangqi moves would all be rejected, as if the games were corrupt.
    if (input_formats_.back() == InputFormat::kPgn && job.variant == Variant::kXiangqi && setup_error_.empty())
      setup_error_ = input_name(path) + ": PGN games are replayed as chess (standard or Chess960); --variant xiangqi reads "
                            "positions (FEN, EPD, CSV, JSON Lines, binary), not games";
  }
  if (binary == 0) {
    text_.emplace(job.inputs, job.chunk_size, InputOptions{job.mmap});
    // FEN and EPD records need nothing from earlier lines: workers may read their own byte ranges.
    // (Not when the format is still to be sniffed from the first bytes.)
    std::vector<bool> ranges;
    for (std::size_t i = 0; i < job.inputs.size(); ++i)
      ranges.push_back((input_formats_[i] == InputFormat::kFen || input_formats_[i] == InputFormat::kEpd) &&
                       decided_by_name(job.inputs[i]));
    text_->allow_ranges(std::move(ranges));
    // Records of one line each: a longer line is read past, not held. CSV too: a row ends, at the latest, at the end
    // of the line on which it passes kMaxCsvRowBytes, so a row longer than kMaxLineBytes ends with the line cut.
    std::vector<bool> limited;
    std::vector<bool> split;  // PGN: a longer line comes in pieces, its game bounded by too_large_game()
    for (InputFormat f : input_formats_) {
      limited.push_back(f == InputFormat::kFen || f == InputFormat::kEpd || f == InputFormat::kJsonl ||
                        f == InputFormat::kCsv);
      split.push_back(f == InputFormat::kPgn);
    }
    text_->limit_lines(std::move(limited));
    text_->split_lines(std::move(split));
  }
  else if (binary == job.inputs.size())
    binary_.emplace(job.inputs, InputOptions{job.mmap});
  else if (setup_error_.empty()) {  // one of each named: in a long list of inputs the odd one out is hard to find
    const auto kind = [&](bool binary) {
      const std::size_t i = static_cast<std::size_t>(
          std::find_if(input_formats_.begin(), input_formats_.end(), [&](InputFormat f) { return (f == InputFormat::kBinary) == binary; }) -
          input_formats_.begin());
      return input_name(job.inputs[i]);
    };
    setup_error_ = "binary and text inputs cannot be mixed in one run: " + kind(true) + " is binary, " + kind(false) + " is text";
  }
}

bool ChunkFeed::next_raw(Chunk& out, std::string& error) {
  if (!setup_error_.empty()) {
    error = setup_error_;
    return false;
  }
  return text_ ? text_->next(out, error) : binary_->next(out, error);
}

bool ChunkFeed::resolve(const Chunk& chunk, SourceFormat& out, std::string& error) {
  if (chunk.source_index < known_.size() && !chunk.starts_input && !binary_) {
    out = known_[chunk.source_index];
    return true;
  }
  SourceFormat f;
  f.format = input_formats_[chunk.source_index];
  const bool tsv_output = job_.to == OutputFormat::kCsv && has_extension(job_.output, ".tsv");
  if (chunk.starts_input && f.format != InputFormat::kBinary && chunk_opens_binary_file(chunk)) {
    error = std::string(chunk.source_name) + ": a fenmill binary file (it starts with FENMILLB), read as text: give it "
            "a .bin name or --from bin";
    return false;
  }
  if (f.format == InputFormat::kCsv) {
    std::string_view name = chunk.source_name;
    if (has_extension(name, ".zst")) name.remove_suffix(4);
    // A line 1 too long to be read (LINE_TOO_LONG) is looked at as streamed input keeps it (io/chunker.h): its first
    // bytes, so that a file, a pipe and --mmap read it alike. It names no columns.
    std::string_view line1 = chunk.bytes.substr(0, chunk.bytes.find('\n'));
    const bool line1_too_long = chunk.long_line_bytes != 0 || csv_without_cr(line1).size() > kMaxLineBytes;
    if (line1_too_long) line1 = line1.substr(0, kMaxLineBytes + 2);
    std::string_view first_line = csv_without_cr(line1);
    // .tsv: TAB. Else the header says, under any name (.csv too): TABs and no commas, or semicolons and neither
    // commas nor TABs (what spreadsheets write where the comma is the decimal mark); else commas.
    const auto has = [&](char c) { return first_line.find(c) != std::string_view::npos; };
    f.separator = has_extension(name, ".tsv") || (has('\t') && !has(',')) ? '\t'
                  : has(';') && !has(',') && !has('\t')                 ? ';'
                                                                        : ',';
    // A file whose lines end in CR alone is one line: read as the header (or as one row), it had every record lost
    // with no word ("0 records"). Before the length check: such a file over 16 MiB is one line that long, and
    // "longer than 16 MiB" would not say why.
    if (csv_inner_cr(line1, f.separator) != std::string_view::npos) {
      error = std::string(chunk.source_name) + ": line 1 holds a carriage return (CR) outside quotes: lines end at LF, " +
              "so a file whose lines end in CR alone (classic Mac OS, Excel's CSV (Macintosh)) reads as one line; " +
              "convert it first, e.g. with tr '\\r' '\\n'";
      return false;
    }
    if (line1_too_long && job_.csv_header != Job::CsvHeader::kNo &&
        (job_.csv_header == Job::CsvHeader::kYes || !column_is_index(job_.fen_column))) {
      error = std::string(chunk.source_name) + ": line 1 is longer than 16 MiB, too long for the CSV header naming " +
              "the FEN column (--csv-header no with --fen-column INDEX reads it as a record)";
      return false;
    }
    // --to csv writes each row back as it is, the FEN replaced: under a .tsv name, rows with other separators would
    // be a file that says TAB and holds commas.
    if (tsv_output && f.separator != '\t') {
      error = std::string(chunk.source_name) + ": its fields are separated by '" + f.separator + "', and " + job_.output +
              " is a .tsv name: --to csv writes the input's rows as they are, with the FEN replaced (give the output " +
              "a .csv name)";
      return false;
    }
    if (!find_column(first_line, f, error)) {
      if (only_blanks(first_line))  // a blank line 1
        error = "line 1 is blank, where the CSV header naming the FEN column must be (or give --fen-column INDEX)";
      error = std::string(chunk.source_name) + ": " + error;
      return false;
    }
    // A column named needs a header (find_column has checked --csv-header no against that). A column given by
    // index has one when --csv-header says so, or when the first row's field there reads as a column name: a
    // file without a header must not lose its first row, even a damaged one.
    f.has_header = true;
    if (column_is_index(job_.fen_column)) {
      CsvField field;
      std::string scratch;
      f.has_header = job_.csv_header == Job::CsvHeader::kYes ||
                     (job_.csv_header == Job::CsvHeader::kAuto && !line1_too_long &&
                      find_csv_field(first_line, static_cast<std::size_t>(f.csv_column), f.separator, field) &&
                      reads_as_column_name(csv_field_value(first_line, field, scratch)));
      // A guess: said, so that a first record taken for a header is never lost unseen.
      if (f.has_header && job_.csv_header == Job::CsvHeader::kAuto) {
        const std::string_view name = first_line.substr(field.begin, std::min<std::size_t>(field.end - field.begin, 60));
        notes_.push_back({chunk.source_index, std::string(chunk.source_name) +
                                                  ": line 1 is read as the CSV header (its field " +
                                                  std::to_string(f.csv_column) + ", \"" + std::string(name) +
                                                  "\", reads as a column name); --csv-header no reads it as a record"});
      }
    }
    if (job_.to == OutputFormat::kCsv && f.has_header) {
      std::string header(first_line);
      if (starts_with_utf8_bom(header)) header.erase(0, 3);
      if (!claim_csv_header(header, chunk.source_name, f, error)) return false;
      const std::vector<int> counts = job_.count ? csv_columns_named(header, "count", f.separator) : std::vector<int>();
      if (std::find(counts.begin(), counts.end(), f.csv_column) != counts.end()) {
        error = std::string(chunk.source_name) + ": --count would write the number of occurrences over the FEN, " +
                "which is in a column named count";
        return false;
      }
    }
  }
  if (f.format == InputFormat::kBinary) {
    f.xiangqi = binary_->variant() == BinaryVariant::kXiangqi;
    // A binary file says its variant; a --variant that says otherwise is a mistake to report, not to ignore.
    // Binary output must hold the input's variant, given or not.
    const bool checked = job_.variant_given || job_.to == OutputFormat::kBinary;
    if (checked && job_.variant != Variant::kAuto && f.xiangqi != (job_.variant == Variant::kXiangqi)) {
      // Binary output holds one variant: auto is refused there, and inputs of both variants cannot share it.
      const std::string variant = f.xiangqi ? "xiangqi" : "chess";
      error = std::string(chunk.source_name) + ": the file holds " + (f.xiangqi ? "Xiangqi" : "chess") +
              " records, not " + (f.xiangqi ? "chess" : "Xiangqi") +
              (job_.to == OutputFormat::kBinary
                   ? " (a binary output holds one variant: use --variant " + variant +
                         ", and convert inputs of the other variant on their own)"
                   : " (use --variant " + variant + " or auto)");
      return false;
    }
  }
  if (f.format == InputFormat::kPgn && job_.to == OutputFormat::kCsv) {
    f.separator = tsv_output ? '\t' : ',';
    if (!claim_csv_header(pgn_csv_header(job_, f.separator), chunk.source_name, f, error)) return false;
  }
  bool csv_ok = f.format == InputFormat::kCsv || f.format == InputFormat::kPgn;
  bool jsonl_ok = f.format == InputFormat::kJsonl || f.format == InputFormat::kPgn;
  if ((job_.to == OutputFormat::kCsv && !csv_ok) || (job_.to == OutputFormat::kJsonl && !jsonl_ok)) {
    error = std::string(chunk.source_name) + ": --to csv needs CSV or PGN input, --to jsonl JSON Lines or PGN input";
    return false;
  }
  if (known_.size() <= chunk.source_index) known_.resize(chunk.source_index + 1);
  known_[chunk.source_index] = f;
  out = f;
  return true;
}

// --to csv writes one header, from the first input that has one (an empty input has none): every input's
// rows must fit under it.
bool ChunkFeed::claim_csv_header(const std::string& header, std::string_view source, SourceFormat& f,
                                 std::string& error) {
  f.write_header = !csv_header_.has_value();  // (after rows already written, the sink refuses it)
  if (f.write_header) {
    csv_header_ = header;
    csv_header_source_ = source;
  } else if (*csv_header_ != header) {
    error = std::string(source) + ": its CSV header differs from " + csv_header_source_ +
            "'s, and --to csv writes one header for all rows";
    return false;
  }
  return true;
}

bool ChunkFeed::find_column(std::string_view header, SourceFormat& f, std::string& error) {
  const std::string& wanted = job_.fen_column;
  if (column_is_index(wanted)) {
    f.csv_column = std::stoi(wanted);
    return true;
  }
  if (job_.csv_header == Job::CsvHeader::kNo) {
    error = "--csv-header no leaves no header to find the column " +
            (wanted.empty() ? std::string("FEN or fen") : wanted) + " in: give --fen-column INDEX";
    return false;
  }
  for (std::string_view name : wanted.empty() ? std::vector<std::string_view>{"FEN", "fen"}
                                              : std::vector<std::string_view>{wanted}) {
    const std::vector<int> columns = csv_columns_named(header, name, f.separator);
    if (columns.size() > 1) {  // readers differ in which one they take, and one would keep a stale FEN
      error = "the CSV header names " + std::to_string(columns.size()) + " columns " + std::string(name) +
              ": which holds the FEN is ambiguous (--fen-column takes an index)";
      return false;
    }
    f.csv_column = columns.empty() ? -1 : columns.front();
    if (f.csv_column >= 0) return true;
  }
  error = "no column named " + (wanted.empty() ? std::string("FEN or fen") : wanted) + " in the CSV header";
  return false;
}

// Gives `out` the carry's place: its source, offset and whether it starts its input.
void ChunkFeed::stamp_from_carry(Chunk& out) const {
  out.source = carry_meta_.source;
  out.source_index = carry_meta_.source_index;
  out.source_name = carry_meta_.source_name;
  out.offset = carry_meta_.offset;
  out.starts_input = carry_meta_.starts_input;
  out.range_end = 0;
}

// Moves carry_[0, end) into `out` (its own storage), keeping the rest as the new carry. The buffers trade
// places rather than the bytes being copied: only the short rest is, and no buffer is allocated anew (fresh
// pages cost more than the copy on the VMs measured, docs/PERFORMANCE.md).
void ChunkFeed::emit_carry(Chunk& out, std::size_t end) {
  // The smaller part is copied: a PGN carry holds a read's worth of chunks and gives them out one by one.
  if (end < carry_.size() - end) {
    out.storage.clear();
    out.storage.append(carry_.view().substr(0, end));
    carry_.drop_front(end);
  } else {
    std::swap(out.storage, carry_);
    carry_.clear();
    carry_.append(out.storage.view().substr(end));
    out.storage.truncate(end);
  }
  out.bytes = out.storage.view();
  stamp_from_carry(out);
  out.skipped = out.long_line_bytes = out.too_large_game_lines = 0;
  carry_meta_.offset += end;
  carry_meta_.starts_input = false;
  pgn_cutter_.dropped(end);
  pgn_checked_ = pgn_checked_ > end ? pgn_checked_ - end : 0;
}

// PGN: where in the carry a game starts whose text, to the next game boundary (a game start, or the end of a finished
// game without tags: pgn/chunk_cutter.h), passes kMaxGameTextBytes; or npos. Checked before any cut of the carry, so
// that no such game goes out in a chunk however large chunks are; looking at a window of the bound's size from one
// boundary to the next, each byte is looked at about twice.
std::size_t ChunkFeed::too_large_game() {
  const std::string_view buf = carry_.view();
  while (buf.size() - pgn_checked_ > kMaxGameTextBytes) {
    const std::string_view window = buf.substr(pgn_checked_, kMaxGameTextBytes + 1);
    if (const std::size_t start = find_game_start(window, 1); start < window.size())
      pgn_checked_ += start;
    else if (const std::size_t end = find_last_game_end(window); end > 0)
      pgn_checked_ += end;
    else
      return pgn_checked_;
  }
  return std::string_view::npos;
}

// The carry starts with a game too large to read: it is read past (the carry dropped), kept are its first line's first
// bytes. True when the next game starts within the carry, and `out` is the game's rejected record.
bool ChunkFeed::begin_skip(Chunk& out) {
  const std::string_view game = carry_.view();
  const std::size_t line_end = game.find('\n');
  const std::size_t keep = kMaxRejectInput + 8;  // enough for the reject to cut at 1 MiB between characters
  skip_first_line_.assign(line_end < keep ? csv_without_cr(game.substr(0, line_end)) : game.substr(0, keep));
  skip_.emplace(kMaxGameTextBytes + 1);
  const std::size_t n = skip_->scan(game);
  carry_.drop_front(n);
  pgn_cutter_.dropped(n);
  pgn_checked_ = 0;
  if (!skip_->found()) return false;
  emit_skipped_game(out);
  return true;
}

// The rejected record of the game read past: its first line, the rest skipped (pipeline/chunk_processor.h).
void ChunkFeed::emit_skipped_game(Chunk& out) {
  out.storage.clear();
  out.storage.append(skip_first_line_);
  out.bytes = out.storage.view();
  stamp_from_carry(out);
  out.skipped = skip_->bytes() - out.bytes.size();
  out.long_line_bytes = skip_->first_line_bytes() > out.bytes.size() ? skip_->first_line_bytes() : 0;
  out.too_large_game_lines = skip_->lines();
  carry_meta_.offset += skip_->bytes();
  carry_meta_.starts_input = false;
  skip_.reset();
}

// The look-ahead chunk's bytes were copied into the carry or read past: a file mapping's pages of it can go (the
// chunks handed out as they are go once written: pipeline/run.cpp).
void ChunkFeed::look_copied_or_read_past() {
  if (look_.source) look_.source->release(look_.bytes);
  have_look_ = false;
}

bool ChunkFeed::next(Chunk& out, SourceFormat& format, std::string& error) {
  for (;;) {
    // A PGN carry holds several chunks' worth after a read: they go out before the next read, unless a game in it is
    // too large to read: the games before it go out, then its rejected record once it has been read past.
    if (!carry_.empty() && carry_format_.format == InputFormat::kPgn) {
      if (const std::size_t game = too_large_game(); game != std::string_view::npos) {
        if (game > 0) {
          emit_carry(out, game);
          format = carry_format_;
          return true;
        }
        if (begin_skip(out)) {
          format = carry_format_;
          return true;
        }
        continue;  // carry_ is empty: the game goes on in the next chunks
      }
      if (std::size_t cut = pgn_cutter_.cut(carry_.view()); cut > 0) {
        emit_carry(out, cut);
        format = carry_format_;
        return true;
      }
    }
    if (!have_look_ && !at_end_) {
      if (next_raw(look_, error))
        have_look_ = true;
      else if (!error.empty())
        return false;
      else
        at_end_ = true;
    }
    // Reading past a PGN game too large to read, to the next game with tags or the end of its input.
    if (skip_) {
      const bool ends = at_end_ || look_.source_index != carry_meta_.source_index;
      if (!ends) {
        const std::size_t n = skip_->scan(look_.bytes);
        if (!skip_->found()) {
          look_copied_or_read_past();
          continue;
        }
        carry_.append(look_.bytes.substr(n));  // the next game, whose offset the game's end gives carry_meta_
        look_copied_or_read_past();
      }
      emit_skipped_game(out);
      format = carry_format_;
      return true;
    }
    // A PGN or CSV input's last games or rows go out once its bytes have all arrived.
    if (!carry_.empty() && (at_end_ || look_.source_index != carry_meta_.source_index)) {
      emit_carry(out, carry_.size());
      format = carry_format_;
      return true;
    }
    if (at_end_) return false;
    if (!resolve(look_, format, error)) return false;
    const bool csv = format.format == InputFormat::kCsv;
    // CSV, a streamed line cut for being too long (Chunk::skipped): it ends the row the carry holds the start of (a
    // quoted field's earlier lines, kMaxCsvRowBytes at most), which goes out whole as that one rejected record, its
    // length counted in full, so that no more of it is held than of a line.
    if (csv && look_.long_line_bytes != 0) {
      if (carry_.empty()) {
        std::swap(out, look_);
        have_look_ = false;
        return true;
      }
      const std::uint64_t before = carry_.size();
      carry_.append(look_.bytes);
      look_copied_or_read_past();
      emit_carry(out, carry_.size());
      out.skipped = look_.skipped;
      out.long_line_bytes = before + look_.long_line_bytes;
      format = carry_format_;
      return true;
    }
    // CSV: a chunk whose last row ends at its last byte goes out as it is (it starts at a row: the carry is
    // empty). Else the scan so far is kept for the carry, which starts with the chunk's bytes.
    CsvRowScan whole;
    if (csv && carry_.empty()) scan_csv_rows(look_.bytes, whole, format.separator);
    const bool whole_rows = csv && carry_.empty() && whole.last_cut == look_.bytes.size();
    if ((format.format != InputFormat::kPgn && !csv) || whole_rows) {
      std::swap(out, look_);
      have_look_ = false;
      return true;
    }
    // PGN: append to the carry, which the top of the loop cuts at game starts. CSV: cut after its last row end.
    if (carry_.empty()) {
      csv_scan_ = whole;
      carry_meta_.source = look_.source;
      carry_meta_.source_index = look_.source_index;
      carry_meta_.source_name = look_.source_name;
      carry_meta_.offset = look_.offset;
      carry_meta_.starts_input = look_.starts_input;
      carry_format_ = format;
    }
    carry_.append(look_.bytes);
    look_copied_or_read_past();
    if (csv) {
      scan_csv_rows(carry_.view(), csv_scan_, carry_format_.separator);
      std::size_t cut = csv_scan_.last_cut;
      if (cut == 0) continue;
      csv_scan_.dropped(cut);  // the scan goes on over what stays in the carry
      emit_carry(out, cut);
      format = carry_format_;
      return true;
    }
  }
}

}  // namespace fenmill
