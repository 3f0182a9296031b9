// What `fenmill dedup` must add to `normalize` at the least, on a real FEN file, in a fresh process: the dedup key of
// every valid record (default level, legal ep) and their inserts into a fresh DedupSet, in batches of one 2 MiB
// chunk's records as the pipeline's sink makes them. Parsing is not timed; the key and the table are, separately,
// in CPU time of this one thread (page faults included: a fresh table's first touches are part of dedup's cost).
// scripts/bench.sh sets these against normalize's CPU time: if key + table alone exceed 25 % of it, no pipeline
// built on one hash set can bring dedup within 1.25x of normalize on this machine (docs/PERFORMANCE.md).
//
// Usage: fenmill_dedup_floor FILE.fen   prints: records valid distinct key_seconds table_seconds table_bytes
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#include <cstdio>
#include <string_view>
#include <vector>

#include "core/keys.h"
#include "fen/normalize.h"
#include "pipeline/dedup_set.h"
#include "pipeline/job.h"

namespace {

double thread_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fenmill;
  if (argc != 2) return std::fprintf(stderr, "usage: fenmill_dedup_floor FILE.fen\n"), 2;
  // Mapped, as fenmill maps it: read into memory, the file's copy would be fresh memory too.
  const int fd = open(argv[1], O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) return std::fprintf(stderr, "fenmill_dedup_floor: cannot read %s\n", argv[1]), 2;
  const auto size = static_cast<std::size_t>(st.st_size);
  void* map = size ? mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
  if (map == MAP_FAILED) return std::fprintf(stderr, "fenmill_dedup_floor: cannot map %s\n", argv[1]), 2;
  const std::string_view text(static_cast<const char*>(map), size);

  const std::size_t chunk_bytes = Job{}.chunk_size;  // the pipeline's default chunk
  std::vector<Position> positions;
  std::vector<DedupKey> keys;
  std::vector<std::uint8_t> is_new;
  DedupSet set;
  std::size_t records = 0, valid = 0;
  double key_seconds = 0, table_seconds = 0;
  for (std::size_t at = 0; at < text.size();) {
    // One chunk's valid positions (untimed), then their keys, then their inserts.
    positions.clear();
    const std::size_t chunk_end = at + chunk_bytes < text.size() ? at + chunk_bytes : text.size();
    while (at < chunk_end) {
      std::size_t eol = text.find('\n', at);
      if (eol == std::string_view::npos) eol = text.size();
      std::string_view line(text.data() + at, eol - at);
      at = eol + 1;
      if (line.empty()) continue;
      ++records;
      Position pos;
      if (normalize_fen(line, pos).ok()) positions.push_back(pos);
    }
    valid += positions.size();
    keys.resize(positions.size());
    is_new.resize(positions.size());
    const double t0 = thread_seconds();
    for (std::size_t i = 0; i < positions.size(); ++i) keys[i] = dedup_key(positions[i], KeyLevel::kPosition);
    const double t1 = thread_seconds();
    set.insert_batch(keys.data(), keys.size(), is_new.data());
    const double t2 = thread_seconds();
    key_seconds += t1 - t0;
    table_seconds += t2 - t1;
  }
  std::printf("%zu %zu %zu %.4f %.4f %zu\n", records, valid, set.size(), key_seconds, table_seconds, set.bytes());
  return 0;
}
