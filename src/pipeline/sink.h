// The serial, in-order end of the pipeline: dedup, write, rejects, counts. It sees every chunk's results in
// input order, so first occurrences, line numbers and output order do not depend on threads or chunk sizes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/binary_record.h"
#include "formats/jsonl.h"
#include "io/atomic_output.h"
#include "io/chunk.h"
#include "io/spill_file.h"
#include "pipeline/chunk_processor.h"
#include "pipeline/counts.h"
#include "pipeline/counting_dedup_set.h"
#include "pipeline/dedup_set.h"
#include "pipeline/job.h"
#include "pipeline/run.h"

namespace fenmill {

class Sink {
 public:
  Sink(const Job& job, AtomicOutput* out, AtomicOutput* rejects);

  // One chunk's results, in input order.
  bool consume(const Chunk& chunk, const ChunkResult& r, std::string& error);

  // After the last chunk: what waited for the end (--count, the last binary block), then everything flushed.
  bool finish(std::string& error);

  const Counts& counts() const { return counts_; }
  std::vector<ReportedReject>& reported() { return reported_; }
  std::uint64_t distinct() const;

 private:
  void dedup_chunk(const ChunkResult& r);

  // --count: the kept records wait in a temporary file until the counts are known (they can be far larger
  // than memory); then every distinct record is written with its number of occurrences, tab-separated, in
  // first-seen order.
  bool spill_kept(bool final, std::string& error);
  bool write_counted(std::string& error);
  void append_counted(std::string& out, std::string_view record, std::string_view count);

  // The output is a binary file: header, blocks, end block.
  bool writes_binary() const { return job_.to == OutputFormat::kBinary && job_.writes_positions(); }
  // Binary blocks hold exactly kMaxBlockRecords records (the last one fewer), whatever the chunking.
  void flush_binary_blocks(bool final);
  void write_direct(std::string_view bytes);
  bool flush(bool final, std::string& error);

  const Job& job_;
  AtomicOutput* out_;
  AtomicOutput* rejects_;
  Counts counts_;
  // Made only for the runs that use them (each maps its table at once): stats and plain dedup, dedup --count.
  std::optional<DedupSet> distinct_;
  std::optional<CountingDedupSet> counting_;
  std::vector<std::uint8_t> is_new_;
  bool direct_failed_ = false;
  std::vector<ReportedReject> reported_;
  std::size_t record_size_ = kRecordSize;
  std::uint32_t source_index_ = 0;
  std::uint64_t games_in_source_ = 0;
  std::uint64_t lines_in_source_ = 0;
  static constexpr std::size_t kFlushAt = 1 << 20;
  char csv_separator_ = ',';           // --count --to csv: the separator of the header's input
  std::vector<int> csv_count_columns_;  // --count --to csv: the header's own count columns, or the one added
  bool csv_count_column_added_ = false;
  // --to csv writes one header, first: the input whose rows went out before any header, which a later header
  // would land under.
  bool csv_header_written_ = false;
  std::string headerless_rows_source_;
  std::vector<int> count_column_;       // where one record's count goes, reused
  JsonlFieldFinder count_finder_;      // --count --to jsonl: finds a record's own "count" keys
  std::vector<JsonlFieldFinder::Span> count_spans_;  // where they are, reused
  std::string kept_;                   // --count: kept records on their way to spill_
  std::unique_ptr<SpillFile> spill_;
  std::string buffer_;
  std::string pending_binary_;
  std::uint64_t binary_records_ = 0;   // records in the binary blocks so far, for the end block
  std::string reject_buffer_;
};

}  // namespace fenmill
