#include "fen/validate.h"

#include <cstring>
#include <utility>

#include "core/royal_count.h"

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace fenmill {
namespace {

constexpr Bitboard kLightSquares = 0x55AA55AA55AA55AAull;

Verdict reject(ErrorCode code, Bitboard squares) {
  Verdict v;
  v.code = code;
  v.squares = squares;
  return v;
}

// Promoted pieces a side must have: extras beyond the initial set, with bishops counted per square colour.
int min_promoted(const Position& pos, Color c) {
  auto extra = [](int have, int initial) { return have > initial ? have - initial : 0; };
  Bitboard bishops = pos.pieces(c, kBishop);
  return extra(popcount(pos.pieces(c, kQueen)), 1) + extra(popcount(pos.pieces(c, kRook)), 2) +
         extra(popcount(pos.pieces(c, kKnight)), 2) + extra(popcount(bishops & kLightSquares), 1) +
         extra(popcount(bishops & ~kLightSquares), 1);
}

// The common case, cheaply: at most 8 pawns and no more of any piece than the initial set (bishops
// per square colour) for both sides. Then, with one king each (checked before), no side has more
// than 16 pieces and none needs a promotion, so the three material rules below all pass.
bool material_plainly_legal(const Position& pos) {
  auto at_most_one = [](Bitboard b) { return !more_than_one(b); };
  auto at_most_two = [](Bitboard b) { return !more_than_one(b & (b - 1)); };
  for (Color c : {kWhite, kBlack}) {
    Bitboard bishops = pos.pieces(c, kBishop);
    if (!(at_most_one(pos.pieces(c, kQueen)) && at_most_two(pos.pieces(c, kRook)) &&
          at_most_two(pos.pieces(c, kKnight)) && at_most_one(bishops & kLightSquares) &&
          at_most_one(bishops & ~kLightSquares) && count_bits(pos.pieces(c, kPawn)) <= 8))
      return false;
  }
  return true;
}

// Checks one castling right; returns kOk or the reason it cannot exist.
ErrorCode check_castling(const Position& pos, Color c, CastlingSide side, Bitboard& squares) {
  Square rook = pos.castling_rook[c][side];
  int back = c == kWhite ? 0 : 7;
  Bitboard king = pos.pieces(c, kKing) & rank_bb(back);
  if (!king) {
    squares |= pos.pieces(c, kKing);
    return ErrorCode::kCastlingNoKing;
  }
  int kf = file_of(lsb(king));
  bool right_side = side == kKingSide ? file_of(rook) > kf : file_of(rook) < kf;
  if (!(pos.pieces(c, kRook) & square_bb(rook)) || !right_side) {
    squares |= square_bb(rook);
    return ErrorCode::kCastlingNoRook;
  }
  return ErrorCode::kOk;
}

// Rights both sides still hold say neither king (nor those rooks) has moved, and every start position, standard or
// Chess960, has the kings on one file and each side's rooks on mirrored files. kOk, or kCastlingMismatch with the
// side that disagrees in `side` (-1: the king files).
ErrorCode check_castling_pair(const Position& pos, int& side, Bitboard& squares) {
  auto has_right = [&](Color c) {
    return pos.castling_rook[c][kKingSide] != kNoSquare || pos.castling_rook[c][kQueenSide] != kNoSquare;
  };
  if (!has_right(kWhite) || !has_right(kBlack)) return ErrorCode::kOk;
  Square white_king = pos.king_square(kWhite), black_king = pos.king_square(kBlack);
  if (file_of(white_king) != file_of(black_king)) {
    side = -1;
    squares = square_bb(white_king) | square_bb(black_king);
    return ErrorCode::kCastlingMismatch;
  }
  for (CastlingSide s : {kKingSide, kQueenSide}) {
    Square white_rook = pos.castling_rook[kWhite][s], black_rook = pos.castling_rook[kBlack][s];
    if (white_rook == kNoSquare || black_rook == kNoSquare || file_of(white_rook) == file_of(black_rook)) continue;
    side = s;
    squares = square_bb(white_rook) | square_bb(black_rook);
    return ErrorCode::kCastlingMismatch;
  }
  return ErrorCode::kOk;
}

// Of the candidates (pieces each on a line through s that it moves along), those with nothing between them and s:
// the ones that attack s. Around a king few sliders stand on its lines (on an empty board), so testing each is
// cheaper than tracing the king's eight rays.
[[gnu::always_inline]] inline Bitboard unblocked(Square s, Bitboard candidates, Bitboard occupied) {
  Bitboard b = 0;
  for (; candidates; candidates &= candidates - 1)
    if (!(between_bb(s, lsb(candidates)) & occupied)) b |= candidates & (0 - candidates);
  return b;
}

// Position::attackers(s, by) less the king's: the pieces of `by` but its king attacking s.
[[gnu::always_inline]] inline Bitboard attackers_but_king(const Position& pos, Square s, Color by, Bitboard occupied) {
  const Bitboard them = pos.by_color[by];
  const Bitboard sliders = ((pos.by_type[kRook] | pos.by_type[kQueen]) & rook_pseudo_attacks(s)) |
                           ((pos.by_type[kBishop] | pos.by_type[kQueen]) & bishop_pseudo_attacks(s));
  return (them & ((pawn_attacks(~by, s) & pos.by_type[kPawn]) | (knight_attacks(s) & pos.by_type[kKnight]))) |
         unblocked(s, them & sliders, occupied);
}

// The pawn that made the double push behind the ep square, and the square it came from.
Square pushed_pawn(Square ep) { return ep ^ 8; }
Square pushed_from(Square ep) { return ep ^ 24; }

ErrorCode check_ep(const Position& pos, Bitboard& squares) {
  Square ep = pos.ep_square;
  squares = square_bb(ep);
  if (rank_of(ep) != (pos.side_to_move == kWhite ? 5 : 2)) return ErrorCode::kEpWrongRank;
  if (!(pos.pieces(~pos.side_to_move, kPawn) & square_bb(pushed_pawn(ep)))) return ErrorCode::kEpNoPawn;
  if (pos.occupied() & (square_bb(ep) | square_bb(pushed_from(ep)))) {
    squares = pos.occupied() & (square_bb(ep) | square_bb(pushed_from(ep)));
    return ErrorCode::kEpOccupied;
  }
  // Before the push it was the pusher's turn, so the side to move now cannot have been in check then: not by
  // the pawn on its origin square, nor along a line the pawn then blocked.
  const Color us = pos.side_to_move;
  Position before = pos;
  before.remove(pushed_pawn(ep));
  before.put(~us, kPawn, pushed_from(ep));
  if (Bitboard attackers = before.attackers(pos.king_square(us), ~us)) {
    squares = attackers | square_bb(pushed_pawn(ep)) | pos.pieces(us, kKing);
    return ErrorCode::kEpIllegalPush;
  }
  if (pos.halfmove_clock != 0) return ErrorCode::kEpClock;
  return ErrorCode::kOk;
}

// The empty squares from which the piece of the side not to move on `to` can have come in one move, nothing else
// having moved since: a pawn's push, double push or capture (an en-passant capture's origin is a capture's); a
// piece's move, or, on the last rank, a pawn's promotion there. (Castling: the caller's.)
Bitboard move_origins(const Position& pos, Square to) {
  const Color mover = pos.color_on(to);
  const Bitboard occupied = pos.occupied();
  const Bitboard here = square_bb(to);
  const Bitboard behind = mover == kWhite ? here >> 8 : here << 8;
  const int rank = relative_rank(mover, rank_of(to));
  // A pawn never stands on its own first rank: it reached `to` from the square behind, or diagonally behind.
  Bitboard pawn_from = (behind | pawn_attacks(~mover, to)) & ~rank_bb(mover == kWhite ? 0 : 7);
  if (rank == 3 && !(behind & occupied)) pawn_from |= mover == kWhite ? here >> 16 : here << 16;
  const PieceType type = pos.type_on(to);
  Bitboard from = 0;
  switch (type) {
    case kPawn: from = pawn_from; break;
    case kKnight: from = knight_attacks(to); break;
    case kBishop: from = bishop_attacks(to, occupied); break;
    case kRook: from = rook_attacks(to, occupied); break;
    case kQueen: from = queen_attacks(to, occupied); break;
    default: from = king_attacks(to); break;
  }
  if (rank == 7 && type != kKing) from |= pawn_from;
  return from & ~occupied;
}

// The rook on `rook` can just have castled: it stands beside its king, both on their back rank, on the squares
// every castling ends on (f and g, or d and c: in Chess960 too).
bool castled_rook(const Position& pos, Square rook) {
  const Color mover = pos.color_on(rook);
  const Square king = pos.king_square(mover);
  const int back = mover == kWhite ? 0 : 7;
  return (pos.pieces(kRook) & square_bb(rook)) && rank_of(rook) == back && rank_of(king) == back &&
         ((file_of(king) == 6 && file_of(rook) == 5) || (file_of(king) == 2 && file_of(rook) == 3));
}

// Whether an en-passant capture can have given every one of these checks: the capturing pawn now on its sixth
// rank, the captured pawn's square behind it and the capturing pawn's origin beside that one both empty, and each
// checker the pawn or a slider whose line to the king runs through one of those two squares.
bool ep_capture_explains(const Position& pos, Bitboard checkers, Square king) {
  const Color mover = ~pos.side_to_move;
  const Bitboard occupied = pos.occupied();
  for (Bitboard pawns = pos.pieces(mover, kPawn) & rank_bb(mover == kWhite ? 5 : 2); pawns; pawns &= pawns - 1) {
    const Square to = lsb(pawns);
    const Bitboard captured = mover == kWhite ? square_bb(to) >> 8 : square_bb(to) << 8;
    if (captured & occupied) continue;
    for (Bitboard origins = pawn_attacks(~mover, to) & ~occupied; origins; origins &= origins - 1) {
      const Bitboard vacated = captured | square_bb(lsb(origins));
      bool explained = true;
      for (Bitboard b = checkers; b && explained; b &= b - 1)
        explained = lsb(b) == to || (between_bb(lsb(b), king) & vacated);
      if (explained) return true;
    }
  }
  return false;
}

// Can the side to move's king be in check by these checkers after one legal move by the opponent? Before that
// move the opponent was to move, so the side to move was not in check: the move made every check there is. A move
// uncovers lines through the squares it vacates and checks from where a piece lands; only an en-passant capture
// vacates two squares, and castling moves two pieces.
bool check_possible(const Position& pos, Bitboard checkers) {
  const Color us = pos.side_to_move;
  const Square king = pos.king_square(us);
  if (more_than_one(checkers)) {
    // Two checks: the piece that moved gives one, and the other is a slider's, uncovered through the square the
    // mover left, between that slider and the king; or an en-passant capture uncovered one or two; or a rook
    // castled. (So two knights, pawns or bishops never check together, nor two pieces on one line through the
    // king: docs/ERRORS.md.)
    const Square a = lsb(checkers), b = msb(checkers);
    // Two checkers on one line through the king, from both sides: the moved one would have passed through the
    // king (a castling king too: it crosses every square between its origin and destination).
    if (line_bb(a, b) & square_bb(king)) return false;
    const Bitboard sliders = pos.pieces(kBishop) | pos.pieces(kRook) | pos.pieces(kQueen);
    const Bitboard back_rank = rank_bb(us == kWhite ? 7 : 0);  // the mover's
    for (auto [moved, uncovered] : {std::pair{a, b}, std::pair{b, a}}) {
      if (!(sliders & square_bb(uncovered))) continue;
      const Bitboard line = between_bb(uncovered, king);
      if (line & move_origins(pos, moved)) return true;
      // Castling uncovers through the squares its king and rook left, on their back rank.
      if (castled_rook(pos, moved) && (line & back_rank & ~pos.occupied())) return true;
    }
    return ep_capture_explains(pos, checkers, king);
  }
  // One check: a slider checking from afar may have been uncovered (the squares between are empty: any of them
  // can have been left); otherwise the checker moved there, from an empty square.
  const Square checker = lsb(checkers);
  return between_bb(checker, king) || move_origins(pos, checker) || castled_rook(pos, checker);
}

}  // namespace

std::uint8_t position_hints(const Position& pos) {
  constexpr Bitboard kUpper = 0xFFFFFFFF00000000ull;
  Bitboard wp = pos.pieces(kWhite, kPawn), bp = pos.pieces(kBlack, kPawn);
  bool pawns_reversed = (wp || bp) && popcount(wp & kUpper) > popcount(wp & ~kUpper) &&
                        popcount(bp & ~kUpper) >= popcount(bp & kUpper);
  if (!wp && !bp) {
    Bitboard wk = pos.pieces(kWhite, kKing), bk = pos.pieces(kBlack, kKing);
    return (wk & kRank8) && (bk & kRank1) ? kHintFlipped | kHintByKings : kHintNone;
  }
  return pawns_reversed ? kHintFlipped : kHintNone;
}

bool ep_capture_pseudo(const Position& pos) {
  if (pos.ep_square == kNoSquare) return false;
  Color us = pos.side_to_move;
  return pawn_attacks(~us, pos.ep_square) & pos.pieces(us, kPawn);
}

bool ep_capture_legal(const Position& pos) {
  if (pos.ep_square == kNoSquare) return false;
  Color us = pos.side_to_move;
  Bitboard captured = square_bb(pushed_pawn(pos.ep_square));
  Square king = pos.king_square(us);
  for (Bitboard b = pawn_attacks(~us, pos.ep_square) & pos.pieces(us, kPawn); b; b &= b - 1) {
    Bitboard occ = (pos.occupied() ^ square_bb(lsb(b)) ^ captured) | square_bb(pos.ep_square);
    if (!(pos.attackers(king, ~us, occ) & ~captured)) return true;
  }
  return false;
}

namespace {

// The last rules, with one king each: neither the side not to move in check, nor the side to move by more than two
// pieces or by checks no last move can give. (Only the first test looks for the kings: after it they do not stand
// side by side, so neither attacks the other.)
[[gnu::always_inline]] inline Verdict check_rules(const Position& pos) {
  const Color us = pos.side_to_move;
  const Bitboard occupied = pos.occupied(), kings = pos.by_type[kKing];
  const Square their_king = lsb(kings & pos.by_color[~us]), our_king = lsb(kings & pos.by_color[us]);
  if (Bitboard b = attackers_but_king(pos, their_king, us, occupied) | (king_attacks(their_king) & kings & pos.by_color[us]))
    return reject(ErrorCode::kOppositeCheck, b | square_bb(their_king));
  const Bitboard checkers = attackers_but_king(pos, our_king, ~us, occupied);
  if (!checkers) return Verdict{};
  if (more_than_one(checkers & (checkers - 1))) return reject(ErrorCode::kTooManyCheckers, checkers);
  // Repair cannot invent a last move. (An ep square that contradicts a check went with EP_ILLEGAL_PUSH.)
  if (!check_possible(pos, checkers)) return reject(ErrorCode::kImpossibleCheck, checkers | square_bb(our_king));
  return Verdict{};
}

// One king each and material_plainly_legal(). With SSE4.1 (x86-64-v2) both sides at once, a side a 64-bit lane: as
// 64-bit code GCC (12) merged the two sides' tests and spilled registers, and common_case() took ~125 instructions a
// record on the bench corpus instead of ~85.
[[gnu::always_inline]] inline bool kings_and_material_plain(const Position& pos) {
#if defined(__SSE4_1__)
  const __m128i sides = _mm_loadu_si128(reinterpret_cast<const __m128i*>(pos.by_color));  // white, black
  const __m128i minus_one = _mm_set1_epi64x(-1);
  auto of = [&](const Bitboard& b) {  // b & white, b & black; loaded straight from memory (SSE3 movddup)
    return _mm_and_si128(_mm_castpd_si128(_mm_loaddup_pd(reinterpret_cast<const double*>(&b))), sides);
  };
  auto drop_one = [&](__m128i b) { return _mm_and_si128(b, _mm_add_epi64(b, minus_one)); };  // zero: b had <= 1
  const __m128i kings = of(pos.by_type[kKing]), bishops = of(pos.by_type[kBishop]);
  const __m128i light = _mm_set1_epi64x(static_cast<long long>(kLightSquares));
  __m128i bad = _mm_or_si128(_mm_cmpeq_epi64(kings, _mm_setzero_si128()), drop_one(kings));
  bad = _mm_or_si128(bad, drop_one(of(pos.by_type[kQueen])));
  bad = _mm_or_si128(bad, drop_one(drop_one(of(pos.by_type[kRook]))));
  bad = _mm_or_si128(bad, drop_one(drop_one(of(pos.by_type[kKnight]))));
  bad = _mm_or_si128(bad, drop_one(_mm_and_si128(bishops, light)));
  bad = _mm_or_si128(bad, drop_one(_mm_andnot_si128(light, bishops)));
  return _mm_testz_si128(bad, bad) && count_bits(pos.pieces(kWhite, kPawn)) <= 8 &&
         count_bits(pos.pieces(kBlack, kPawn)) <= 8;
#else
  for (Color c : {kWhite, kBlack})
    if (Bitboard kings = pos.pieces(c, kKing); !kings || more_than_one(kings)) return false;
  return material_plainly_legal(pos);
#endif
}

// Castling rights of the standard kind, the fast path's: per right ([colour][side] flattened) and rook square, the
// squares its king and rook stand on (e1 and h1 for White's king side, ...); nothing for no right; every square for
// any other rook square, which no position can fill. (Rook squares are 0..63 or kNoSquare, 64.)
struct StandardCastlingSquares {
  Bitboard needs[4][kNoSquare + 1];
};

constexpr StandardCastlingSquares kStandardCastling = [] {
  StandardCastlingSquares t{};
  constexpr Square kCorner[4] = {7, 0, 63, 56};  // h1, a1, h8, a8
  for (int right = 0; right < 4; ++right) {
    for (Bitboard& b : t.needs[right]) b = ~Bitboard(0);
    t.needs[right][kNoSquare] = 0;
    t.needs[right][kCorner[right]] = square_bb(kCorner[right]) | square_bb(right < 2 ? 4 : 60);
  }
  return t;
}();

// The first rules' passing case at once, as for almost every position: one king each; material_plainly_legal();
// no pawn on a back rank; castling rights only with the king on e1/e8 and the rooks in their corners (then each
// stands, and the two sides' agree), or none; no en-passant square. validate_rules() judges everything else.
[[gnu::always_inline]] inline bool common_case(const Position& pos) {
  const Bitboard white = pos.by_color[kWhite], black = pos.by_color[kBlack];
  const Bitboard pawns = pos.by_type[kPawn], rooks = pos.by_type[kRook], kings = pos.by_type[kKing];
  if (!kings_and_material_plain(pos) || (pawns & (kRank1 | kRank8)) || pos.ep_square != kNoSquare) return false;
  std::uint32_t rights;
  static_assert(sizeof rights == sizeof pos.castling_rook);
  std::memcpy(&rights, pos.castling_rook, sizeof rights);
  if (rights == 0x40404040u) return true;  // kNoSquare four times
  const Bitboard needs = kStandardCastling.needs[0][pos.castling_rook[kWhite][kKingSide]] |
                         kStandardCastling.needs[1][pos.castling_rook[kWhite][kQueenSide]] |
                         kStandardCastling.needs[2][pos.castling_rook[kBlack][kKingSide]] |
                         kStandardCastling.needs[3][pos.castling_rook[kBlack][kQueenSide]];
  constexpr Bitboard kCorners = 0x8100000000000081ull, kKingSquares = 0x1000000000000010ull;  // a1 h1 a8 h8; e1 e8
  const Bitboard at_home = (white & kRank1) | (black & kRank8);
  return !(needs & ~(at_home & ((rooks & kCorners) | (kings & kKingSquares))));
}

Verdict validate_rules(Position& pos, bool repair) {
  Verdict v;
  for (Color c : {kWhite, kBlack}) {
    Bitboard kings = pos.pieces(c, kKing);
    if (!kings) return reject(ErrorCode::kMissingKing, 0);
    if (more_than_one(kings)) return reject(ErrorCode::kTooManyKings, kings);
  }
  if (!material_plainly_legal(pos)) {
    for (Color c : {kWhite, kBlack}) {
      Bitboard pawns = pos.pieces(c, kPawn);
      if (popcount(pawns) > 8) return reject(ErrorCode::kTooManyPawns, pawns);
      if (popcount(pos.by_color[c]) > 16) return reject(ErrorCode::kTooManyPieces, pos.by_color[c]);
      if (min_promoted(pos, c) > 8 - popcount(pawns)) return reject(ErrorCode::kTooManyPromoted, pos.by_color[c] & ~pawns);
    }
  }
  if (Bitboard back = pos.pieces(kPawn) & (kRank1 | kRank8)) return reject(ErrorCode::kPawnOnBackRank, back);

  for (Color c : {kWhite, kBlack})
    for (CastlingSide side : {kKingSide, kQueenSide}) {
      if (pos.castling_rook[c][side] == kNoSquare) continue;
      Bitboard squares = 0;
      ErrorCode e = check_castling(pos, c, side, squares);
      if (e == ErrorCode::kOk) continue;
      if (!repair) return reject(e, squares);
      pos.castling_rook[c][side] = kNoSquare;
      v.repairs |= kRepairCastling;
    }
  for (;;) {  // each rights that may stand alone; now the two sides against each other
    int side = 0;
    Bitboard squares = 0;
    if (check_castling_pair(pos, side, squares) == ErrorCode::kOk) break;
    if (!repair) return reject(ErrorCode::kCastlingMismatch, squares);
    for (Color c : {kWhite, kBlack})  // which side is wrong cannot be known: the disagreeing rights go
      for (CastlingSide s : {kKingSide, kQueenSide})
        if (side < 0 || side == s) pos.castling_rook[c][s] = kNoSquare;
    v.repairs |= kRepairCastling;
  }

  if (pos.ep_square != kNoSquare) {
    Bitboard squares = 0;
    ErrorCode e = check_ep(pos, squares);
    if (e == ErrorCode::kEpClock && repair) {
      pos.halfmove_clock = 0;
      v.repairs |= kRepairClock;
    } else if (e != ErrorCode::kOk) {
      if (!repair) return reject(e, squares);
      pos.ep_square = kNoSquare;
      v.repairs |= kRepairEp;
    }
  }

  Verdict checks = check_rules(pos);
  return checks.ok() ? v : checks;
}

// The rules one by one (in the order their errors are reported), for what common_case() does not pass; with the
// hints of a rejection.
[[gnu::noinline]] Verdict validate_careful(Position& pos, bool repair) {
  Verdict v = validate_rules(pos, repair);
  if (!v.ok()) v.hints = position_hints(pos);
  return v;
}

// A common_case() position with a king attacked: the check rules' verdict, with hints.
[[gnu::noinline]] Verdict validate_checks(const Position& pos) {
  Verdict v = check_rules(pos);
  if (!v.ok()) v.hints = position_hints(pos);
  return v;
}

// Whether a piece of `by` but its king attacks s: attackers_but_king() as a yes or no.
[[gnu::always_inline]] inline bool attacked_but_by_king(const Position& pos, Square s, Color by, Bitboard occupied) {
  const Bitboard them = pos.by_color[by];
  if (them & ((pawn_attacks(~by, s) & pos.by_type[kPawn]) | (knight_attacks(s) & pos.by_type[kKnight]))) return true;
  const Bitboard sliders = ((pos.by_type[kRook] | pos.by_type[kQueen]) & rook_pseudo_attacks(s)) |
                           ((pos.by_type[kBishop] | pos.by_type[kQueen]) & bishop_pseudo_attacks(s));
  for (Bitboard b = them & sliders; b; b &= b - 1)
    if (!(between_bb(s, lsb(b)) & occupied)) return true;
  return false;
}

// No piece attacks either king: check_rules() passes. (With one king each, a king next to the side not to move's
// king is the other side's.)
[[gnu::always_inline]] inline bool no_king_attacked(const Position& pos) {
  const Color us = pos.side_to_move;
  const Bitboard occupied = pos.occupied(), kings = pos.by_type[kKing];
  const Square their_king = lsb(kings & pos.by_color[~us]), our_king = lsb(kings & pos.by_color[us]);
  return !(king_attacks(their_king) & kings) && !attacked_but_by_king(pos, their_king, us, occupied) &&
         !attacked_but_by_king(pos, our_king, ~us, occupied);
}

}  // namespace

// The common case without a call: the rare ones are tail calls.
std::string_view king_count_detail(const Position& pos) {
  return royal_count_detail(pos.pieces(kWhite, kKing), pos.pieces(kBlack, kKing), /*xiangqi=*/false);
}

Verdict validate(Position& pos, bool repair) {
  if (!common_case(pos)) return validate_careful(pos, repair);
  if (!no_king_attacked(pos)) return validate_checks(pos);
  return Verdict{};
}

}  // namespace fenmill
