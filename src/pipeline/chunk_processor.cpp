#include "pipeline/chunk_processor.h"

#include <algorithm>
#include <cstring>

#include "core/utf8.h"
#include "fen/epd_operations.h"
#include "fen/text_cursor.h"
#include "formats/binary_file.h"
#include "formats/binary_record.h"
#include "io/chunk.h"
#include "io/line_splitter.h"
#include "formats/csv.h"
#include "formats/jsonl.h"
#include "pgn/game_reader.h"
#include "pgn/xiangqi_game.h"
#include "xiangqi/detect.h"
#include "xiangqi/keys.h"
#include "xiangqi/normalize.h"
#include "xiangqi/record.h"
#include "pipeline/report.h"

namespace fenmill {

static_assert(kXiangqiRecordSize == xiangqi::kRecordSize, "the file format's Xiangqi record size is the record's");
namespace {

// A PGN game's positions may take this much output at most: a chunk's output is held in memory, and with
// --with-tags a long tag value is repeated on every position (a 200 KB [Site] over 2,000 plies made 400 MB of
// output from a 208 KB file). A game past it is rejected whole (GAME_TOO_LARGE); no real game comes near it.
constexpr std::size_t kMaxGameOutput = std::size_t{64} << 20;

// --count --to csv: the counts go in the columns named count, the header's own if it has any (another column of
// that name would shadow one or the other in most readers), else one added at the end.
void claim_count_column(ChunkResult& result, char separator) {
  result.count_columns = csv_columns_named(result.header, "count", separator);
  if (!result.count_columns.empty()) return;
  result.count_columns.push_back(static_cast<int>(csv_field_count(result.header, separator)));
  result.count_column_added = true;
  (result.header += separator) += "count";
}

void count_stats(const Position& pos, Counts& c) {
  ++c.side_to_move[pos.side_to_move];
  c.with_castling += pos.has_castling();
  c.with_ep += pos.ep_square != kNoSquare;
  ++c.piece_count[popcount(pos.occupied())];
}

// Xiangqi has neither castling nor en passant; Red is "w" as in its FEN.
void count_stats(const xiangqi::Position& pos, Counts& c) {
  ++c.side_to_move[pos.side_to_move];
  ++c.piece_count[xiangqi::popcount(pos.occupied())];
}

// A rejected record's FEN with a CR before its end (a CRLF line end's is not part of it): most likely a file whose
// lines end in CR alone, read as one line.
std::uint8_t cr_hint(std::string_view fen) {
  return inner_cr(fen) != std::string_view::npos ? kHintCarriageReturn : kHintNone;
}

// Where the FEN of one record is, and the text around it (for CSV / JSON Lines output).
struct RecordFen {
  std::string_view fen;
  std::size_t raw_begin = 0, raw_end = 0;  // the field as written in the line
  std::uint32_t fen_column = 1;            // 1-based column of the FEN in its line (for messages)
  std::uint32_t lines_before = 0;          // a CSV row's line breaks before the FEN field
};

class ChunkWork {
 public:
  ChunkWork(const SourceFormat& source, const Job& job, ChunkResult& result, bool starts_input)
      : source_(source), job_(job), result_(result), starts_input_(starts_input) {
    options_ = job.normalize;
    options_.allow_operations = source.format == InputFormat::kEpd;
    want_keys_ = job.dedup() || job.command == Command::kStats;
    want_ends_ = job.dedup() && job.to != OutputFormat::kBinary;
    level_ = key_level(job.key);
    // A key is about the position, not how --ep writes it: full and position keys hold the legal ep square.
    key_needs_legal_ep_ = (level_ == KeyLevel::kPosition || level_ == KeyLevel::kFull) && job.normalize.ep != EpPolicy::kLegal;
    xoptions_.repair = job.normalize.repair;
    xoptions_.allow_operations = options_.allow_operations;
    record_size_ = job.variant == Variant::kXiangqi ? xiangqi::kRecordSize : kRecordSize;
    output_ = !job.writes_positions() ? Output::kNone : job.to == OutputFormat::kFen ? Output::kFen : Output::kOther;
    const bool epd_operations_dropped =
        job.writes_positions() && source.format == InputFormat::kEpd && job.to != OutputFormat::kEpd;
    record_extras_ = want_keys_ || job.command == Command::kStats || epd_operations_dropped;
    chess_key_only_ = job.dedup() && !key_needs_legal_ep_ && !epd_operations_dropped;
  }

