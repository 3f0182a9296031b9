// The dedup table alone: 8 M keys, one in three a repeat of an earlier key (about the bench corpus's
// duplicate rate), inserted in 16 k-key batches as the pipeline's sink does. BM_DedupInsertGrowing starts
// from the default table and grows like a real run; BM_DedupInsertPresized has the table sized (not
// touched: first touches of fresh pages are part of its cost). BM_DedupLookupWarm inserts the same keys
// again into the full table (all repeats, memory already touched), and BM_RandomReadFloor does only the
// memory part of that: one prefetched read of a random slot per key in a table of the same size, the floor
// any table with one cache miss per key pays on this machine. items/s = keys/s.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "pipeline/dedup_set.h"
#include "pipeline/huge_table.h"

namespace fenmill::bench {
namespace {

constexpr std::size_t kKeys = std::size_t{8} << 20;
constexpr std::size_t kBatch = 16 << 10;

const std::vector<DedupKey>& keys_with_repeats() {
  static const std::vector<DedupKey> keys = [] {
    std::mt19937_64 rng(42);
    std::vector<DedupKey> out;
    out.reserve(kKeys);
    for (std::size_t i = 0; i < kKeys; ++i) {
      if (i > 0 && rng() % 3 == 0)
        out.push_back(out[rng() % i]);
      else
        out.push_back(DedupKey{rng(), rng()});
    }
    return out;
  }();
  return keys;
}

std::size_t insert_all(DedupSet& set, const std::vector<DedupKey>& keys, std::vector<std::uint8_t>& is_new) {
  std::size_t fresh = 0;
  for (std::size_t at = 0; at < keys.size(); at += kBatch) {
    std::size_t n = std::min(kBatch, keys.size() - at);
    set.insert_batch(keys.data() + at, n, is_new.data());
    for (std::size_t i = 0; i < n; ++i) fresh += is_new[i];
  }
  return fresh;
}

void BM_DedupInsertGrowing(benchmark::State& state) {
  const std::vector<DedupKey>& keys = keys_with_repeats();
  std::vector<std::uint8_t> is_new(kBatch);
  for (auto _ : state) {
    DedupSet set;
    benchmark::DoNotOptimize(insert_all(set, keys, is_new));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * keys.size()));
}
BENCHMARK(BM_DedupInsertGrowing)->Unit(benchmark::kMillisecond);

void BM_DedupInsertPresized(benchmark::State& state) {
  const std::vector<DedupKey>& keys = keys_with_repeats();
  std::vector<std::uint8_t> is_new(kBatch);
  for (auto _ : state) {
    state.PauseTiming();
    DedupSet set(kKeys);  // the size growth ends at: Growing minus Presized is what growing costs
    state.ResumeTiming();
    benchmark::DoNotOptimize(insert_all(set, keys, is_new));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * keys.size()));
}
BENCHMARK(BM_DedupInsertPresized)->Unit(benchmark::kMillisecond);

void BM_DedupLookupWarm(benchmark::State& state) {
  const std::vector<DedupKey>& keys = keys_with_repeats();
  std::vector<std::uint8_t> is_new(kBatch);
  DedupSet set;
  insert_all(set, keys, is_new);
  for (auto _ : state) benchmark::DoNotOptimize(insert_all(set, keys, is_new));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * keys.size()));
  state.counters["slots"] = static_cast<double>(set.bytes() / sizeof(std::uint64_t));
}
BENCHMARK(BM_DedupLookupWarm)->Unit(benchmark::kMillisecond);

void BM_RandomReadFloor(benchmark::State& state) {
  const std::vector<DedupKey>& keys = keys_with_repeats();
  DedupSet sized;  // the slot count the keys grow the real table to
  std::vector<std::uint8_t> is_new(kBatch);
  insert_all(sized, keys, is_new);
  const std::size_t slots = sized.bytes() / sizeof(std::uint64_t);
  HugeTable<std::uint64_t> table(slots);
  for (std::size_t i = 0; i < slots; ++i) table[i] = i | 1;  // touched, so no page faults are timed
  const std::size_t mask = slots - 1;
  constexpr std::size_t kAhead = 16;
  for (auto _ : state) {
    std::size_t hits = 0;
    for (std::size_t at = 0; at < keys.size(); at += kBatch) {
      const std::size_t n = std::min(kBatch, keys.size() - at);
      const DedupKey* k = keys.data() + at;
      for (std::size_t i = 0; i < n; ++i) {
        if (i + kAhead < n) __builtin_prefetch(&table[k[i + kAhead].lo & mask]);
        is_new[i] = table[k[i].lo & mask] == k[i].hi;
      }
      for (std::size_t i = 0; i < n; ++i) hits += is_new[i];
    }
    benchmark::DoNotOptimize(hits);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * keys.size()));
}
BENCHMARK(BM_RandomReadFloor)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fenmill::bench
