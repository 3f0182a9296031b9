// Per-run tallies. Each chunk fills its own; the serial sink adds them up in input order.
#pragma once
#include <array>
#include <cstdint>

#include "fen/errors.h"
#include "pgn/errors.h"

namespace fenmill {

struct Counts {
  std::uint64_t records = 0;    // non-blank lines
  std::uint64_t valid = 0;
  std::uint64_t invalid = 0;
  std::uint64_t repaired = 0;   // valid only after repair mode changed something
  std::uint64_t completed = 0;  // valid, but side/castling/ep were missing and filled in
  std::uint64_t duplicates = 0; // set by the sink
  std::uint64_t written = 0;    // set by the sink
  std::array<std::uint64_t, kErrorCodeCount> invalid_by_code{};
  std::array<std::uint64_t, kPgnErrorCount> invalid_games_by_code{};  // PGN: a rejected game is one invalid record
  std::uint64_t games = 0;                                             // PGN games seen
  std::uint64_t operations_dropped = 0;  // EPD records whose operations (but hmvc/fmvn) FEN or binary output lost
  // stats
  std::array<std::uint64_t, 2> side_to_move{};
  std::uint64_t with_castling = 0;
  std::uint64_t with_ep = 0;
  std::array<std::uint64_t, 33> piece_count{};  // positions by number of pieces on the board

  void add(const Counts& o) {
    records += o.records;
    valid += o.valid;
    invalid += o.invalid;
    repaired += o.repaired;
    completed += o.completed;
    duplicates += o.duplicates;
    written += o.written;
    for (int i = 0; i < kErrorCodeCount; ++i) invalid_by_code[i] += o.invalid_by_code[i];
    for (int i = 0; i < kPgnErrorCount; ++i) invalid_games_by_code[i] += o.invalid_games_by_code[i];
    games += o.games;
    operations_dropped += o.operations_dropped;
    side_to_move[0] += o.side_to_move[0];
    side_to_move[1] += o.side_to_move[1];
    with_castling += o.with_castling;
    with_ep += o.with_ep;
    for (int i = 0; i < 33; ++i) piece_count[i] += o.piece_count[i];
  }
};

}  // namespace fenmill
