#include "pipeline/run.h"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "formats/binary_file.h"
#include "formats/binary_record.h"
#include "formats/csv.h"
#include "io/atomic_output.h"
#include "io/range_fill.h"
#include "io/spill_file.h"
#include "pipeline/chunk_feed.h"
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
  std::string read_error;  // a range chunk that could not be read
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

// The serial, in-order end of the pipeline: dedup, write, rejects, counts.
class Sink {
 public:
  Sink(const Job& job, AtomicOutput* out, AtomicOutput* rejects) : job_(job), out_(out), rejects_(rejects) {
    if (job.to == OutputFormat::kBinary && job.writes_positions()) {
      bool xq = job.variant == Variant::kXiangqi;
      record_size_ = xq ? kXiangqiRecordSize : kRecordSize;
      append_header(buffer_, xq ? BinaryVariant::kXiangqi : BinaryVariant::kChess, static_cast<std::uint16_t>(record_size_));
    }
  }

  bool consume(const Work& w, std::string& error) {
    const ChunkResult& r = w.result;
    if (w.chunk.source_index != source_index_) {  // PGN game numbers and line numbers restart with each input
      source_index_ = w.chunk.source_index;
      games_in_source_ = 0;
      lines_in_source_ = 0;
    }
    // A range chunk's lines were numbered from 1: they follow the lines of the chunks before it.
    const std::uint64_t line_shift = w.chunk.range_end > 0 ? lines_in_source_ : 0;
    lines_in_source_ = w.chunk.range_end > 0 ? lines_in_source_ + w.chunk.line_count
                                             : w.chunk.first_line - 1 + w.chunk.line_count;
    std::uint64_t games_before = games_in_source_;
    games_in_source_ += r.counts.games;
    counts_.add(r.counts);
    buffer_.append(r.header);
    if (job_.command == Command::kStats) {
      is_new_.resize(r.keys.size());
      distinct_.insert_batch(r.keys.data(), r.keys.size(), is_new_.data());
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
      rej.game += games_before;  // chunk-local game numbers become input-wide (PGN)
      rej.line += line_shift;
      std::string_view input(r.reject_text.data() + rej.text_begin, rej.text_end - rej.text_begin);
      if (rejects_) append_reject_json(reject_buffer_, w.chunk.source_name, rej, input);
      if (!job_.html_path.empty() && reported_.size() < kMaxReportedRejects)
        reported_.push_back(ReportedReject{std::string(w.chunk.source_name), rej.line, rej.column,
                                           std::string(reject_code_name(rej)), reject_message(rej), std::string(input),
                                           rej.xiangqi});
      if (job_.command == Command::kValidate) {
        if (job_.json)
          append_reject_json(buffer_, w.chunk.source_name, rej, input);
        else
          append_reject_line(buffer_, w.chunk.source_name, rej);
      }
    }
    flush_binary_blocks(false);
    if (job_.count && !spill_kept(false, error)) return false;
    return flush(false, error);
  }

  bool finish(std::string& error) {
    if (job_.count && !write_counted(error)) return false;
    flush_binary_blocks(true);
    return flush(true, error);
  }

  const Counts& counts() const { return counts_; }
  std::vector<ReportedReject>& reported() { return reported_; }
  std::uint64_t distinct() const {
    return job_.count ? counting_.size() : distinct_.size();
  }

 private:
  void dedup_chunk(const ChunkResult& r) {
    const bool binary = job_.to == OutputFormat::kBinary;
    is_new_.resize(r.keys.size());
    if (job_.count)
      counting_.insert_batch(r.keys.data(), r.keys.size(), is_new_.data());
    else
      distinct_.insert_batch(r.keys.data(), r.keys.size(), is_new_.data());
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
  }

