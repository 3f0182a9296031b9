#include "pipeline/run.h"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "formats/binary_chunker.h"
#include "formats/binary_file.h"
#include "formats/binary_record.h"
#include "formats/csv.h"
#include "io/atomic_output.h"
#include "io/multi_chunker.h"
#include "pipeline/chunk_processor.h"
#include "pipeline/dedup_set.h"
#include "pipeline/progress.h"
#include "pipeline/report.h"

namespace fenmill {
namespace {

struct Work {
  Chunk chunk;
  ChunkResult result;
  SourceFormat source;
};

// Reuses Work objects, so chunk buffers and result strings keep their capacity between chunks.
class WorkPool {
 public:
  Work* acquire() {
    std::lock_guard lock(mutex_);
    if (free_.empty()) {
      all_.push_back(std::make_unique<Work>());
      return all_.back().get();
    }
    Work* w = free_.back();
    free_.pop_back();
    return w;
  }
  void release(Work* w) {
    std::lock_guard lock(mutex_);
    free_.push_back(w);
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<Work>> all_;
  std::vector<Work*> free_;
};

bool ends_with(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) return false;
  return true;
}

// The input format of one input: --from, or its extension (also under .zst).
InputFormat format_of(const Job& job, std::string_view name) {
  if (!job.from_auto) return job.from;
  if (ends_with(name, ".zst")) name.remove_suffix(4);
  if (ends_with(name, ".epd")) return InputFormat::kEpd;
  if (ends_with(name, ".bin")) return InputFormat::kBinary;
  if (ends_with(name, ".csv") || ends_with(name, ".tsv")) return InputFormat::kCsv;
  if (ends_with(name, ".jsonl") || ends_with(name, ".ndjson")) return InputFormat::kJsonl;
  return InputFormat::kFen;
}

// Decides, in the serial reader stage, how to read each input. CSV needs its header line, which only
// the input's first chunk holds; later chunks reuse what was found.
class SourceFormats {
 public:
  explicit SourceFormats(const Job& job) : job_(job) {}

  bool resolve(const Chunk& chunk, SourceFormat& out, std::string& error) {
    if (chunk.source_index < known_.size() && chunk.first_line > 1) {
      out = known_[chunk.source_index];
      return true;
    }
    SourceFormat f;
    f.format = format_of(job_, chunk.source_name);
    if (f.format == InputFormat::kCsv) {
      std::string_view name = chunk.source_name;
      if (ends_with(name, ".zst")) name.remove_suffix(4);
      f.separator = ends_with(name, ".tsv") ? '\t' : ',';
      f.has_header = true;
      f.write_header = chunk.source_index == 0 && job_.to == OutputFormat::kCsv;
      std::string_view header = chunk.bytes.substr(0, chunk.bytes.find('\n'));
      if (!find_column(header, f, error)) {
        error = chunk.source_name.empty() ? error : std::string(chunk.source_name) + ": " + error;
        return false;
      }
    }
    if ((job_.to == OutputFormat::kCsv && f.format != InputFormat::kCsv) ||
        (job_.to == OutputFormat::kJsonl && f.format != InputFormat::kJsonl)) {
      error = std::string(chunk.source_name) + ": --to csv needs CSV input and --to jsonl JSON Lines input";
      return false;
    }
    if (known_.size() <= chunk.source_index) known_.resize(chunk.source_index + 1);
    known_[chunk.source_index] = f;
    out = f;
    return true;
  }

 private:
  bool find_column(std::string_view header, SourceFormat& f, std::string& error) {
    const std::string& wanted = job_.fen_column;
    if (!wanted.empty() && wanted.find_first_not_of("0123456789") == std::string::npos) {
      f.csv_column = std::stoi(wanted);
      return true;
    }
    for (std::string_view name : wanted.empty() ? std::vector<std::string_view>{"FEN", "fen"}
                                                : std::vector<std::string_view>{wanted}) {
      f.csv_column = csv_column_index(trim_cr(header), name, f.separator);
      if (f.csv_column >= 0) return true;
    }
    error = "no column named " + (wanted.empty() ? std::string("FEN or fen") : wanted) + " in the CSV header";
    return false;
  }
  static std::string_view trim_cr(std::string_view s) {
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    return s;
  }

  const Job& job_;
  std::vector<SourceFormat> known_;
};

// Text inputs are cut at line boundaries; binary inputs come block by block. One run reads one kind.
class ChunkSource {
 public:
  ChunkSource(const Job& job) {
    std::size_t binary = 0;
    for (const std::string& path : job.inputs) binary += format_of(job, path) == InputFormat::kBinary;
    if (binary == 0) {
      text_.emplace(job.inputs, job.chunk_size);
    } else if (binary == job.inputs.size()) {
      binary_.emplace(job.inputs);
    } else {
      mixed_ = true;
    }
  }
  bool next(Chunk& out, std::string& error) {
    if (mixed_) {
      error = "binary and text inputs cannot be mixed in one run";
      return false;
    }
    return text_ ? text_->next(out, error) : binary_->next(out, error);
  }