  // Sizes the chunk's buffers once for `bytes` of text input. Grown record by record by half its size at a time, a
  // fresh output buffer (each Work's first chunks) was copied some ten times on its way to ~2 MiB; the keys and record
  // ends, grown key by key, some fifteen times on their way to a chunk's ~40 k (a FEN line is some 40 to 90 bytes).
  void reserve_for_text(std::size_t bytes) {
    if (job_.writes_positions() && job_.to != OutputFormat::kBinary) result_.out.reserve(bytes + bytes / 8);
    if (want_keys_) result_.keys.reserve(bytes / 48);
    if (want_ends_) result_.ends.reserve(bytes / 48);
  }

  // One 32-byte record of a binary input: decode, then the same checks as for text.
  void binary_record(std::string_view bytes, std::uint64_t number) {
    ++result_.counts.records;
    if (source_.xiangqi) {
      xq_ = true;
      if (!xiangqi::decode_record(reinterpret_cast<const std::uint8_t*>(bytes.data()), xpos_))
        return reject(hex(bytes), number, ErrorCode::kBadRecord, 1, 0, 0);
      xiangqi::Verdict xv = xiangqi::validate(xpos_);
      if (!xv.ok()) return reject(decoded_fen(), number, xv.code, 1, xv.hints, 0, rule_detail(xv.code), xv.squares);
      NormalizeResult r;
      r.fields = 6;
      return accept(std::string_view{}, RecordFen{}, r);
    }
    if (!decode_record(reinterpret_cast<const std::uint8_t*>(bytes.data()), pos_))
      return reject(hex(bytes), number, ErrorCode::kBadRecord, 1, 0, 0);
    Verdict v = validate(pos_, options_.repair);
    if (!v.ok()) return reject(decoded_fen(), number, v.code, 1, v.hints, v.squares, rule_detail(v.code));
    apply_ep_policy(pos_, options_.ep);
    NormalizeResult r;
    r.fields = 6;
    r.repairs = v.repairs;
    accept(std::string_view{}, RecordFen{}, r);
  }

  // A chunk of whole PGN games: every selected position of every game, each rejected game once.
  void pgn(std::string_view bytes) {
    ReplayOptions replay_options;
    replay_options.follow_variations = job_.follow_variations;
    GameReader reader(replay_options);
    GameStart start;
    game_tags_index_ = ~std::uint64_t{0};  // game indexes count from 0 in each chunk
    auto on_position = [&](const GameInfo& game, const PlyInfo& ply, const Position& pos) {
      if (ply.ply < job_.ply_from || ply.ply > job_.ply_to || (ply.ply - job_.ply_from) % job_.every != 0) return;
      if (game.index != start.index) start = game_start(game.index);
      if (start.too_large) return;
      ++result_.counts.records;
      pos_ = pos;
      apply_ep_policy(pos_, options_.ep);
      game_ = &game;
      NormalizeResult r;
      r.fields = 6;
      accept(std::string_view{}, RecordFen{}, r);
      if (result_.out.size() - start.out > kMaxGameOutput) {
        start.too_large = true;
        take_back(start);
        std::string_view first_line = bytes.substr(game.offset);
        first_line = first_line.substr(0, first_line.find('\n'));
        reject_game(bytes, game, ReplayError{PgnError::kGameTooLarge, ErrorCode::kOk, game.first_line, ply.ply,
                                             csv_without_cr(first_line)});
      }
    };
    auto on_error = [&](const GameInfo& game, const ReplayError& e) { reject_game(bytes, game, e); };
    ReplayStats stats = reader.replay(bytes, 1, ReplayCallbacks{on_position, on_error, {}});
    result_.counts.games += stats.games;
  }

  // A game whose text passes kMaxGameTextBytes, read past (pgn/game_skip.h): one rejected record at its first line,
  // which is `first_line`.
  void too_large_game(std::string_view first_line) {
    ++result_.counts.games;
    reject_game(first_line, GameInfo{}, ReplayError{PgnError::kGameTooLarge, ErrorCode::kOk, 1, 0, first_line});
  }

