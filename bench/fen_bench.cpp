// Micro-benchmarks of the FEN core, one stage at a time, on real positions (see corpus.h).
// Every iteration runs the stage over the whole corpus; items/s = positions/s, bytes/s = input
// bytes/s (output bytes/s for the writers). BM_SplitLines is the floor: it only finds the line ends.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "core/keys.h"
#include "corpus.h"
#include "fen/normalize.h"
#include "fen/parse.h"
#include "fen/validate.h"
#include "fen/write.h"
#include "formats/binary_record.h"

namespace fenmill::bench {
namespace {

// The corpus parsed and normalized once, for the stages that start from a Position.
const std::vector<Position>& parsed_positions() {
  static const std::vector<Position> positions = [] {
    std::vector<Position> out;
    out.reserve(corpus().lines.size());
    Position pos;
    for (std::string_view line : corpus().lines)
      if (normalize_fen(line, pos).ok()) out.push_back(pos);
    return out;
  }();
  return positions;
}

void report_input(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * corpus().lines.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * corpus().text.size()));
  state.SetLabel(std::to_string(corpus().lines.size()) + " positions");
}

// A chunk-sized output buffer, reused like a pipeline's output chunk.
struct OutputBuffer {
  std::vector<char> bytes = std::vector<char>(1 << 20);
  std::size_t used = 0;
  char* reserve() {
    if (used + kMaxFenLength + 1 > bytes.size()) used = 0;
    return bytes.data() + used;
  }
};

void BM_SplitLines(benchmark::State& state) {
  const std::string& text = corpus().text;  // loaded here, before the timed loop
  for (auto _ : state) {
    std::size_t lines = 0;
    const char* p = text.data();
    const char* end = p + text.size();
    while (const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))) {
      ++lines;
      p = nl + 1;
    }
    benchmark::DoNotOptimize(lines);
  }
  report_input(state);
}
BENCHMARK(BM_SplitLines)->Unit(benchmark::kMillisecond);

void BM_Parse(benchmark::State& state) {
  const std::vector<std::string_view>& lines = corpus().lines;
  Position pos;
  for (auto _ : state) {
    std::uint64_t checksum = 0;
    for (std::string_view line : lines) {
      ParseResult r = parse_fen(line, pos);
      checksum += pos.occupied() + static_cast<unsigned>(r.code);
    }
    benchmark::DoNotOptimize(checksum);
  }
  report_input(state);
}
BENCHMARK(BM_Parse)->Unit(benchmark::kMillisecond);

void BM_Validate(benchmark::State& state) {
  std::vector<Position> positions = parsed_positions();  // validate() takes a mutable Position
  for (auto _ : state) {
    unsigned rejected = 0;
    for (Position& pos : positions) rejected += !validate(pos).ok();
    benchmark::DoNotOptimize(rejected);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * positions.size()));
}
BENCHMARK(BM_Validate)->Unit(benchmark::kMillisecond);

void BM_ParseValidateNormalize(benchmark::State& state) {
  const std::vector<std::string_view>& lines = corpus().lines;
  Position pos;
  for (auto _ : state) {
    unsigned rejected = 0;
    for (std::string_view line : lines) rejected += !normalize_fen(line, pos).ok();
    benchmark::DoNotOptimize(rejected);
  }
  report_input(state);
}
BENCHMARK(BM_ParseValidateNormalize)->Unit(benchmark::kMillisecond);

// The whole per-position path of `fenmill normalize`: text in, checked canonical FEN text out. Arg 1: the
// writer copies the placement the parser vouched for, as the pipeline does; arg 0: it rebuilds it.
void BM_ParseValidateNormalizeWrite(benchmark::State& state) {
  const std::vector<std::string_view>& lines = corpus().lines;
  const bool copy_placement = state.range(0) != 0;
  Position pos;
  OutputBuffer out;
  for (auto _ : state) {
    unsigned rejected = 0;
    for (std::string_view line : lines) {
      NormalizeResult r = normalize_fen(line, pos);
      if (!r.ok()) {
        ++rejected;
        continue;
      }
      char* p = out.reserve();
      std::string_view placement = copy_placement ? line.substr(0, r.placement_length) : std::string_view{};
      std::size_t n = write_fen(pos, p, CastlingNotation::kXFen, placement);
      p[n] = '\n';
      out.used += n + 1;
    }
    benchmark::DoNotOptimize(rejected);
    benchmark::DoNotOptimize(out.bytes.data());
    benchmark::ClobberMemory();
  }
  report_input(state);
}
BENCHMARK(BM_ParseValidateNormalizeWrite)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_WriteFen(benchmark::State& state) {
  const std::vector<Position>& positions = parsed_positions();
  OutputBuffer out;
  std::size_t written = 0;
  for (auto _ : state) {
    for (const Position& pos : positions) {
      char* p = out.reserve();
      std::size_t n = write_fen(pos, p);
      p[n] = '\n';
      out.used += n + 1;
      written += n + 1;
    }
    benchmark::DoNotOptimize(out.bytes.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * positions.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(written));
}
BENCHMARK(BM_WriteFen)->Unit(benchmark::kMillisecond);

void BM_PolyglotKey(benchmark::State& state) {
  const std::vector<Position>& positions = parsed_positions();
  for (auto _ : state) {
    std::uint64_t checksum = 0;
    for (const Position& pos : positions) checksum ^= polyglot_key(pos);
    benchmark::DoNotOptimize(checksum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * positions.size()));
}
BENCHMARK(BM_PolyglotKey)->Unit(benchmark::kMillisecond);

// The default dedup level; the others hash the same 48-byte summary with fields zeroed.
void BM_DedupKey(benchmark::State& state) {
  const std::vector<Position>& positions = parsed_positions();
  for (auto _ : state) {
    std::uint64_t checksum = 0;
    for (const Position& pos : positions) checksum ^= dedup_key(pos, KeyLevel::kPosition).lo;
    benchmark::DoNotOptimize(checksum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * positions.size()));
}
BENCHMARK(BM_DedupKey)->Unit(benchmark::kMillisecond);

void BM_EncodeRecord(benchmark::State& state) {
  const std::vector<Position>& positions = parsed_positions();
  std::vector<std::uint8_t> out(std::size_t{1} << 20);
  for (auto _ : state) {
    std::size_t used = 0;
    for (const Position& pos : positions) {
      if (used + kRecordSize > out.size()) used = 0;
      encode_record(pos, out.data() + used);
      used += kRecordSize;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * positions.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * positions.size() * kRecordSize));
}
BENCHMARK(BM_EncodeRecord)->Unit(benchmark::kMillisecond);

void BM_DecodeRecord(benchmark::State& state) {
  const std::vector<Position>& positions = parsed_positions();
  std::vector<std::uint8_t> records(positions.size() * kRecordSize);
  for (std::size_t i = 0; i < positions.size(); ++i) encode_record(positions[i], records.data() + i * kRecordSize);
  Position pos;
  for (auto _ : state) {
    unsigned rejected = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) rejected += !decode_record(records.data() + i * kRecordSize, pos);
    benchmark::DoNotOptimize(rejected);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * positions.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * records.size()));
}
BENCHMARK(BM_DecodeRecord)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fenmill::bench
