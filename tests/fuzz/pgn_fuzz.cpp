// libFuzzer target: PGN replay (pgn/game_reader.h) on arbitrary bytes, main line only and with variations.
// Invariants: no crash or UB (sanitizers); every reported position passes validation and survives a FEN round
// trip; and cutting the input where PgnChunkCutter says as the chunk feed drives it (reads appended to a carry),
// then replaying the pieces on their own, reports the same positions and errors at the same lines; so does
// cutting it after a game end that find_last_game_end found in a prefix of it (PGN without tags); and reading past a
// game too large to read (PgnGameSkip), fed the text in reads, ends at the first line start from its offset on where
// find_last_game_end would cut (the reader starts the next game there), which replays the same too.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fen/normalize.h"
#include "fen/validate.h"
#include "fen/write.h"
#include "pgn/chunk_cutter.h"
#include "pgn/game_reader.h"
#include "pgn/game_skip.h"

namespace {

struct Event {
  std::uint64_t line;
  std::uint32_t ply;
  int code;  // -1 for a position
  std::string fen;
  bool operator==(const Event&) const = default;
};

void replay(std::string_view bytes, std::uint64_t first_line, const fenmill::ReplayOptions& options,
            std::vector<Event>& events) {
  fenmill::GameReader reader(options);
  auto on_position = [&](const fenmill::GameInfo&, const fenmill::PlyInfo& ply, const fenmill::Position& pos) {
    fenmill::Position copy = pos;
    if (!fenmill::validate(copy).ok()) std::abort();  // legal play from a valid start stays valid
    std::string fen = fenmill::to_fen(pos);
    fenmill::Position again;
    fenmill::NormalizeOptions normalize;
    normalize.chess960 = true;
    normalize.ep = fenmill::EpPolicy::kKeep;
    if (!fenmill::normalize_fen(fen, again, normalize).ok() || fenmill::to_fen(again) != fen) std::abort();
    events.push_back({ply.line, ply.ply, -1, std::move(fen)});
  };
  auto on_error = [&](const fenmill::GameInfo&, const fenmill::ReplayError& e) {
    if (e.code == fenmill::PgnError::kOk) std::abort();
    events.push_back({e.line, e.ply, static_cast<int>(e.code), std::string(e.token)});
  };
  reader.replay(bytes, first_line, fenmill::ReplayCallbacks{on_position, on_error, {}});
}

// Replaying text whole and in pieces cut at `cuts` (ascending offsets) reports the same, main line only and
// with variations; aborts otherwise.
void check_cuts(std::string_view text, const std::vector<std::size_t>& cuts) {
  for (bool variations : {false, true}) {
    fenmill::ReplayOptions options;
    options.follow_variations = variations;
    std::vector<Event> whole, pieces;
    replay(text, 1, options, whole);
    std::size_t begin = 0;
    std::uint64_t line = 1;
    for (std::size_t end : cuts) {
      replay(text.substr(begin, end - begin), line, options, pieces);
      for (std::size_t k = begin; k < end; ++k) line += text[k] == '\n';
      begin = end;
    }
    replay(text.substr(begin), line, options, pieces);
    if (whole != pieces) {
      if (std::getenv("PGN_FUZZ_DEBUG"))
        for (const auto& list : {whole, pieces}) {
          for (const Event& e : list) std::fprintf(stderr, "%llu %u %d %s\n", (unsigned long long)e.line, e.ply, e.code, e.fen.c_str());
          std::fprintf(stderr, "--\n");
        }
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  // As src/pipeline/chunk_feed.cpp feeds the cutter: reads appended to a carry, cut wherever it says, before the
  // next read. The first byte picks the read size and the target chunk size.
  const std::size_t read = 1 + data[0] % 32, target = 1 + (data[0] / 32) * 24;
  fenmill::PgnChunkCutter cutter(target);
  std::vector<std::size_t> cuts;
  std::size_t carry = 0, seen = 0;
  for (;;) {
    for (std::size_t cut; (cut = cutter.cut(text.substr(carry, seen - carry))) > 0;) {
      if (carry + cut > seen) std::abort();
      carry += cut;
      cuts.push_back(carry);
      cutter.dropped(cut);
    }
    if (seen == text.size()) break;
    seen = std::min(text.size(), seen + read);
  }
  check_cuts(text, cuts);
  // A tagless cut is found in a prefix of what follows (the carry so far) and must hold for the whole.
  const std::size_t prefix = text.size() * data[0] / 255;
  if (std::size_t end = fenmill::find_last_game_end(text.substr(0, prefix)); end > 0) {
    if (end > prefix) std::abort();
    check_cuts(text, {end});
  }
  const std::size_t from = 1 + text.size() * (255 - data[0]) / 256;
  fenmill::PgnGameSkip skip(from);
  std::size_t taken = 0;
  for (std::size_t at = 0; at < text.size() && !skip.found(); at += read) taken += skip.scan(text.substr(at, read));
  // (After a finished game, "*\n": the text starts between games, as the skip's game does, lines of comments alone
  // before a game included; find_last_game_end takes its start for a game's.)
  std::size_t next = text.size();
  const std::string after_game = "*\n" + std::string(text);
  for (std::size_t line = from; line < text.size() && next == text.size(); ++line)
    if (text[line - 1] == '\n' && fenmill::find_last_game_end(std::string_view(after_game).substr(0, line + 3)) == line + 2)
      next = line;
  if (taken != next || skip.found() != (next < text.size())) {
    if (std::getenv("PGN_FUZZ_DEBUG")) std::fprintf(stderr, "skip from %zu: %zu, expected %zu\n", from, taken, next);
    std::abort();
  }
  if (skip.found()) check_cuts(text, {taken});
  return 0;
}
