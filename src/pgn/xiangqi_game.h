// Whether a PGN game that chess rules rejected is, beyond doubt, a Xiangqi game: fenmill reads Xiangqi positions
// (FEN, EPD), not games, and such a file was rejected game by game with no word of why. Rejected games only; the
// signs are ones no chess game shows, so a damaged chess game is never taken for one.
#pragma once
#include <string_view>

#include "pgn/game_reader.h"

namespace fenmill {

// `game` and its rejected token `token`, a view into `chunk` (empty or elsewhere: no token to look at). Xiangqi when:
//  * its [Variant] tag says xiangqi, or its [Game] tag "Chinese Chess" (as CCPD's converters write), any case;
//  * the word at the token is a move in Chinese notation: it holds 平, 进/進 or 退 (炮二平五); or in full-width WXF
//    notation: ＝, ＋ or － before a full-width digit (Ｃ２＝５); or in ASCII WXF notation (C2.5, H8+7, +R.5);
//  * the word is an ICCS move (h2e2, H2-E2), and two ICCS moves among it and the next 32 words of its game go to
//    or from a point no chessboard has (file i, rank 0 or 9: h0g2, h9g7); one could be a mistyped UCI move.
bool is_xiangqi_game(const GameInfo& game, std::string_view chunk, std::string_view token);

}  // namespace fenmill
