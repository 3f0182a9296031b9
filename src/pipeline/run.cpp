#include "pipeline/run.h"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <vector>

#include "io/atomic_output.h"
#include "io/range_fill.h"
#include "pipeline/chunk_feed.h"
#include "pipeline/chunk_processor.h"
#include "pipeline/preflight.h"
#include "pipeline/progress.h"
#include "pipeline/report.h"
#include "pipeline/sink.h"

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

}  // namespace

RunOutcome run_job(const Job& job, const HtmlReport& html_report) {
  RunOutcome outcome;
  auto start = std::chrono::steady_clock::now();
  auto fail = [&](std::string message) {
    outcome.exit_code = kExitUsageOrIo;
    outcome.error = std::move(message);
    return outcome;
  };

  std::string error = preflight_error(job);
  if (!error.empty()) return fail(error);
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
  std::unique_ptr<AtomicOutput> html;
  if (!job.html_path.empty() && html_report) {
    html = AtomicOutput::open(job.html_path, job.force, error);
    if (!html) return fail(error);
  }

  int threads = job.threads > 0 ? job.threads : tbb::info::default_concurrency();
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  ChunkFeed chunker(job);
  WorkPool pool;
  Sink sink(job, out.get(), rejects.get());
  // Left to itself (stderr a terminal), progress stays off when the positions or the rejects go to a terminal as
  // they are written: on a shared screen each line written would land after the progress line's text. (stats writes
  // its report after the progress line has ended.)
  const bool written_to_terminal =
      (job.command != Command::kStats && out->is_terminal()) || (rejects && rejects->is_terminal());
  Progress progress(job.progress == -1 && written_to_terminal ? 0 : job.progress, job.inputs);
  std::string read_error, write_error;
  // The reader stage runs concurrently with the sink: it must not read write_error while the sink sets it.
  std::atomic<bool> write_failed{false};
  std::uint64_t bytes_in = 0;
  std::uint32_t failed_source = UINT32_MAX;  // the input of the chunk the sink stage failed on

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
                                           // Lines are numbered from 1 in each chunk; the sink adds the lines before it.
                                           process_chunk(w->chunk.bytes, w->chunk.starts_input, w->source, job, w->result,
                                                         w->chunk.too_large_game_lines);
                                           return w;
                                         }) &
          tbb::make_filter<Work*, void>(tbb::filter_mode::serial_in_order, [&](Work* w) {
            bytes_in += w->chunk.bytes.size() + w->chunk.skipped;
            bool failed = !w->read_error.empty() && write_error.empty();
            if (failed)
              write_error = w->read_error;
            else if (write_error.empty() && !sink.consume(w->chunk, w->result, write_error))
              failed = true;
            if (failed) {
              failed_source = w->chunk.source_index;
              write_failed.store(true, std::memory_order_relaxed);
            }
            progress.update(w->chunk.offset + w->chunk.bytes.size() + w->chunk.skipped, w->chunk.source_index,
                            sink.counts().records);
            if (w->chunk.source) w->chunk.source->release(w->chunk.bytes);
            pool.release(w);
          }));
  progress.finish();
  // Said even under -q and when the run failed: a first record taken for a header must never be lost unseen. When
  // the sink stage stopped the run, only up to its input: how far the reader stage had gone on depends on
  // --threads and --chunk-size.
  for (const ChunkFeed::Note& note : chunker.notes())
    if (note.source_index <= failed_source) std::fprintf(stderr, "fenmill: note: %s\n", one_line(note.text).c_str());
  // (Not when nothing was read: an empty input's format, with nothing to sniff, says nothing of what was meant.)
  if (bytes_in > 0 && !chunker.has_input(InputFormat::kPgn) && job.pgn_options_given())
    std::fprintf(stderr, "fenmill: warning: --with-tags, --plies, --every and --variations apply to PGN input, and no input was PGN\n");
  if (bytes_in > 0 && !chunker.has_input(InputFormat::kCsv) && (!job.fen_column.empty() || job.csv_header != Job::CsvHeader::kAuto))
    std::fprintf(stderr, "fenmill: warning: --fen-column and --csv-header apply to CSV input, and no input was CSV\n");

  // The sink stage's error first: it is about an earlier input or chunk than any the reader stage failed on, and
  // whether the reader stage got that far before the sink stopped it depends on --threads and --chunk-size.
  if (!write_error.empty()) return fail(write_error);
  if (!read_error.empty()) return fail(read_error);
  if (std::uint64_t n = sink.counts().operations_dropped; n > 0 && !job.quiet)
    std::fprintf(stderr, "fenmill: warning: %llu EPD record%s had operations (bm, id, c0, ...) that %s output cannot hold: "
                 "they were left out; --to epd keeps them\n", static_cast<unsigned long long>(n), n == 1 ? "" : "s",
                 job.to == OutputFormat::kBinary ? "binary" : "FEN");
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
  // Every output written out and closed before any is published, so a write error in one (a full disk, a quota
  // met at close) leaves none under its final name. Then the positions first: a rename failing after that leaves
  // no summary claiming they were written.
  if (html && !html->write(html_report(outcome))) return fail(html->error());
  const std::vector<AtomicOutput*> outputs = {out.get(), rejects.get(), summary.get(), html.get()};
  for (AtomicOutput* o : outputs)
    if (o && !o->prepare(error)) return fail(error);
  for (AtomicOutput* o : outputs)
    if (o && !o->commit(error)) return fail(error);
  bool invalid = outcome.counts.invalid > 0;
  if (invalid && (job.command == Command::kValidate || job.fail_on_invalid)) outcome.exit_code = kExitDataProblem;
  return outcome;
}

}  // namespace fenmill