  void line(std::string_view line, std::uint64_t number) {
    if (source_.has_header && starts_input_ && number == 1) {
      if (source_.write_header) {
        result_.header = csv_without_cr(line);
        if (job_.count) claim_count_column(result_, source_.separator);
        result_.header += '\n';
        result_.separator = source_.separator;
      }
      return;
    }
    // Before the blank test: streamed input keeps only a too-long line's start (io/chunker.h), which may be blank
    // when the whole line is not. Measured without a CR line end, as the reject shows the line.
    const bool too_long = line.size() - (!line.empty() && line.back() == '\r') > kMaxLineBytes;
    if (!too_long && is_blank_line(line)) return;
    ++result_.counts.records;
    RecordFen where;
    lines_before_ = 0;
    // A file whose lines end in CR alone is one such line: the CR hint, judged on the part the reject shows (the
    // same bytes however the line was read; streamed input keeps only its start).
    if (too_long) return reject(line, number, ErrorCode::kLineTooLong, 1, cr_hint(line.substr(0, kMaxRejectInput)), 0);
    // A JSON Lines file whose lines end in CR alone is one line, "not valid JSON": the CR hint says why.
    if (ErrorCode e = locate_fen(line, where); e != ErrorCode::kOk)
      return e == ErrorCode::kJsonField ? reject(line, number, e, 1, cr_hint(line), 0, json_error_)
                                        : reject(line, number, e, 1, 0, 0);
    number += where.lines_before;
    lines_before_ = where.lines_before;
    xq_ = job_.variant == Variant::kXiangqi || (job_.variant == Variant::kAuto && xiangqi::looks_like_xiangqi(where.fen));
    if (xq_) {
      xiangqi::NormalizeResult xr = xiangqi::normalize_fen(where.fen, xpos_, xoptions_);
      if (!xr.ok())
        return reject(line, number, xr.code, column_in_line(line, where, xr.column), xr.hints | cr_hint(where.fen), 0,
                      rule_detail(xr.code), xr.squares);
      NormalizeResult r;
      r.fields = xr.fields < 2 ? 1 : 6;
      r.rest = xr.rest;
      r.repairs = xr.repairs;
      return accept(line, where, r);
    }
    chess_record(line, where, number);
  }

  // A line of a FEN or EPD input read as chess, in a chunk too short to hold a line over kMaxLineBytes: line()
  // without its questions about the input's header, format, variant and line lengths, whose answers process_chunk
  // knows for the whole chunk (xq_ and lines_before_ stay false and 0). A sixth of the per-record glue.
  void chess_text_line(std::string_view line, std::uint64_t number) {
    // A record's first byte is no blank: the blank-line scan only for lines that start like one.
    if ((line.empty() || is_trailing_junk(line.front())) && is_blank_line(line)) return;
    ++result_.counts.records;
    RecordFen where;
    where.fen = line;
    where.raw_end = line.size();
    chess_record(line, where, number);
  }

 private:
  // The side that breaks the one-king (one-general) rule, said after the rule (the position just read is pos_ or
  // xpos_); nothing for other codes.
  std::string_view rule_detail(ErrorCode code) const {
    if (code != ErrorCode::kMissingKing && code != ErrorCode::kTooManyKings) return {};
    return xq_ ? xiangqi::general_count_detail(xpos_) : king_count_detail(pos_);
  }

  void chess_record(std::string_view line, const RecordFen& where, std::uint64_t number) {
    NormalizeResult r = normalize_fen(where.fen, pos_, options_);
    if (!r.ok()) {
      reject(line, number, r.code, column_in_line(line, where, r.column), r.hints | cr_hint(where.fen) | epd_hint(r.code, where.fen),
             r.squares, rule_detail(r.code));
      result_.rejects.back().valid_as_xiangqi = valid_as_xiangqi(where.fen);
      return;
    }
    accept(line, where, r);
  }

