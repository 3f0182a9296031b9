// The benchmark corpus: real FEN lines loaded once, pre-split into string_views over one buffer,
// so a benchmark times only its own stage.
//
// Source, first that exists:
//   $FENMILL_BENCH_INPUT                          (any FEN-per-line file, .zst or plain)
//   FENMILL_SHARED_DATA/bench/lichess-2m.fen.zst  (2 M lichess positions, the reference corpus)
//   bench/data/lichess-20k.fen                    (the committed sample: its first 20,000 lines)
#pragma once
#include <zstd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace fenmill::bench {

struct Corpus {
  std::string source;                  // where the lines came from
  std::string text;                    // the whole file, decompressed
  std::vector<std::string_view> lines;  // one per non-empty line, without the LF
  std::size_t line_bytes = 0;           // sum of the line lengths (what a parser reads)
};

inline bool read_file(const std::filesystem::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

inline bool decompress_zstd(const std::string& compressed, std::string& out) {
  ZSTD_DStream* stream = ZSTD_createDStream();
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  std::vector<char> chunk(ZSTD_DStreamOutSize());
  std::size_t last = 0;
  while (in.pos < in.size) {
    ZSTD_outBuffer o{chunk.data(), chunk.size(), 0};
    last = ZSTD_decompressStream(stream, &o, &in);
    if (ZSTD_isError(last)) break;
    out.append(chunk.data(), o.pos);
  }
  ZSTD_freeDStream(stream);
  return !ZSTD_isError(last) && last == 0;
}

inline bool load_text(const std::filesystem::path& path, std::string& out) {
  std::string raw;
  if (!read_file(path, raw)) return false;
  if (path.extension() != ".zst") {
    out = std::move(raw);
    return true;
  }
  return decompress_zstd(raw, out);
}

inline Corpus load_corpus() {
  Corpus c;
  std::vector<std::filesystem::path> candidates;
  if (const char* env = std::getenv("FENMILL_BENCH_INPUT")) candidates.emplace_back(env);
  candidates.emplace_back(std::filesystem::path(FENMILL_SHARED_DATA) / "bench" / "lichess-2m.fen.zst");
  candidates.emplace_back(std::filesystem::path(__FILE__).parent_path() / "data" / "lichess-20k.fen");
  for (const auto& path : candidates)
    if (std::filesystem::exists(path) && load_text(path, c.text)) {
      c.source = path.lexically_normal().string();
      break;
    }
  if (c.source.empty()) {
    std::fprintf(stderr, "fenmill_bench: no corpus found (set FENMILL_BENCH_INPUT)\n");
    std::exit(2);
  }
  const char* p = c.text.data();
  const char* end = p + c.text.size();
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (!nl) nl = end;
    if (nl > p) {
      c.lines.emplace_back(p, static_cast<std::size_t>(nl - p));
      c.line_bytes += static_cast<std::size_t>(nl - p);
    }
    p = nl + 1;
  }
  return c;
}

// Loaded on first use, shared by every benchmark in the binary.
inline const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus loaded = load_corpus();
    std::fprintf(stderr, "corpus: %zu positions, %zu bytes from %s\n", loaded.lines.size(), loaded.text.size(),
                 loaded.source.c_str());
    return loaded;
  }();
  return c;
}

}  // namespace fenmill::bench
