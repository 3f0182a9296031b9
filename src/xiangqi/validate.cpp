#include "xiangqi/validate.h"

#include "core/royal_count.h"
#include "xiangqi/board.h"

namespace fenmill::xiangqi {
namespace {

Verdict reject(ErrorCode code, Bitboard squares) {
  Verdict v;
  v.code = code;
  v.squares = squares;
  return v;
}

bool more_than_two(Bitboard b) { return more_than_one(b & (b - 1)); }

// Own-side soldiers standing one behind the other on a file: only one soldier starts on each file and,
// before the river, it can only step straight forward, so two of them there cannot both have got there.
Bitboard stacked_soldiers(const Position& pos, Color c) {
  Bitboard own = pos.pieces(c, kSoldier) & kSoldierOwnSide[c];
  Bitboard start = own & (c == kRed ? rank_bb(3) : rank_bb(6));
  Bitboard ahead = own & ~start;
  Bitboard pairs = c == kRed ? start & (ahead >> kFileCount) : start & (ahead << kFileCount);
  return pairs | (c == kRed ? pairs << kFileCount : pairs >> kFileCount);
}

Verdict check(const Position& pos) {
  for (Color c : {kRed, kBlack}) {
    Bitboard generals = pos.pieces(c, kGeneral);
    if (!generals) return reject(ErrorCode::kMissingKing, 0);
    if (more_than_one(generals)) return reject(ErrorCode::kTooManyKings, generals);
  }
  Bitboard outside = (pos.pieces(kRed, kGeneral) & ~kPalace[kRed]) | (pos.pieces(kBlack, kGeneral) & ~kPalace[kBlack]);
  if (outside) return reject(ErrorCode::kXqGeneralOutsidePalace, outside);

  for (Color c : {kRed, kBlack}) {
    Bitboard soldiers = pos.pieces(c, kSoldier);
    if (popcount(soldiers) > 5) return reject(ErrorCode::kXqTooManySoldiers, soldiers);
  }
  for (Color c : {kRed, kBlack})
    for (PieceType t : {kAdvisor, kElephant, kHorse, kChariot, kCannon})
      if (more_than_two(pos.pieces(c, t))) return reject(ErrorCode::kXqTooManyPieces, pos.pieces(c, t));

  Bitboard bad = (pos.pieces(kRed, kAdvisor) & ~kAdvisorPoints[kRed]) | (pos.pieces(kBlack, kAdvisor) & ~kAdvisorPoints[kBlack]);
  if (bad) return reject(ErrorCode::kXqAdvisorPoint, bad);
  bad = (pos.pieces(kRed, kElephant) & ~kElephantPoints[kRed]) | (pos.pieces(kBlack, kElephant) & ~kElephantPoints[kBlack]);
  if (bad) return reject(ErrorCode::kXqElephantPoint, bad);

  Bitboard red_soldiers = pos.pieces(kRed, kSoldier), black_soldiers = pos.pieces(kBlack, kSoldier);
  bad = (red_soldiers & kSoldierBehind[kRed]) | (black_soldiers & kSoldierBehind[kBlack]);
  if (bad) return reject(ErrorCode::kXqSoldierBehind, bad);
  bad = (red_soldiers & kOwnSide[kRed] & ~kSoldierOwnSide[kRed]) | (black_soldiers & kOwnSide[kBlack] & ~kSoldierOwnSide[kBlack]);
  if (bad) return reject(ErrorCode::kXqSoldierFile, bad);
  bad = stacked_soldiers(pos, kRed) | stacked_soldiers(pos, kBlack);
  if (bad) return reject(ErrorCode::kXqSoldierStacked, bad);

  if (generals_facing(pos)) return reject(ErrorCode::kXqGeneralsFacing, pos.pieces(kGeneral));
  Color us = pos.side_to_move;
  if (Bitboard checkers = checkers_of(pos, us))
    return reject(ErrorCode::kOppositeCheck, checkers | pos.pieces(~us, kGeneral));
  return Verdict{};
}

}  // namespace

Bitboard checkers_of(const Position& pos, Color by) {
  Square general = pos.general_square(~by);
  return general == kNoSquare ? 0 : pos.attackers(general, by);
}

bool generals_facing(const Position& pos) {
  Square red = pos.general_square(kRed), black = pos.general_square(kBlack);
  if (red == kNoSquare || black == kNoSquare || file_of(red) != file_of(black)) return false;
  Square low = red < black ? red : black, high = red < black ? black : red;
  // The points strictly between the two, on their file.
  Bitboard between = (square_bb(high) - square_bb(low)) & kFileBB[file_of(red)] & ~square_bb(low);
  return !(pos.occupied() & between);
}

std::uint8_t position_hints(const Position& pos) {
  Bitboard red = pos.pieces(kRed, kGeneral), black = pos.pieces(kBlack, kGeneral);
  bool swapped = red && black && (red & kPalace[kBlack]) == red && (black & kPalace[kRed]) == black;
  return swapped ? kHintFlipped : kHintNone;
}

Verdict validate(const Position& pos) {
  Verdict v = check(pos);
  if (!v.ok()) v.hints = position_hints(pos);
  return v;
}

std::string_view general_count_detail(const Position& pos) {
  return royal_count_detail(pos.pieces(kRed, kGeneral), pos.pieces(kBlack, kGeneral), /*xiangqi=*/true);
}

}  // namespace fenmill::xiangqi