  // What a PGN game's first written position found, to take the game's positions back.
  struct GameStart {
    std::uint64_t index = ~std::uint64_t{0};  // the game (within the chunk)
    std::size_t out = 0, keys = 0, ends = 0;
    std::uint64_t records = 0, valid = 0;
    bool too_large = false;  // its positions were taken back: the rest are skipped
  };
  GameStart game_start(std::uint64_t index) const {
    return {index, result_.out.size(), result_.keys.size(), result_.ends.size(), result_.counts.records,
            result_.counts.valid, false};
  }
  // Undoes the positions accept() wrote since `start` (a PGN position is never repaired or completed).
  void take_back(const GameStart& start) {
    result_.out.truncate(start.out);
    result_.keys.resize(start.keys);
    result_.ends.resize(start.ends);
    result_.counts.records = start.records;
    result_.counts.valid = start.valid;
  }

  // A rejected game: one invalid record at the error's token.
  void reject_game(std::string_view bytes, const GameInfo& game, const ReplayError& e) {
    ++result_.counts.records;
    ++result_.counts.invalid;
    ++result_.counts.invalid_games_by_code[static_cast<int>(e.code)];
    // The token is a view into the chunk: its column is its distance from the line's start.
    std::uint32_t column = 1;
    if (!e.token.empty() && e.token.data() >= bytes.data() && e.token.data() < bytes.data() + bytes.size()) {
      std::size_t at = static_cast<std::size_t>(e.token.data() - bytes.data());
      std::size_t line_start = bytes.rfind('\n', at == 0 ? 0 : at - 1);
      line_start = line_start == std::string_view::npos || (at == 0) ? 0 : line_start + 1;
      column = static_cast<std::uint32_t>(at - line_start + 1);
    }
    Reject rej{e.line, column, e.fen_code, 0, 0, result_.reject_text.size(), 0};
    std::string_view token = e.token;  // a repeated tag's text, a tag value or a movetext word: any length
    if (token.size() > kMaxRejectInput) {
      rej.input_bytes = token.size();
      token = token.substr(0, cut_between_characters(token, kMaxRejectInput));
    }
    result_.reject_text.append(token);
    rej.text_end = result_.reject_text.size();
    rej.pgn = e.code;
    // Xiangqi games (CCPD's, with a [FEN] tag) are replayed as chess: say why their start position is refused.
    rej.valid_as_xiangqi = e.code == PgnError::kBadFen && xiangqi::normalize_fen(e.token, xpos_).ok();
    // A Xiangqi game without such a tag (ICCS or Chinese notation) was rejected game by game with no word of why.
    rej.xiangqi_game = !rej.valid_as_xiangqi && is_xiangqi_game(game, bytes, e.token);
    rej.game = game.index + 1;
    rej.ply = e.ply;
    result_.rejects.push_back(rej);
  }

  // Whether a record a chess run rejects is a valid Xiangqi position: a Xiangqi file read without --variant had
  // every record rejected at its first '9' or its tenth rank, with no word of why. Rejected records only: the
  // record is read a second time.
  // kHintEpd for a record of a file read as FEN (by its name, or --from fen) that fails at its clocks or after
  // them and is a valid EPD record: EPD operations (`bm e4;`, `hmvc 0;`) in a .fen file were rejected as a bad
  // halfmove clock with no word of EPD. Rejected records only: the record is read a second time.
  std::uint8_t epd_hint(ErrorCode code, std::string_view fen) {
    if (source_.format != InputFormat::kFen || options_.allow_operations ||
        (code != ErrorCode::kBadHalfmove && code != ErrorCode::kBadFullmove && code != ErrorCode::kTrailingText) ||
        fen.find(';') == std::string_view::npos)  // EPD operations end in ';': "w KQkq - x 1" is a typo, not EPD
      return 0;
    NormalizeOptions as_epd = options_;
    as_epd.allow_operations = true;
    Position pos;
    return normalize_fen(fen, pos, as_epd).ok() ? kHintEpd : 0;
  }

  bool valid_as_xiangqi(std::string_view fen) {
    // looks_like_xiangqi first: every Xiangqi placement has its 9 slashes, and the full read of a chess record that
    // fails was a quarter of a run of such rejects.
    return job_.variant == Variant::kChess && xiangqi::looks_like_xiangqi(fen) &&
           xiangqi::normalize_fen(fen, xpos_, xoptions_).ok();
  }

