#include "pipeline/sink.h"

#include <algorithm>
#include <charconv>

#include "formats/binary_chunker.h"
#include "formats/binary_file.h"
#include "core/utf8.h"
#include "formats/csv.h"
#include "pipeline/report.h"

namespace fenmill {
namespace {

// What the HTML report keeps of a reject: of a long record only the bytes around its column, cut between
// characters.
ReportedReject reported_reject(std::string_view file, const Reject& rej, std::string_view input, std::string_view detail) {
  std::size_t at = column_at(input, rej), begin = 0, end = input.size();
  if (input.size() > kMaxReportedInput) {
    begin = at > kReportedBeforeColumn ? at - kReportedBeforeColumn : 0;
    end = std::min(input.size(), begin + kMaxReportedInput);
    while (begin < at && utf8_continuation(input[begin])) ++begin;
    while (end > at && end < input.size() && utf8_continuation(input[end])) --end;
  }
  ReportedReject r{std::string(file), rej.line, rej.column, std::string(reject_code_name(rej)), reject_message(rej, detail),
                   std::string(input.substr(begin, end - begin)), rej.xiangqi, rej.pgn != PgnError::kOk, at - begin};
  if (end - begin < input.size() || rej.input_bytes != 0) {
    r.input_bytes = rej.input_bytes != 0 ? rej.input_bytes : input.size();
    r.input_skipped = begin;
  }
  return r;
}

}  // namespace

Sink::Sink(const Job& job, AtomicOutput* out, AtomicOutput* rejects)
    : job_(job), out_(out), rejects_(rejects) {
  if (job.count)
    counting_.emplace();
  else if (job.dedup() || job.command == Command::kStats)
    distinct_.emplace();
  if (writes_binary()) {
    bool xq = job.variant == Variant::kXiangqi;
    record_size_ = xq ? kXiangqiRecordSize : kRecordSize;
    append_header(buffer_, xq ? BinaryVariant::kXiangqi : BinaryVariant::kChess, static_cast<std::uint16_t>(record_size_));
  }
}

bool Sink::consume(const Chunk& chunk, const ChunkResult& r, std::string& error) {
  if (chunk.source_index != source_index_) {  // PGN game numbers and line numbers restart with each input
    source_index_ = chunk.source_index;
    games_in_source_ = 0;
    lines_in_source_ = 0;
  }
  // A chunk's lines (binary input: records) were numbered from 1: they follow those of the chunks before it.
  const std::uint64_t line_shift = lines_in_source_;
  lines_in_source_ += r.lines;
  std::uint64_t games_before = games_in_source_;
  games_in_source_ += r.counts.games;
  counts_.add(r.counts);
  if (!r.header.empty() && !headerless_rows_source_.empty()) {
    error = std::string(chunk.source_name) + " has a CSV header and " + headerless_rows_source_ +
            ", before it, has none: --to csv writes one header, first (--csv-header says which files have one)";
    return false;
  }
  buffer_.append(r.header);
  if (!r.header.empty()) {
    csv_header_written_ = true;
    csv_separator_ = r.separator;
    csv_count_columns_ = r.count_columns;
    csv_count_column_added_ = r.count_column_added;
  }
  if (job_.command == Command::kStats) {
    is_new_.resize(r.keys.size());
    distinct_->insert_batch(r.keys.data(), r.keys.size(), is_new_.data());
    // The records dedup with this --key would drop: the summary's duplicates, valid - distinct_positions.
    counts_.duplicates += static_cast<std::uint64_t>(std::count(is_new_.begin(), is_new_.end(), 0));
  } else if (job_.dedup()) {
    dedup_chunk(r);
  } else if (job_.writes_positions()) {
    counts_.written += r.counts.valid;
    if (job_.to == OutputFormat::kBinary)
      pending_binary_.append(r.out.view());
    else if (buffer_.empty() && out_ && r.out.size() >= (1u << 16))
      write_direct(r.out.view());  // a chunk's output goes straight to the file: one copy less
    else
      buffer_.append(r.out.view());
  }
  for (Reject rej : r.rejects) {
    if (chunk.long_line_bytes != 0) rej.input_bytes = chunk.long_line_bytes;  // the chunk is that line, cut
    rej.game += games_before;  // chunk-local game numbers become input-wide (PGN)
    rej.line += line_shift;
    std::string_view input(r.reject_text.data() + rej.text_begin, rej.text_end - rej.text_begin);
    std::string_view detail;
    if (rej.detail_end > rej.text_end) detail = std::string_view(r.reject_text.data() + rej.text_end, rej.detail_end - rej.text_end);
    if (rejects_) append_reject_json(reject_buffer_, chunk.source_name, rej, input, detail);
    if (!job_.html_path.empty() && reported_.size() < kMaxReportedRejects)
      reported_.push_back(reported_reject(chunk.source_name, rej, input, detail));
    if (job_.command == Command::kValidate) {
      if (job_.json)
        append_reject_json(buffer_, chunk.source_name, rej, input, detail);
      else
        append_reject_line(buffer_, chunk.source_name, rej, detail);
    }
  }
  // Known here, not when the inputs are opened: a CSV input without a header whose rows were all rejected wrote
  // none, and a later input's header can still go first.
  if (job_.to == OutputFormat::kCsv && !csv_header_written_ && counts_.written > 0 && headerless_rows_source_.empty())
    headerless_rows_source_ = chunk.source_name;
  flush_binary_blocks(false);
  if (job_.count && !spill_kept(false, error)) return false;
  return flush(false, error);
}

bool Sink::finish(std::string& error) {
  if (job_.count && !write_counted(error)) return false;
  flush_binary_blocks(true);
  return flush(true, error);
}

std::uint64_t Sink::distinct() const {
  return counting_ ? counting_->size() : distinct_ ? distinct_->size() : 0;
}

void Sink::dedup_chunk(const ChunkResult& r) {
  const bool binary = job_.to == OutputFormat::kBinary;
  is_new_.resize(r.keys.size());
  if (job_.count)
    counting_->insert_batch(r.keys.data(), r.keys.size(), is_new_.data());
  else
    distinct_->insert_batch(r.keys.data(), r.keys.size(), is_new_.data());
  std::string& sink = job_.count ? kept_ : binary ? pending_binary_ : buffer_;
  // Kept records are copied a run at a time: most runs of new positions are long.
  std::size_t run_begin = 0, begin = 0;
  bool in_run = false;
  for (std::size_t i = 0; i < r.keys.size(); ++i) {
    std::size_t end = binary ? (i + 1) * record_size_ : r.ends[i];
    if (is_new_[i]) {
      if (!in_run) run_begin = begin, in_run = true;
      ++counts_.written;
    } else {
      if (in_run) sink.append(r.out.data() + run_begin, begin - run_begin), in_run = false;
      ++counts_.duplicates;
    }
    begin = end;
  }
  if (in_run) sink.append(r.out.data() + run_begin, begin - run_begin);
  for (std::size_t i : r.dropped_operations) counts_.operations_dropped += is_new_[i];
}

bool Sink::spill_kept(bool final, std::string& error) {
  if (kept_.size() < kFlushAt && !final) return true;
  if (!spill_) {
    spill_ = SpillFile::create(out_->scratch_directory(), error);
    if (!spill_) return false;
  }
  if (!spill_->append(kept_)) return (error = spill_->error()), false;
  kept_.clear();
  return true;
}

// The count goes where the output format keeps one more value: a column (CSV, whose header names it), a
// "count" key (JSON Lines), else after a tab. A record that has "count" keys, or a CSV header with count
// columns, gets every one of their values replaced: another key or column of that name would shadow the count.
void Sink::append_counted(std::string& out, std::string_view record, std::string_view count) {
  if (job_.to == OutputFormat::kJsonl && count_finder_.find_values(record, "count", count_spans_) &&
      !count_spans_.empty()) {
    std::size_t from = 0;
    for (const JsonlFieldFinder::Span& span : count_spans_) {
      (out += record.substr(from, span.begin - from)) += count;
      from = span.end;
    }
    out += record.substr(from);
  } else if (job_.to == OutputFormat::kJsonl) {
    std::size_t close = record.rfind('}');  // every JSON Lines record is an object holding the fen
    out.append(record.substr(0, close));
    (out += ",\"count\":") += count;
    out.append(record.substr(close));
  } else if (job_.to == OutputFormat::kCsv && csv_count_column_added_) {
    // The column added after the header's last: a short row gets empty fields up to it (else its count would
    // sit under another name); a longer row keeps its extra fields, and the count follows them.
    const int fields = static_cast<int>(csv_field_count(record, csv_separator_));
    count_column_.assign(1, std::max(csv_count_columns_.front(), fields));
    replace_csv_fields(out, record, count_column_, count, csv_separator_);
  } else if (job_.to == OutputFormat::kCsv && !csv_count_columns_.empty()) {
    replace_csv_fields(out, record, csv_count_columns_, count, csv_separator_);
  } else {
    out.append(record);
    out += job_.to == OutputFormat::kCsv ? csv_separator_ : '\t';
    out.append(count);
  }
  out += '\n';
}

bool Sink::write_counted(std::string& error) {
  if (counting_->size() == 0) return true;
  if (!spill_kept(true, error)) return false;
  const std::size_t distinct = counting_->size();
  std::size_t ordinal = 0;
  std::string write_error;
  // A CSV record may span lines (a quoted field holding line breaks): its lines are joined back first.
  std::string joined;
  CsvState csv_state = CsvState::kFieldStart;
  bool read = spill_->for_each_line([&](std::string_view line) {
    std::string_view record = line;
    if (job_.to == OutputFormat::kCsv) {
      const bool continues = csv_state == CsvState::kQuoted;
      csv_state = csv_scan(line, csv_state, csv_separator_);
      if (continues) (joined += '\n') += line;
      if (csv_state == CsvState::kQuoted) {
        if (!continues) joined.assign(line);
        return;
      }
      csv_state = CsvState::kFieldStart;
      if (continues) record = joined;
    }
    if (!write_error.empty() || ordinal == distinct) return (void)++ordinal;  // (more lines than keys: below)
    char digits[24];
    const std::string_view count(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, counting_->count(ordinal++)).ptr - digits));
    append_counted(buffer_, record, count);
    flush(false, write_error);
  });
  if (!write_error.empty()) return (error = write_error), false;
  if (!read) return (error = spill_->error()), false;
  if (ordinal != distinct)
    return (error = "temporary file: " + std::to_string(ordinal) + " records read back for " +
                    std::to_string(distinct) + " distinct positions"), false;
  return true;
}

