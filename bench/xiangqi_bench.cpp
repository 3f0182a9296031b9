// Xiangqi micro-benchmarks beside the chess ones: parse + validate, + write, key, record, on the real puzzle
// positions (../shared/data/xiangqi/wukong/puzzles_verified.fen, else the committed tests/data/xiangqi_sample.fen).
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "xiangqi/keys.h"
#include "xiangqi/normalize.h"
#include "xiangqi/record.h"

namespace {

using namespace fenmill;

struct XiangqiCorpus {
  std::string text;
  std::vector<std::string_view> lines;
  std::size_t bytes = 0;
};

const XiangqiCorpus& corpus() {
  static XiangqiCorpus c = [] {
    XiangqiCorpus x;
    for (std::string path : {std::string(FENMILL_SHARED_DATA) + "/xiangqi/wukong/puzzles_verified.fen",
                             std::string(FENMILL_SOURCE_DIR) + "/tests/data/xiangqi_sample.fen"}) {
      std::ifstream in(path, std::ios::binary);
      if (!in) continue;
      std::stringstream s;
      s << in.rdbuf();
      x.text = s.str();
      break;
    }
    for (std::size_t at = 0; at < x.text.size();) {
      std::size_t nl = x.text.find('\n', at);
      if (nl == std::string::npos) nl = x.text.size();
      if (nl > at) {
        x.lines.emplace_back(x.text.data() + at, nl - at);
        x.bytes += nl - at;
      }
      at = nl + 1;
    }
    return x;
  }();
  return c;
}

void report(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * corpus().lines.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * corpus().bytes));
}

void BM_XiangqiParseValidate(benchmark::State& state) {
  xiangqi::Position pos;
  for (auto _ : state)
    for (std::string_view line : corpus().lines) benchmark::DoNotOptimize(xiangqi::normalize_fen(line, pos).code);
  report(state);
}
BENCHMARK(BM_XiangqiParseValidate);

void BM_XiangqiParseValidateWrite(benchmark::State& state) {
  xiangqi::Position pos;
  char buf[xiangqi::kMaxFenLength];
  for (auto _ : state)
    for (std::string_view line : corpus().lines)
      if (xiangqi::normalize_fen(line, pos).ok()) benchmark::DoNotOptimize(xiangqi::write_fen(pos, buf));
  report(state);
}
BENCHMARK(BM_XiangqiParseValidateWrite);

void BM_XiangqiKeyAndRecord(benchmark::State& state) {
  std::vector<xiangqi::Position> positions;
  for (std::string_view line : corpus().lines) {
    xiangqi::Position pos;
    if (xiangqi::normalize_fen(line, pos).ok()) positions.push_back(pos);
  }
  std::uint8_t record[xiangqi::kRecordSize];
  for (auto _ : state)
    for (const xiangqi::Position& pos : positions) {
      benchmark::DoNotOptimize(xiangqi::dedup_key(pos, KeyLevel::kPosition));
      xiangqi::encode_record(pos, record);
      benchmark::DoNotOptimize(record);
    }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * positions.size()));
}
BENCHMARK(BM_XiangqiKeyAndRecord);

}  // namespace