  ErrorCode locate_fen(std::string_view line, RecordFen& where) {
    switch (source_.format) {
      case InputFormat::kFen:
      case InputFormat::kEpd:
      case InputFormat::kBinary:
      case InputFormat::kPgn:
        where.fen = line;
        where.raw_end = line.size();
        return ErrorCode::kOk;
      case InputFormat::kCsv: {
        CsvField field;
        // The whole row must be well formed, not only up to the FEN: a quote left open (at the end of the input)
        // would leave `--to csv` output unreadable past this row, and a stray one after the FEN field made one
        // record of the lines up to the next quote, accepted with no word on the rows it had swallowed.
        if (!find_csv_field(line, static_cast<std::size_t>(source_.csv_column), source_.separator, field) ||
            !csv_rest_well_formed(line, field.end, source_.separator))
          return ErrorCode::kCsvField;
        where.fen = csv_field_value(line, field, scratch_);
        where.raw_begin = field.begin;
        where.raw_end = field.end;
        where.fen_column = static_cast<std::uint32_t>(field.begin + field.quoted + 1);
        if (std::size_t last_break = line.rfind('\n', field.begin); last_break != std::string_view::npos) {
          where.lines_before = static_cast<std::uint32_t>(std::count(line.begin(), line.begin() + field.begin, '\n'));
          where.fen_column = static_cast<std::uint32_t>(field.begin + field.quoted - last_break);
        }
        return ErrorCode::kOk;
      }
      case InputFormat::kJsonl: {
        JsonlFieldFinder::Found found;
        if (!json_.find(line, job_.json_field, found, json_error_)) return ErrorCode::kJsonField;
        where.fen = found.value;
        where.raw_begin = found.raw_begin;
        where.raw_end = found.raw_end;
        where.fen_column = static_cast<std::uint32_t>(found.raw_begin + 2);
        return ErrorCode::kOk;
      }
    }
    return ErrorCode::kOk;
  }

  // The 1-based column in the line of column `fen_column` (0: none) of the FEN: a JSON string's escapes are
  // counted as written.
  std::uint32_t column_in_line(std::string_view line, const RecordFen& where, std::uint32_t fen_column) const {
    if (fen_column == 0) return where.fen_column;
    if (source_.format != InputFormat::kJsonl) return where.fen_column + fen_column - 1;
    std::string_view token = line.substr(where.raw_begin, where.raw_end - where.raw_begin);
    return static_cast<std::uint32_t>(where.raw_begin + 1 + JsonlFieldFinder::raw_offset(token, fen_column - 1));
  }

  // How much of a rejected record's text it keeps: all of it, or up to kMaxRejectInput bytes past its column, cut
  // between characters.
  static std::size_t kept_input_bytes(std::string_view text, const Reject& rej) {
    const std::size_t at = column_at(text, rej);
    return text.size() - at <= kMaxRejectInput ? text.size() : cut_between_characters(text, at + kMaxRejectInput);
  }
  // `keep` (< text.size()), moved back so that text[0, keep) does not end inside a UTF-8 character.
  static std::size_t cut_between_characters(std::string_view text, std::size_t keep) {
    while (keep > 0 && utf8_continuation(text[keep])) --keep;
    return keep;
  }

  void reject(std::string_view line, std::uint64_t number, ErrorCode code, std::uint32_t column, std::uint8_t hints,
              Bitboard squares, std::string_view detail = {}, xiangqi::Bitboard xiangqi_squares = 0) {
    Counts& counts = result_.counts;
    ++counts.invalid;
    ++counts.invalid_by_code[static_cast<int>(code)];
    std::string_view shown = line;
    if (!shown.empty() && shown.back() == '\r') shown.remove_suffix(1);
    Reject rej{number, column, code, hints, squares, result_.reject_text.size(), 0};
    rej.xiangqi = xq_;
    rej.lines_before = lines_before_;
    rej.xiangqi_squares = xiangqi_squares;
    if (std::size_t keep = kept_input_bytes(shown, rej); keep < shown.size()) {
      rej.input_bytes = shown.size();
      shown = shown.substr(0, keep);
    }
    result_.reject_text.append(shown);
    rej.text_end = result_.reject_text.size();
    result_.reject_text.append(detail);
    rej.detail_end = result_.reject_text.size();
    result_.rejects.push_back(rej);
  }