 private:
  std::optional<MultiChunker> text_;
  std::optional<BinaryChunker> binary_;
  bool mixed_ = false;
};

// The serial, in-order end of the pipeline: dedup, write, rejects, counts.
class Sink {
 public:
  Sink(const Job& job, AtomicOutput* out, AtomicOutput* rejects) : job_(job), out_(out), rejects_(rejects) {
    if (job.to == OutputFormat::kBinary && job.writes_positions()) append_header(buffer_, BinaryVariant::kChess);
  }

  bool consume(const Work& w, std::string& error) {
    const ChunkResult& r = w.result;
    counts_.add(r.counts);
    buffer_.append(r.header);
    if (job_.command == Command::kStats) {
      for (const Key128& k : r.keys) distinct_.insert(k);
    } else if (job_.dedup()) {
      dedup_chunk(r);
    } else if (job_.writes_positions()) {
      counts_.written += r.counts.valid;
      if (job_.to == OutputFormat::kBinary)
        pending_binary_.append(r.out);
      else
        buffer_.append(r.out);
    }
    for (const Reject& rej : r.rejects) {
      std::string_view input(r.reject_text.data() + rej.text_begin, rej.text_end - rej.text_begin);
      if (rejects_) append_reject_json(reject_buffer_, w.chunk.source_name, rej, input);
      if (job_.command == Command::kValidate) {
        if (job_.json)
          append_reject_json(buffer_, w.chunk.source_name, rej, input);
        else
          append_reject_line(buffer_, w.chunk.source_name, rej);
      }
    }
    flush_binary_blocks(false);
    return flush(false, error);
  }

  bool finish(std::string& error) {
    if (job_.count) write_counted();
    flush_binary_blocks(true);
    return flush(true, error);
  }

  const Counts& counts() const { return counts_; }
  std::uint64_t distinct() const {
    return job_.command == Command::kStats ? distinct_.size() : job_.count ? counting_.counts().size() : distinct_.size();
  }

 private:
  void dedup_chunk(const ChunkResult& r) {
    const bool binary = job_.to == OutputFormat::kBinary;
    is_new_.resize(r.keys.size());
    if (job_.count) {
      for (std::size_t i = 0; i < r.keys.size(); ++i) {
        bool fresh;
        counting_.insert(r.keys[i], fresh);
        is_new_[i] = fresh;
      }
    } else {
      distinct_.insert_batch(r.keys.data(), r.keys.size(), is_new_.data());
    }
    std::string& sink = job_.count ? kept_ : binary ? pending_binary_ : buffer_;
    std::uint32_t begin = 0;
    for (std::size_t i = 0; i < r.keys.size(); ++i) {
      std::uint32_t end = binary ? static_cast<std::uint32_t>((i + 1) * kRecordSize) : r.ends[i];
      if (is_new_[i]) {
        sink.append(r.out.data() + begin, end - begin);
        if (job_.count) kept_ends_.push_back(kept_.size());
        ++counts_.written;
      } else {
        ++counts_.duplicates;
      }
      begin = end;
    }
  }

  // --count: every distinct record with its number of occurrences, tab-separated, in first-seen order.
  void write_counted() {
    std::size_t begin = 0;
    for (std::size_t i = 0; i < kept_ends_.size(); ++i) {
      std::string_view record(kept_.data() + begin, kept_ends_[i] - begin - 1);  // without '\n'
      begin = kept_ends_[i];
      buffer_.append(record);
      buffer_.push_back('\t');
      buffer_ += std::to_string(counting_.counts()[i]);
      buffer_.push_back('\n');
    }
  }

  // Binary blocks hold exactly kMaxBlockRecords records (the last one fewer), whatever the chunking.
  void flush_binary_blocks(bool final) {
    std::size_t block_bytes = kMaxBlockRecords * kRecordSize;
    std::size_t used = 0;
    while (pending_binary_.size() - used >= block_bytes || (final && pending_binary_.size() > used)) {
      std::size_t n = std::min(block_bytes, pending_binary_.size() - used) / kRecordSize;
      append_block(buffer_, reinterpret_cast<const std::uint8_t*>(pending_binary_.data() + used), n);
      used += n * kRecordSize;
    }
    pending_binary_.erase(0, used);
  }

