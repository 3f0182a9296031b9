// Many distinct, canonical placements without a data file: both kings and a white knight on every
// combination of squares (the white king on every third square), as FEN placement text.
#pragma once
#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace fenmill {

// With White to move, a knight giving check makes the record invalid (the side not to move is in check); the
// rest are valid. repeat_every > 0: after every repeat_every-th placement, a random earlier one again.
inline std::vector<std::string> kings_and_knight_placements(std::size_t repeat_every = 0) {
  std::vector<std::string> out;
  std::mt19937 rng(21);
  for (int wk = 0; wk < 64; wk += 3)
    for (int bk = 0; bk < 64; ++bk)
      for (int n = 0; n < 64; ++n) {
        if (wk == bk || wk == n || bk == n) continue;
        std::string placement;
        for (int rank = 7; rank >= 0; --rank) {
          int empty = 0;
          for (int file = 0; file < 8; ++file) {
            int sq = rank * 8 + file;
            char piece = sq == wk ? 'K' : sq == bk ? 'k' : sq == n ? 'N' : 0;
            if (!piece) {
              ++empty;
              continue;
            }
            if (empty) placement += static_cast<char>('0' + empty), empty = 0;
            placement += piece;
          }
          if (empty) placement += static_cast<char>('0' + empty);
          if (rank) placement += '/';
        }
        out.push_back(placement);
        if (repeat_every && out.size() % repeat_every == 0) out.push_back(out[rng() % out.size()]);
      }
  return out;
}

}  // namespace fenmill