  // An accepted record: counted, its key taken, written. FEN output, the bulk case, is written here in place; what
  // only some runs do (stats, keys, dropped EPD operations, other output formats) is in functions of its own, so
  // that the common record pays neither their tests one by one nor their larger stack frame.
  void accept(std::string_view line, const RecordFen& where, const NormalizeResult& r) {
    Counts& counts = result_.counts;
    ++counts.valid;
    counts.repaired += r.repairs != 0;
    counts.completed += r.completed();
    if (chess_key_only_ && !xq_)  // the bulk of dedup: take_extras() less its tests and call
      result_.keys.push_back(dedup_key(pos_, level_));
    else if (record_extras_)
      take_extras(where, r);
    if (output_ != Output::kFen) return output_ == Output::kNone ? void() : write_other(line, where, r);
    ByteBuffer& result_out = result_.out;
    char* dst = result_out.prepare(kMaxFenLength + 1);
    std::size_t n;
    if (r.canonical) {  // a record already in the writer's form (most of a normalized database) is copied as it came
      n = copy_fen_text(where.fen.substr(0, r.rest), dst);
    } else {
      placement_ = xq_ ? std::string_view{} : where.fen.substr(0, r.placement_length);  // copied, not rebuilt
      n = fen_text(dst);
    }
    dst[n] = '\n';
    result_out.commit(n + 1);
    if (want_ends_) result_.ends.push_back(result_out.size());
  }

  // accept()'s stats, dedup key and dropped EPD operations (in that order: the last names the record by its key).
  __attribute__((noinline)) void take_extras(const RecordFen& where, const NormalizeResult& r) {
    Counts& counts = result_.counts;
    if (job_.command == Command::kStats) xq_ ? count_stats(xpos_, counts) : count_stats(pos_, counts);
    if (want_keys_ && xq_) {
      result_.keys.push_back(xiangqi::dedup_key(xpos_, level_));
    } else if (want_keys_) {
      if (key_needs_legal_ep_ && pos_.ep_square != kNoSquare) {  // without one the legal-ep position is pos_
        Position legal = pos_;
        apply_ep_policy(legal, EpPolicy::kLegal);
        result_.keys.push_back(dedup_key(legal, level_));
      } else {
        result_.keys.push_back(dedup_key(pos_, level_));
      }
    }
    if (job_.writes_positions() && source_.format == InputFormat::kEpd && job_.to != OutputFormat::kEpd &&
        r.rest < where.fen.size() &&
        (r.operations_as_written || has_epd_operations_but_clocks(where.fen.substr(r.rest)))) {
      // FEN and binary output hold no operations: said at the end of the run, for the records written (dedup
      // drops the repeats: the sink counts the kept ones)
      if (job_.dedup())
        result_.dropped_operations.push_back(result_.keys.size() - 1);
      else
        ++counts.operations_dropped;
    }
  }

  // accept()'s binary, EPD, CSV and JSON Lines output.
  __attribute__((noinline)) void write_other(std::string_view line, const RecordFen& where, const NormalizeResult& r) {
    placement_ = xq_ ? std::string_view{} : where.fen.substr(0, r.placement_length);  // copied, not rebuilt
    ByteBuffer& result_out = result_.out;
    if (job_.to == OutputFormat::kBinary) {
      auto* dst = reinterpret_cast<std::uint8_t*>(result_out.prepare(record_size_));
      xq_ ? xiangqi::encode_record(xpos_, dst) : encode_record(pos_, dst);
      result_out.commit(record_size_);
      return;
    }
    formatted_.clear();
    format_record(line, where, r, formatted_);
    formatted_.push_back('\n');
    result_out.append(formatted_);
    if (want_ends_) result_.ends.push_back(result_out.size());
  }

