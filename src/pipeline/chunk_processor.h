// The parallel stage: one chunk of lines in, normalized output bytes, dedup keys, rejects and
// counts out. Pure function of its input, so any thread may run it and results stay deterministic.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/keys.h"
#include "pipeline/counts.h"
#include "pipeline/job.h"

namespace fenmill {

struct Reject {
  std::uint64_t line;
  std::uint32_t column;
  ErrorCode code;
  std::uint8_t hints;
  Bitboard squares;
  std::uint32_t text_begin, text_end;  // the original line, in ChunkResult::reject_text
};

struct ChunkResult {
  std::string out;                  // written records in input order (text, or 32-byte binary records)
  std::vector<std::uint32_t> ends;  // end offset in `out` of each record (dedup, text formats)
  std::vector<Key128> keys;         // one dedup key per record (dedup and stats)
  std::vector<Reject> rejects;
  std::string reject_text;
  Counts counts;
  void clear();
};

// Processes every line of `bytes`; the first line has number `first_line`. Chooses EPD parsing
// (operations allowed and kept) when `epd_input` is set.
void process_chunk(std::string_view bytes, std::uint64_t first_line, bool epd_input, const Job& job,
                   ChunkResult& result);

KeyLevel key_level(DedupLevel level);

}  // namespace fenmill