  // --count: the kept records wait in a temporary file until the counts are known (they can be far larger
  // than memory); then every distinct record is written with its number of occurrences, tab-separated, in
  // first-seen order.
  bool spill_kept(bool final, std::string& error) {
    if (kept_.size() < kFlushAt && !final) return true;
    if (!spill_) {
      spill_ = SpillFile::create(out_->scratch_directory(), error);
      if (!spill_) return false;
    }
    if (!spill_->append(kept_)) return (error = spill_->error()), false;
    kept_.clear();
    return true;
  }
  bool write_counted(std::string& error) {
    if (counting_.size() == 0) return true;
    if (!spill_kept(true, error)) return false;
    const std::vector<std::uint64_t> counts = counting_.counts_in_first_seen_order();
    std::size_t ordinal = 0;
    bool write_failed = false;
    bool read = spill_->for_each_line([&](std::string_view record) {
      if (write_failed || ordinal == counts.size()) return (void)++ordinal;  // (more lines than keys: reported below)
      buffer_.append(record);
      char digits[24];
      digits[0] = '\t';
      char* end = std::to_chars(digits + 1, digits + sizeof digits - 1, counts[ordinal++]).ptr;
      *end++ = '\n';
      buffer_.append(digits, static_cast<std::size_t>(end - digits));
      if (buffer_.size() < kFlushAt) return;
      write_failed = !out_->write(buffer_);
      buffer_.clear();
    });
    if (write_failed) return (error = out_->error()), false;
    if (!read) return (error = spill_->error()), false;
    if (ordinal != counts.size())
      return (error = "temporary file: " + std::to_string(ordinal) + " records read back for " +
                      std::to_string(counts.size()) + " distinct positions"), false;
    return true;
  }

  // Binary blocks hold exactly kMaxBlockRecords records (the last one fewer), whatever the chunking.
  void flush_binary_blocks(bool final) {
    std::size_t block_bytes = kMaxBlockRecords * record_size_;
    std::size_t used = 0;
    while (pending_binary_.size() - used >= block_bytes || (final && pending_binary_.size() > used)) {
      std::size_t n = std::min(block_bytes, pending_binary_.size() - used) / record_size_;
      append_block(buffer_, reinterpret_cast<const std::uint8_t*>(pending_binary_.data() + used), n, record_size_);
      used += n * record_size_;
    }
    pending_binary_.erase(0, used);
  }

  void write_direct(std::string_view bytes) {
    if (!out_->write(bytes)) direct_failed_ = true;
  }

  bool flush(bool final, std::string& error) {
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

  const Job& job_;
  AtomicOutput* out_;
  AtomicOutput* rejects_;
  Counts counts_;
  DedupSet distinct_;
  CountingDedupSet counting_;
  std::vector<std::uint8_t> is_new_;
  bool direct_failed_ = false;
  std::vector<ReportedReject> reported_;
  std::size_t record_size_ = kRecordSize;
  std::uint32_t source_index_ = 0;
  std::uint64_t games_in_source_ = 0;
  std::uint64_t lines_in_source_ = 0;
  static constexpr std::size_t kFlushAt = 1 << 20;
  std::string kept_;                   // --count: kept records on their way to spill_
  std::unique_ptr<SpillFile> spill_;
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
  std::unique_ptr<AtomicOutput> out = AtomicOutput::open(job.output, job.force, error);
  if (!out) return fail(error);
  if (job.writes_positions() && job.to == OutputFormat::kBinary && out->is_terminal())
    return fail("refusing to write binary output to a terminal (use -o FILE or a pipe)");
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
  ChunkFeed chunker(job);
  WorkPool pool;
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
                                      if (write_failed.load(std::memory_order_relaxed) ||
                                          !chunker.next(w->chunk, w->source, read_error)) {
                                        pool.release(w);
                                        fc.stop();
                                        return nullptr;
                                      }
                                      return w;
                                    }) &
          tbb::make_filter<Work*, Work*>(tbb::filter_mode::parallel,
                                         [&](Work* w) {
                                           w->read_error.clear();
                                           if (w->chunk.range_end > 0 && !fill_range(w->chunk, w->read_error)) {
                                             w->result.clear();
                                             return w;
                                           }
                                           // A range chunk numbers its lines from 1; the sink adds the lines before it.
                                           std::uint64_t first_line = w->chunk.range_end > 0 ? 1 : w->chunk.first_line;
                                           process_chunk(w->chunk.bytes, first_line, w->source, job, w->result);
                                           if (w->chunk.range_end > 0) w->chunk.line_count = w->result.lines;
                                           return w;
                                         }) &
          tbb::make_filter<Work*, void>(tbb::filter_mode::serial_in_order, [&](Work* w) {
            bytes_in += w->chunk.bytes.size();
            if (!w->read_error.empty() && write_error.empty()) {
              write_error = w->read_error;
              write_failed.store(true, std::memory_order_relaxed);
            }
            if (write_error.empty() && !sink.consume(*w, write_error)) write_failed.store(true, std::memory_order_relaxed);
            progress.update(w->chunk.offset + w->chunk.bytes.size(), w->chunk.source_index, sink.counts().records);
            pool.release(w);
          }));
  progress.finish();

  if (!read_error.empty()) return fail(read_error);
  if (!write_error.empty()) return fail(write_error);
  outcome.counts = sink.counts();
  outcome.reported = std::move(sink.reported());
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