  // EPD, CSV and JSON Lines output of the accepted record, without the newline.
  void format_record(std::string_view line, const RecordFen& where, const NormalizeResult& r, std::string& out) {
    char buf[kMaxFenLength];
    switch (job_.to) {
      case OutputFormat::kEpd: {
        // The position's clocks (as hmvc / fmvn, repaired or not), then the record's other operations.
        out.append(buf, epd_text(buf));
        if (source_.format == InputFormat::kEpd)
          append_epd_operations_but_clocks(out, where.fen.substr(r.rest), r.operations_as_written);
        break;
      }
      case OutputFormat::kCsv: {
        if (source_.format == InputFormat::kPgn) {
          append_csv_field(out, std::string_view(buf, fen_text(buf)), source_.separator);
          out += game_tags();
          break;
        }
        std::string_view row = csv_without_cr(line);
        out.append(row.substr(0, where.raw_begin));
        append_csv_field(out, std::string_view(buf, fen_text(buf)), source_.separator);
        out.append(row.substr(where.raw_end));
        break;
      }
      case OutputFormat::kJsonl: {
        if (source_.format == InputFormat::kPgn) {
          out += "{\"fen\": \"";
          out.append(buf, fen_text(buf));
          out.push_back('"');
          out += game_tags();
          out.push_back('}');
          break;
        }
        std::string_view row = without_trailing_junk(line);
        out.append(row.substr(0, where.raw_begin));
        out.push_back('"');
        out.append(buf, fen_text(buf));  // a FEN never needs JSON escapes
        out.push_back('"');
        out.append(row.substr(where.raw_end));
        break;
      }
      default:
        out.append(buf, fen_text(buf));
    }
  }

  // The --with-tags part of a PGN position's CSV row (",value" each) or JSON object (", \"name\": value" each), built
  // once per game: looked up, unescaped and quoted for every position, the tags were a third of such a run.
  const std::string& game_tags() {
    if (game_->index == game_tags_index_) return game_tags_;
    game_tags_index_ = game_->index;
    game_tags_.clear();
    for (const std::string& tag : job_.with_tags) {
      if (job_.to == OutputFormat::kCsv) {
        game_tags_.push_back(source_.separator);
        append_csv_field(game_tags_, tag_value(tag), source_.separator);
        continue;
      }
      game_tags_ += ", ";
      append_json_string(game_tags_, tag);
      game_tags_ += ": ";
      if (game_->find_tag(tag))
        append_json_string(game_tags_, tag_value(tag));
      else
        game_tags_ += "null";  // no such tag, unlike an empty one
    }
    return game_tags_;
  }

  // The current game's tag value with its PGN escapes undone; empty when it has no such tag.
  std::string_view tag_value(std::string_view name) {
    const TagPair* tag = game_->find_tag(name);
    if (!tag) return {};
    tag_scratch_.resize(tag->value.size());
    tag_scratch_.resize(unescape_tag_value(tag->value, tag_scratch_.data()));
    return tag_scratch_;
  }

  std::string_view hex(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    hex_.clear();
    for (unsigned char c : bytes) {
      hex_.push_back(kDigits[c >> 4]);
      hex_.push_back(kDigits[c & 15]);
    }
    return hex_;
  }

  // A binary record that decodes to an invalid position is shown as its FEN: the record is the position's only
  // encoding, so the FEN says all its bytes do, readably, and validate --html can draw it (hex it could not).
  std::string_view decoded_fen() {
    static_assert(kMaxFenLength >= xiangqi::kMaxFenLength, "one buffer for both writers");
    char buf[kMaxFenLength];
    placement_ = {};  // no text to copy: written from the position
    hex_.assign(buf, fen_text(buf));
    return hex_;
  }

  // The current record's text, chess or Xiangqi.
  std::size_t fen_text(char* buf) const {
    return xq_ ? xiangqi::write_fen(xpos_, buf, job_.xiangqi_letters)
               : write_fen(pos_, buf, job_.castling_notation, placement_);
  }
  std::size_t epd_text(char* buf) const {
    return xq_ ? xiangqi::write_epd(xpos_, buf, job_.xiangqi_letters) : write_epd(pos_, buf, job_.castling_notation, placement_);
  }