  bool flush(bool final, std::string& error) {
    constexpr std::size_t kFlushAt = 1 << 20;
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

  const Job& job_;
  AtomicOutput* out_;
  AtomicOutput* rejects_;
  Counts counts_;
  DedupSet distinct_;
  CountingDedupSet counting_;
  std::vector<std::uint8_t> is_new_;
  std::string kept_;
  std::vector<std::size_t> kept_ends_;
  std::string buffer_;
  std::string pending_binary_;
  std::string reject_buffer_;
};

}  // namespace

RunOutcome run_job(const Job& job) {
  RunOutcome outcome;
  auto start = std::chrono::steady_clock::now();
  auto fail = [&](std::string message) {
    outcome.exit_code = kExitUsageOrIo;
    outcome.error = std::move(message);
    return outcome;
  };

  std::string error;
  if (job.writes_positions() && job.to == OutputFormat::kBinary && job.output == "-" &&
      AtomicOutput::stdout_is_terminal())
    return fail("refusing to write binary output to a terminal (use -o FILE or a pipe)");
  std::unique_ptr<AtomicOutput> out = AtomicOutput::open(job.output, job.force, error);
  if (!out) return fail(error);
  std::unique_ptr<AtomicOutput> rejects;
  if (!job.rejects_path.empty()) {
    rejects = AtomicOutput::open(job.rejects_path, job.force, error);
    if (!rejects) return fail(error);
  }
  // Opened now, so an existing summary file stops the run before any work, not after it.
  std::unique_ptr<AtomicOutput> summary;
  if (!job.summary_path.empty()) {
    summary = AtomicOutput::open(job.summary_path, job.force, error);
    if (!summary) return fail(error);
  }

  int threads = job.threads > 0 ? job.threads : tbb::info::default_concurrency();
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  ChunkSource chunker(job);
  WorkPool pool;
  SourceFormats formats(job);
  Sink sink(job, out.get(), rejects.get());
  Progress progress(job.progress, job.inputs);
  std::string read_error, write_error;
  // The reader stage runs concurrently with the sink: it must not read write_error while the sink sets it.
  std::atomic<bool> write_failed{false};
  std::uint64_t bytes_in = 0;

  tbb::parallel_pipeline(
      static_cast<std::size_t>(threads) * 2 + 2,
      tbb::make_filter<void, Work*>(tbb::filter_mode::serial_in_order,
                                    [&](tbb::flow_control& fc) -> Work* {
                                      Work* w = pool.acquire();
                                      if (write_failed.load(std::memory_order_relaxed) || !chunker.next(w->chunk, read_error)) {
                                        pool.release(w);
                                        fc.stop();
                                        return nullptr;
                                      }
                                      if (!formats.resolve(w->chunk, w->source, read_error)) {
                                        pool.release(w);
                                        fc.stop();
                                        return nullptr;
                                      }
                                      return w;
                                    }) &
          tbb::make_filter<Work*, Work*>(tbb::filter_mode::parallel,
                                         [&](Work* w) {
                                           process_chunk(w->chunk.bytes, w->chunk.first_line, w->source, job,
                                                         w->result);
                                           return w;
                                         }) &
          tbb::make_filter<Work*, void>(tbb::filter_mode::serial_in_order, [&](Work* w) {
            bytes_in += w->chunk.bytes.size();
            if (write_error.empty() && !sink.consume(*w, write_error)) write_failed.store(true, std::memory_order_relaxed);
            progress.update(w->chunk.offset + w->chunk.bytes.size(), w->chunk.source_index, sink.counts().records);
            pool.release(w);
          }));
  progress.finish();

  if (!read_error.empty()) return fail(read_error);
  if (!write_error.empty()) return fail(write_error);
  outcome.counts = sink.counts();
  outcome.distinct = sink.distinct();
  outcome.bytes_in = bytes_in;
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (job.command == Command::kStats) {
    RunFacts facts{outcome.seconds, bytes_in, outcome.distinct};
    std::string text = stats_json(outcome.counts, facts);
    if (!out->write(text)) return fail(out->error());
  }
  if (!sink.finish(error)) return fail(error);
  if (summary && !summary->write(summary_json(outcome.counts, {outcome.seconds, bytes_in, outcome.distinct})))
    return fail(summary->error());
  // The positions first: a run that fails here leaves no summary claiming they were written.
  if (!out->commit(error) || (rejects && !rejects->commit(error)) || (summary && !summary->commit(error)))
    return fail(error);
  bool invalid = outcome.counts.invalid > 0;
  if (invalid && (job.command == Command::kValidate || job.fail_on_invalid)) outcome.exit_code = kExitDataProblem;
  return outcome;
}

}  // namespace fenmill