void Sink::flush_binary_blocks(bool final) {
  std::size_t block_bytes = kMaxBlockRecords * record_size_;
  std::size_t used = 0;
  while (pending_binary_.size() - used >= block_bytes || (final && pending_binary_.size() > used)) {
    std::size_t n = std::min(block_bytes, pending_binary_.size() - used) / record_size_;
    append_block(buffer_, reinterpret_cast<const std::uint8_t*>(pending_binary_.data() + used), n, record_size_);
    used += n * record_size_;
    binary_records_ += n;
  }
  pending_binary_.erase(0, used);
  if (final && writes_binary()) append_end_block(buffer_, binary_records_);
}

void Sink::write_direct(std::string_view bytes) {
  if (!out_->write(bytes)) direct_failed_ = true;
}

bool Sink::flush(bool final, std::string& error) {
  if (direct_failed_) return (error = out_->error()), false;
  if (out_ && (final || buffer_.size() >= kFlushAt)) {
    if (!out_->write(buffer_)) return (error = out_->error()), false;
    buffer_.clear();
  }
  if (rejects_ && (final || reject_buffer_.size() >= kFlushAt)) {
    if (!rejects_->write(reject_buffer_)) return (error = rejects_->error()), false;
    reject_buffer_.clear();
  }
  return true;
}

}  // namespace fenmill
