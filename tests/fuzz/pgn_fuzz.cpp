// libFuzzer target: PGN replay (pgn/game_reader.h) on arbitrary bytes, main line only and with variations.
// Invariants: no crash or UB (sanitizers); every reported position passes validation and survives a FEN round
// trip; and cutting the input at a game start found the way the chunk feed finds them (each search from the
// previous start), then replaying the two pieces on their own, reports the same positions and errors at the
// same lines; so does cutting it after a game end that find_last_game_end found in a prefix of it (PGN
// without tags).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fen/normalize.h"
#include "fen/validate.h"
#include "fen/write.h"
#include "pgn/game_reader.h"

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

// Replaying text whole and as text[0, cut) then text[cut, end) reports the same, main line only and with
// variations; aborts otherwise.
void check_cut(std::string_view text, std::size_t cut) {
  for (bool variations : {false, true}) {
    fenmill::ReplayOptions options;
    options.follow_variations = variations;
    std::vector<Event> whole, pieces;
    replay(text, 1, options, whole);
    const std::string_view first = text.substr(0, cut), second = text.substr(cut);
    std::uint64_t lines_before = 0;
    for (char c : first) lines_before += c == '\n';
    replay(first, 1, options, pieces);
    replay(second, 1 + lines_before, options, pieces);
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
  std::vector<std::size_t> starts;  // as src/pipeline/chunk_feed.cpp finds them
  for (std::size_t last = 0;;) {
    last += fenmill::find_game_start(text.substr(last), 1);
    if (last >= text.size()) break;
    starts.push_back(last);
  }
  check_cut(text, starts.empty() ? text.size() : starts[data[0] % starts.size()]);
  // A tagless cut is found in a prefix of what follows (the carry so far) and must hold for the whole.
  const std::size_t seen = text.size() * data[0] / 255;
  if (std::size_t end = fenmill::find_last_game_end(text.substr(0, seen)); end > 0) {
    if (end > seen) std::abort();
    check_cut(text, end);
  }
  return 0;
}