  std::string hex_, tag_scratch_;
  const GameInfo* game_ = nullptr;  // PGN: the game of the position being accepted
  std::string game_tags_;  // game_tags() of the game with index game_tags_index_ in the current chunk
  std::uint64_t game_tags_index_ = ~std::uint64_t{0};
  std::string_view placement_;      // the accepted record's placement text when the parser vouched for it
  const SourceFormat& source_;
  const Job& job_;
  ChunkResult& result_;
  bool starts_input_;  // line 1 of the chunk is line 1 of the input
  NormalizeOptions options_;
  bool want_keys_, want_ends_, key_needs_legal_ep_;
  enum class Output : std::uint8_t { kNone, kFen, kOther } output_;  // what accept() writes
  bool record_extras_;  // accept() calls take_extras()
  bool chess_key_only_;  // of take_extras(), a chess record needs only its key, of pos_ as it is
  KeyLevel level_;
  Position pos_;
  xiangqi::Position xpos_;
  xiangqi::NormalizeOptions xoptions_;
  bool xq_ = false;  // the current record is a Xiangqi position
  std::uint32_t lines_before_ = 0;  // the current record's lines before its FEN's (a CSV row with line breaks)
  std::size_t record_size_;
  std::string scratch_, json_error_;
  std::string formatted_;  // one EPD / CSV / JSON Lines record, reused
  JsonlFieldFinder json_;
};

}  // namespace

std::size_t column_at(std::string_view text, const Reject& rej) {
  std::size_t line_start = 0;
  for (std::uint32_t i = 0; i < rej.lines_before; ++i) {
    const std::size_t nl = text.find('\n', line_start);
    if (nl == std::string_view::npos) break;
    line_start = nl + 1;
  }
  const std::size_t in_line = rej.column > 0 ? rej.column - 1 : 0;
  return std::min(text.size(), line_start + in_line);
}

KeyLevel key_level(DedupLevel level) {
  switch (level) {
    case DedupLevel::kFull: return KeyLevel::kFull;
    case DedupLevel::kPosition: return KeyLevel::kPosition;
    case DedupLevel::kPlacementSide: return KeyLevel::kPlacementSide;
    case DedupLevel::kPlacement: return KeyLevel::kPlacement;
  }
  return KeyLevel::kPosition;
}

std::string pgn_csv_header(const Job& job, char separator) {
  std::string header = "fen";
  for (const std::string& tag : job.with_tags) (header += separator) += tag;
  return header;
}

void ChunkResult::clear() {
  header.clear();
  separator = ',';
  count_columns.clear();
  count_column_added = false;
  out.clear();
  ends.clear();
  keys.clear();
  dropped_operations.clear();
  rejects.clear();
  reject_text.clear();
  counts = Counts{};
  lines = 0;
}

void process_chunk(std::string_view bytes, bool starts_input, const SourceFormat& source, const Job& job,
                   ChunkResult& result, std::uint64_t too_large_game_lines) {
  result.clear();
  ChunkWork work(source, job, result, starts_input);
  std::uint64_t number = 1;
  if (source.format == InputFormat::kPgn) {
    result.lines = for_each_line(bytes, [](std::string_view) {});  // for the sink's line numbers; games are read whole
    if (source.write_header && starts_input) {
      result.header = pgn_csv_header(job, source.separator);
      if (job.count) claim_count_column(result, source.separator);
      result.header += '\n';
      result.separator = source.separator;
    }
    if (too_large_game_lines != 0) {
      result.lines = too_large_game_lines;
      work.too_large_game(bytes);
      return;
    }
    work.pgn(bytes);
    return;
  }
  if (source.format == InputFormat::kBinary) {
    std::size_t size = source.xiangqi ? xiangqi::kRecordSize : kRecordSize;
    for (std::size_t at = 0; at + size <= bytes.size(); at += size) work.binary_record(bytes.substr(at, size), number++);
    result.lines = number - 1;
    return;
  }
  work.reserve_for_text(bytes.size());
  if (source.format == InputFormat::kCsv) {
    result.lines = for_each_csv_row(bytes, source.separator, [&](std::string_view row, std::uint64_t line) { work.line(row, line); });
    return;
  }
  if ((source.format == InputFormat::kFen || source.format == InputFormat::kEpd) && !source.has_header &&
      job.variant == Variant::kChess && bytes.size() <= kMaxLineBytes) {
    result.lines = for_each_line(bytes, [&](std::string_view line) { work.chess_text_line(line, number++); });
    return;
  }
  result.lines = for_each_line(bytes, [&](std::string_view line) { work.line(line, number++); });
}

}  // namespace fenmill
