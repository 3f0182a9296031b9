// Differential test: fenmill's FEN validator/normalizer against chessops, lichess's independent rules
// library (tests/diff/, pinned in package-lock.json). ~340,000 lines: real positions from ../shared/data
// and seeded mutations of them. Every line must either agree or differ in a way listed in
// docs/DIFFERENTIAL.md; each deliberate difference is checked as narrowly as we can state it, so a
// new kind of disagreement fails the test and prints the first 20 offending lines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fen/normalize.h"
#include "node_reference.h"

namespace fenmill {
namespace {

namespace fs = std::filesystem;

using node_reference::reference_missing;
using node_reference::run_node_script;

const fs::path kSourceDir = FENMILL_SOURCE_DIR;

// ---- the reference verdict, as printed by tests/diff/chessops_reference.mjs ----

struct Reference {
  bool valid = false;
  std::string fen;                   // VALID: chessops's normalized FEN
  std::vector<std::string> reasons;  // INVALID: chessops error codes
  bool nonstandard_material = false;  // chessops's isStandardMaterial() is false
  bool ep_invalid = false;            // chessops discarded the written ep square as impossible
};

Reference parse_reference(std::string_view line) {
  Reference ref;
  if (std::size_t notes = line.find(" ;"); notes != std::string_view::npos) {
    std::string_view n = line.substr(notes + 2);
    ref.nonstandard_material = n.find("nonstandard-material") != std::string_view::npos;
    ref.ep_invalid = n.find("ep-invalid") != std::string_view::npos;
    line = line.substr(0, notes);
  }
  if (line.starts_with("VALID ")) {
    ref.valid = true;
    ref.fen = line.substr(6);
  } else if (line.starts_with("INVALID ")) {
    for (std::string_view rest = line.substr(8); !rest.empty();) {
      std::size_t comma = std::min(rest.find(','), rest.size());
      ref.reasons.emplace_back(rest.substr(0, comma));
      rest.remove_prefix(std::min(comma + 1, rest.size()));
    }
  } else {
    ref.reasons.emplace_back("UNREADABLE_REFERENCE_LINE");
  }
  return ref;
}

bool is_setup_reason(std::string_view r) {
  return r == "ERR_EMPTY" || r == "ERR_KINGS" || r == "ERR_OPPOSITE_CHECK" || r == "ERR_PAWNS_ON_BACKRANK" ||
         r == "ERR_IMPOSSIBLE_CHECK";
}

// fenmill codes that say the same thing as a chessops setup error.
bool same_reason(std::string_view chessops, ErrorCode code) {
  if (chessops == "ERR_EMPTY") return code == ErrorCode::kMissingKing;
  if (chessops == "ERR_KINGS") return code == ErrorCode::kMissingKing || code == ErrorCode::kTooManyKings;
  if (chessops == "ERR_OPPOSITE_CHECK") return code == ErrorCode::kOppositeCheck;
  if (chessops == "ERR_PAWNS_ON_BACKRANK") return code == ErrorCode::kPawnOnBackRank;
  if (chessops == "ERR_IMPOSSIBLE_CHECK")
    return code == ErrorCode::kImpossibleCheck || code == ErrorCode::kTooManyCheckers || code == ErrorCode::kEpIllegalPush;
  return false;
}

// ---- fenmill's side ----

struct Run {
  NormalizeResult result;
  Position pos{};
  std::string fen;  // write_fen of pos when accepted
};

Run run_fenmill(std::string_view line, bool repair, bool chess960 = false) {
  Run run;
  NormalizeOptions options;
  options.repair = repair;
  options.chess960 = chess960;
  run.result = normalize_fen(line, run.pos, options);
  if (run.result.ok()) {
    char buf[kMaxFenLength];
    run.fen.assign(buf, write_fen(run.pos, buf));
  }
  return run;
}

std::vector<std::string_view> split_fields(std::string_view fen) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0; start < fen.size();) {
    std::size_t space = std::min(fen.find(' ', start), fen.size());
    if (space > start) fields.push_back(fen.substr(start, space - start));
    start = space + 1;
  }
  return fields;
}

std::string_view field(std::string_view fen, std::size_t index) {
  auto fields = split_fields(fen);
  return index < fields.size() ? fields[index] : std::string_view();
}

bool has_adjacent_digits(std::string_view line) {
  std::string_view placement = field(line, 0);
  for (std::size_t i = 1; i < placement.size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(placement[i])) && std::isdigit(static_cast<unsigned char>(placement[i - 1])))
      return true;
  return false;
}

bool is_material_code(ErrorCode code) {
  return code == ErrorCode::kTooManyPawns || code == ErrorCode::kTooManyPieces || code == ErrorCode::kTooManyPromoted;
}

// fenmill's impossible-check rules go further than chessops's isImpossibleCheck (docs/ERRORS.md). A rejection is
// justified when one ply of retro-analysis, written here without fenmill's rules, finds no last move of the side
// not to move that explains the check: every piece of that side is taken back to each empty square it can have
// come from (a pawn by a push, double push or capture, or a promoted piece by a pawn's promotion; a captured piece
// left blocking where it stood), the en-passant captures are taken back, and the side to move's king must then be
// out of check. A castled king and rook (king on the c- or g-file, rook beside it on d or f) are let pass.
bool fenmill_only_impossible_check(const Position& pos) {
  const Color us = pos.side_to_move, them = ~us;
  const Square king = pos.king_square(us);
  const int back = them == kWhite ? 0 : 7, up = them == kWhite ? 1 : -1;
  const Square their_king = pos.king_square(them);
  const Bitboard occupied = pos.occupied();
  // Castling: the rook checks, or a line through a square the king or rook left (on the back rank) was uncovered.
  const int rook_file = file_of(their_king) == 6 ? 5 : file_of(their_king) == 2 ? 3 : -1;
  if (rank_of(their_king) == back && rook_file >= 0 && ((pos.pieces(them, kRook) >> make_square(rook_file, back)) & 1)) {
    bool explained = true;
    for (Bitboard b = pos.checkers(); b; b &= b - 1)
      explained = explained && (lsb(b) == make_square(rook_file, back) || (between_bb(lsb(b), king) & rank_bb(back) & ~occupied));
    if (explained) return false;
  }
  auto empty = [&](int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8 && !((occupied >> make_square(f, r)) & 1); };
  auto out_of_check = [&](Position before) { return before.attackers(king, them) == 0; };
  auto unmove_explains = [&](Square to, int f, int r, PieceType before_type, bool captured) {
    if (!empty(f, r)) return false;
    Position before = pos;
    before.remove(to);
    before.put(them, before_type, make_square(f, r));
    if (captured) before.put(us, kKnight, to);  // blocks lines, attacks nothing of its own side
    return out_of_check(before);
  };
  static constexpr int kKnightSteps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  static constexpr int kSteps[8][2] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};
  for (Bitboard pieces = pos.by_color[them]; pieces; pieces &= pieces - 1) {
    const Square to = lsb(pieces);
    const int f = file_of(to), r = rank_of(to), rel = them == kWhite ? r : 7 - r;
    const PieceType type = pos.type_on(to);
    bool explained = false;
    if (type == kKnight)
      for (const auto& d : kKnightSteps) explained = explained || unmove_explains(to, f + d[0], r + d[1], kKnight, true);
    if (type == kKing)
      for (const auto& d : kSteps) explained = explained || unmove_explains(to, f + d[0], r + d[1], kKing, true);
    if (type == kBishop || type == kRook || type == kQueen)
      for (int i = 0; i < 8; ++i) {
        if ((i % 2 == 1 && type == kRook) || (i % 2 == 0 && type == kBishop)) continue;
        for (int k = 1; empty(f + k * kSteps[i][0], r + k * kSteps[i][1]); ++k)
          explained = explained || unmove_explains(to, f + k * kSteps[i][0], r + k * kSteps[i][1], type, true);
      }
    if (type == kPawn && rel >= 2) {
      explained = explained || unmove_explains(to, f, r - up, kPawn, false) ||
                  unmove_explains(to, f - 1, r - up, kPawn, true) || unmove_explains(to, f + 1, r - up, kPawn, true);
      if (rel == 3 && empty(f, r - up)) explained = explained || unmove_explains(to, f, r - 2 * up, kPawn, false);
    }
    if (type != kPawn && type != kKing && rel == 7)
      explained = explained || unmove_explains(to, f, r - up, kPawn, false) ||
                  unmove_explains(to, f - 1, r - up, kPawn, true) || unmove_explains(to, f + 1, r - up, kPawn, true);
    if (type == kPawn && rel == 5 && empty(f, r - up))  // en passant: the captured pawn stood behind
      for (int side : {-1, 1}) {
        if (!empty(f + side, r - up)) continue;
        Position before = pos;
        before.remove(to);
        before.put(them, kPawn, make_square(f + side, r - up));
        before.put(us, kPawn, make_square(f, r - up));
        explained = explained || out_of_check(before);
      }
    if (explained) return false;
  }
  return true;
}

// CASTLING_MISMATCH: both sides hold rights, but the kings are on different files or two rights of one side's
// name rooks on different files.
bool castling_rights_disagree(const Position& pos) {
  auto any = [&](Color c) { return pos.castling_rook[c][0] != kNoSquare || pos.castling_rook[c][1] != kNoSquare; };
  if (!any(kWhite) || !any(kBlack)) return false;
  if (file_of(pos.king_square(kWhite)) != file_of(pos.king_square(kBlack))) return true;
  for (int s = 0; s < 2; ++s) {
    Square w = pos.castling_rook[kWhite][s], b = pos.castling_rook[kBlack][s];
    if (w != kNoSquare && b != kNoSquare && file_of(w) != file_of(b)) return true;
  }
  return false;
}

// EP_ILLEGAL_PUSH: with the pushed pawn back on its origin square, the side to move is attacked (chessops looks
// at the push only when the side to move is in check, and then not at every line the push closed).
bool ep_push_was_illegal(const Position& pos) {
  if (pos.ep_square == kNoSquare) return false;
  Color us = pos.side_to_move;
  Position before = pos;
  before.remove(pos.ep_square ^ 8);
  before.put(~us, kPawn, pos.ep_square ^ 24);
  return before.attackers(pos.king_square(us), ~us) != 0;
}

// fenmill rejects a castling field that names one right twice or has more than 4 letters; chessops reads the
// letters as a set of rook squares and keeps one right per side. True when the field is made of castling
// letters and does that. A file letter's side is the side of the king it stands on (e-file without a king).
bool castling_letters_repeat_a_right(std::string_view castling, const Position& pos) {
  if (castling.find_first_not_of("KQkqABCDEFGHabcdefgh") != std::string_view::npos) return false;
  if (castling.size() > 4) return true;
  bool seen[2][2] = {};
  for (char ch : castling) {
    Color c = std::islower(static_cast<unsigned char>(ch)) ? kBlack : kWhite;
    char up = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    Bitboard king = pos.pieces(c, kKing) & rank_bb(c == kWhite ? 0 : 7);
    int king_file = king ? file_of(lsb(king)) : 4;
    int side = up == 'K' ? 0 : up == 'Q' ? 1 : (up - 'A' > king_file ? 0 : 1);
    if (seen[c][side]) return true;
    seen[c][side] = true;
  }
  return false;
}

// A fenmill rejection that chessops cannot see, so it may stand where chessops accepts or gives another reason.
bool stricter_on_purpose(ErrorCode code, std::string_view line, const Reference& ref, const Position& pos) {
  switch (code) {
    case ErrorCode::kTooManyPawns:
    case ErrorCode::kTooManyPieces:
    case ErrorCode::kTooManyPromoted:
      return ref.nonstandard_material;
    case ErrorCode::kBadPiece:
      return has_adjacent_digits(line);
    case ErrorCode::kBadCastling:
      return castling_letters_repeat_a_right(field(line, 2), pos);
    case ErrorCode::kImpossibleCheck:
      return fenmill_only_impossible_check(pos);
    case ErrorCode::kEpIllegalPush:
      return ep_push_was_illegal(pos);
    case ErrorCode::kCastlingMismatch:
      return castling_rights_disagree(pos);
    default:
      return false;
  }
}

// ---- comparing a normalized fenmill position with chessops's FEN ----

struct Comparison {
  bool ok = false;
  std::string tags;  // the allowed differences seen, '+'-joined; empty when the text is identical
  std::string why;   // when !ok
};

void add_tag(std::string& tags, std::string_view tag) {
  if (!tags.empty()) tags += '+';
  tags += tag;
}

Comparison compare(const Run& ours, std::string_view theirs_fen, std::string_view input) {
  Comparison c;
  if (ours.fen == theirs_fen) {
    c.ok = true;
    return c;
  }
  // Read chessops's FEN as X-FEN: chessops writes K/Q for the outermost rook, a file letter otherwise.
  Position theirs{};
  ParseOptions x_fen;
  x_fen.chess960 = true;
  if (!parse_fen(theirs_fen, theirs, x_fen).ok()) {
    c.why = "chessops FEN unreadable";
    return c;
  }
  const Position& p = ours.pos;
  if (p.by_color[0] != theirs.by_color[0] || p.by_color[1] != theirs.by_color[1] ||
      !std::equal(std::begin(p.by_type), std::end(p.by_type), std::begin(theirs.by_type))) {
    c.why = "placement differs";
    return c;
  }
  if (p.side_to_move != theirs.side_to_move) {
    c.why = "side to move differs";
    return c;
  }
  if (!std::equal(&p.castling_rook[0][0], &p.castling_rook[0][0] + 4, &theirs.castling_rook[0][0])) {
    c.why = "castling rights differ";
    return c;
  }
  if (field(ours.fen, 2) != field(theirs_fen, 2)) add_tag(c.tags, "castling written differently");
  if (p.ep_square != theirs.ep_square) {
    bool occupied_ep = theirs.ep_square != kNoSquare && (theirs.occupied() & square_bb(theirs.ep_square));
    if (!(occupied_ep && p.ep_square == kNoSquare)) {
      c.why = "ep square differs";
      return c;
    }
    add_tag(c.tags, "chessops keeps an occupied ep square");
  }
  if (p.halfmove_clock != theirs.halfmove_clock) {
    bool ep_clock_repaired = (ours.result.repairs & kRepairClock) && p.halfmove_clock == 0 && field(input, 3) != "-" &&
                             !field(input, 3).empty();
    if (theirs.halfmove_clock == 150 && p.halfmove_clock > 150) {
      add_tag(c.tags, "chessops clamps the halfmove clock to 150");
    } else if (ep_clock_repaired) {
      add_tag(c.tags, "repair sets the halfmove clock to 0 after a double push");
    } else {
      c.why = "halfmove clock differs";
      return c;
    }
  }
  if (p.fullmove_number != theirs.fullmove_number) {
    c.why = "fullmove number differs";
    return c;
  }
  c.ok = true;
  return c;
}

// ---- one line ----

struct Outcome {
  bool ok = false;
  std::string category;
  std::string detail;  // for failures
  std::string tags;    // allowed differences between the two normalized FENs, '+'-joined
};

Outcome allowed(std::string category, std::string tags = "") { return {true, std::move(category), "", std::move(tags)}; }
Outcome mismatch(std::string detail) { return {false, "", std::move(detail), ""}; }

std::string name_of(ErrorCode code) { return std::string(error_name(code)); }

std::string join_reasons(const Reference& ref) {
  std::string s;
  for (const auto& r : ref.reasons) s += (s.empty() ? "" : ",") + r;
  return s;
}

bool clock_longer_than_chessops_reads(std::string_view line) {
  return field(line, 4).size() > 4 || field(line, 5).size() > 4;  // chessops reads 1 to 4 digits
}

Outcome judge_rejected_by_chessops(std::string_view line, const Reference& ref, const Run& strict) {
  const std::string reasons = join_reasons(ref);
  if (strict.result.ok()) {
    if ((reasons == "ERR_HALFMOVES" || reasons == "ERR_FULLMOVES") && clock_longer_than_chessops_reads(line))
      return allowed("fenmill accepts, chessops rejects: clock longer than chessops's 4 digits");
    return mismatch("fenmill accepts a line chessops rejects (" + reasons + "): " + strict.fen);
  }
  if (!is_setup_reason(ref.reasons.front())) {
    const char* where = is_syntax_error(strict.result.code) ? "syntax" : "a position rule";
    return allowed("both reject: chessops " + reasons + ", fenmill " + where);
  }

  auto matches = [&](ErrorCode code) {
    return std::any_of(ref.reasons.begin(), ref.reasons.end(), [&](const std::string& r) { return same_reason(r, code); });
  };
  if (matches(strict.result.code)) return allowed("both reject: " + name_of(strict.result.code));

  // fenmill stopped at an earlier rule (castling, ep, material, syntax); repair mode gets past castling and ep.
  Run repair = run_fenmill(line, true);
  if (repair.result.ok()) {
    bool ep_made_check_impossible = reasons == "ERR_IMPOSSIBLE_CHECK" && (repair.result.repairs & kRepairEp);
    if (ep_made_check_impossible)
      return allowed("both reject: IMPOSSIBLE_CHECK; fenmill repair drops the ep square that made it impossible");
    return mismatch("fenmill strict " + name_of(strict.result.code) + ", repair accepts a line chessops rejects (" +
                           reasons + "): " + repair.fen);
  }
  if (matches(repair.result.code))
    return allowed("both reject: " + name_of(repair.result.code) + " (fenmill strict stops earlier, at a rule repair fixes)");
  if (stricter_on_purpose(repair.result.code, line, ref, repair.pos))
    return allowed("both reject: fenmill finds " + name_of(repair.result.code) + " first (a rule chessops lacks)");
  return mismatch("both reject, unrelated reasons: chessops " + reasons + ", fenmill strict " +
                         name_of(strict.result.code) + ", repair " + name_of(repair.result.code));
}

Outcome judge_accepted_by_chessops(std::string_view line, const Reference& ref, const Run& strict) {
  if (strict.result.ok()) {
    if (ref.nonstandard_material) return mismatch("chessops flags non-standard material, fenmill accepts " + strict.fen);
    if (ref.ep_invalid) return mismatch("chessops finds the ep square impossible, fenmill accepts it: " + strict.fen);
    Comparison c = compare(strict, ref.fen, line);
    if (!c.ok) return mismatch("both accept, " + c.why + ": fenmill " + strict.fen + " | chessops " + ref.fen);
    if (c.tags.empty()) return allowed("both accept: identical FEN");
    return allowed("both accept: same position, written differently", c.tags);
  }
  const ErrorCode code = strict.result.code;
  const std::string name = name_of(code);
  if (stricter_on_purpose(code, line, ref, strict.pos)) {
    if (is_material_code(code)) return allowed("chessops accepts (flags non-standard material), fenmill rejects " + name);
    return allowed("chessops accepts, fenmill rejects " + name);
  }
  if (ref.nonstandard_material && !is_material_code(code)) {
    // fenmill stopped earlier; once castling/ep are repaired it must reach the material rule.
    Run repair = run_fenmill(line, true);
    if (!repair.result.ok() && is_material_code(repair.result.code))
      return allowed("chessops accepts (flags non-standard material), fenmill rejects " + name_of(repair.result.code));
    return mismatch("chessops flags non-standard material; fenmill strict " + name + ", repair " +
                           (repair.result.ok() ? repair.fen : name_of(repair.result.code)));
  }

  // chessops silently drops what fenmill's strict mode rejects; fenmill's repair mode must then agree.
  const bool repairable = code == ErrorCode::kCastlingNoKing || code == ErrorCode::kCastlingNoRook ||
                          code == ErrorCode::kEpWrongRank || code == ErrorCode::kEpNoPawn ||
                          code == ErrorCode::kEpOccupied || code == ErrorCode::kEpClock ||
                          (code == ErrorCode::kBadFullmove && field(line, 5).find_first_not_of('0') == std::string_view::npos);
  if (!repairable) return mismatch("chessops accepts " + ref.fen + ", fenmill rejects " + name);
  // An ep square rejected by fenmill must be one chessops discards too (chessops does not look at the ep
  // square itself being occupied), and the EP_CLOCK rule applies only to an otherwise possible one.
  const Square ep = strict.pos.ep_square;
  const bool ep_square_occupied = ep != kNoSquare && (strict.pos.occupied() & square_bb(ep));
  if (((code == ErrorCode::kEpWrongRank || code == ErrorCode::kEpNoPawn) && !ref.ep_invalid) ||
      (code == ErrorCode::kEpOccupied && !ref.ep_invalid && !ep_square_occupied) ||
      (code == ErrorCode::kEpClock && ref.ep_invalid))
    return mismatch("fenmill " + name + " disagrees with chessops's ep check" +
                           (ref.ep_invalid ? " (chessops: impossible)" : " (chessops: possible)"));

  Run repair = run_fenmill(line, true);
  if (!repair.result.ok()) {
    if (stricter_on_purpose(repair.result.code, line, ref, repair.pos))
      return allowed("chessops accepts, fenmill strict " + name + ", repair " + name_of(repair.result.code));
    return mismatch("chessops accepts " + ref.fen + ", fenmill strict " + name + ", repair " + name_of(repair.result.code));
  }
  Comparison c = compare(repair, ref.fen, line);
  std::string category = "chessops accepts, fenmill strict rejects " + name + "; repair gives chessops's position";
  if (!c.ok && c.why == "castling rights differ") {
    // With the king on e1/e8, fenmill's standard mode reads K/Q as the corner rook only; chessops always
    // reads X-FEN (the outermost rook). fenmill's X-FEN mode must then agree.
    Run x_fen = run_fenmill(line, true, true);
    if (x_fen.result.ok()) {
      Comparison c960 = compare(x_fen, ref.fen, line);
      if (c960.ok) {
        c = c960;
        category += " (in X-FEN mode: K/Q with the king on e1/e8 named an inner rook)";
      }
    }
  }
  // Repair may also drop what chessops keeps: an ep square whose push was illegal (EP_ILLEGAL_PUSH), castling
  // rights of the two sides that disagree (CASTLING_MISMATCH). With chessops's field put back, the positions must
  // agree, and chessops's field must be one fenmill refuses.
  Position theirs{};
  ParseOptions x_fen;
  x_fen.chess960 = true;  // chessops reads KQkq as X-FEN
  const bool theirs_parsed = parse_fen(ref.fen, theirs, x_fen).ok();
  auto with_their_field = [&](std::size_t index) {
    std::vector<std::string_view> fields = split_fields(repair.fen);
    Run patched = repair;
    patched.fen.clear();
    for (std::size_t i = 0; i < fields.size(); ++i) (patched.fen += i ? " " : "") += i == index ? field(ref.fen, index) : fields[i];
    if (index == 3) patched.pos.ep_square = theirs.ep_square;
    if (index == 2) std::copy(&theirs.castling_rook[0][0], &theirs.castling_rook[0][0] + 4, &patched.pos.castling_rook[0][0]);
    return compare(patched, ref.fen, line);
  };
  if (!c.ok && theirs_parsed && c.why == "ep square differs" && ep_push_was_illegal(theirs)) {
    Comparison with_theirs = with_their_field(3);
    if (with_theirs.ok)
      return allowed(category + "; repair also drops an ep square whose push was illegal (EP_ILLEGAL_PUSH)", with_theirs.tags);
  }
  if (!c.ok && theirs_parsed && c.why == "castling rights differ" && castling_rights_disagree(theirs)) {
    Comparison with_theirs = with_their_field(2);
    if (with_theirs.ok)
      return allowed(category + "; repair also drops castling rights of the two sides that disagree (CASTLING_MISMATCH)",
                     with_theirs.tags);
  }
  if (!c.ok)
    return mismatch("chessops accepts, fenmill strict " + name + ", repair differs (" + c.why + "): fenmill " +
                           repair.fen + " | chessops " + ref.fen);
  return allowed(category, c.tags);
}

Outcome judge(std::string_view line, const Reference& ref) {
  Run strict = run_fenmill(line, false);
  return ref.valid ? judge_accepted_by_chessops(line, ref, strict) : judge_rejected_by_chessops(line, ref, strict);
}

// ---- running the reference ----

constexpr std::string_view kNeededFor = "for the chessops reference";

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("fenmill-differential-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

std::vector<std::string> read_lines(const fs::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// chessops's verdict for every line of `input`, in order; false if the script failed.
bool run_reference(const fs::path& input, std::vector<std::string>& verdicts) {
  return run_node_script("chessops_reference.mjs", {input.string()}, verdicts);
}

void count_tags(std::string_view tags, std::map<std::string, long>& counts) {
  for (std::string_view t = tags; !t.empty();) {
    std::size_t plus = std::min(t.find('+'), t.size());
    ++counts[std::string(t.substr(0, plus))];
    t.remove_prefix(std::min(plus + 1, t.size()));
  }
}

void print_table(const std::map<std::string, long>& table) {
  std::vector<std::pair<long, std::string>> sorted;
  for (const auto& [name, count] : table) sorted.emplace_back(count, name);
  std::sort(sorted.rbegin(), sorted.rend());
  for (const auto& [count, name] : sorted) std::printf("%9ld  %s\n", count, name.c_str());
}

// ---- the tests ----

// Each hand-written example of docs/DIFFERENTIAL.md lands in the category its "# expect:" line names.
TEST(Differential, DocumentedExamples) {
  if (std::string why = reference_missing(kNeededFor); !why.empty()) GTEST_SKIP() << why;
  struct Example {
    std::string fen, expect, tags;
  };
  std::vector<Example> examples;
  Example next;
  for (const std::string& line : read_lines(kSourceDir / "tests/data/diff/edge_cases.fen")) {
    if (line.starts_with("# expect: ")) next.expect = line.substr(10);
    else if (line.starts_with("# tags: ")) next.tags = line.substr(8);
    else if (!line.empty() && line[0] != '#') {
      next.fen = line;
      examples.push_back(next);
      next = Example();
    }
  }
  ASSERT_GE(examples.size(), 20u);

  TempDir tmp;
  const fs::path input = tmp.path / "examples.fen";
  {
    std::ofstream out(input);
    for (const Example& e : examples) out << e.fen << '\n';
  }
  std::vector<std::string> verdicts;
  ASSERT_TRUE(run_reference(input, verdicts));
  ASSERT_EQ(verdicts.size(), examples.size());
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const Example& e = examples[i];
    Outcome o = judge(e.fen, parse_reference(verdicts[i]));
    ASSERT_TRUE(o.ok) << e.fen << "\n  chessops: " << verdicts[i] << "\n  " << o.detail;
    EXPECT_TRUE(o.category.starts_with(e.expect)) << e.fen << "\n  category: " << o.category << "\n  expected: " << e.expect;
    EXPECT_EQ(o.tags, e.tags) << e.fen;
  }
}

// The bulk run: ~340,000 real and mutated lines.
TEST(Differential, FenmillAgreesWithChessops) {
  const fs::path data = FENMILL_SHARED_DATA;
  if (!fs::exists(data / "fen/not_in_check.fen")) GTEST_SKIP() << "no shared data at " << data;
  if (std::string why = reference_missing(kNeededFor); !why.empty()) GTEST_SKIP() << why;

  TempDir tmp;
  const fs::path input = tmp.path / "input.fen";
  const std::vector<std::string> generate = {data.string(), input.string(),
                                             (kSourceDir / "tests/data/diff/edge_cases.fen").string()};
  std::vector<std::string> generate_out;  // (empty: it writes to the file)
  ASSERT_TRUE(run_node_script("generate_inputs.mjs", generate, generate_out))
      << node_reference::node_command("generate_inputs.mjs", generate);
  const std::vector<std::string> lines = read_lines(input);
  std::vector<std::string> verdicts;
  ASSERT_TRUE(run_reference(input, verdicts)) << "the chessops reference failed";
  ASSERT_EQ(verdicts.size(), lines.size());

  // FENMILL_DIFF_DUMP=<file> writes every line with its category, to find examples of each.
  std::ofstream dump;
  if (const char* path = std::getenv("FENMILL_DIFF_DUMP")) dump.open(path);
  std::map<std::string, long> categories, tags;
  std::vector<std::string> failures;
  long failed = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    Outcome o = judge(lines[i], parse_reference(verdicts[i]));
    if (dump.is_open()) dump << (o.ok ? o.category : "MISMATCH " + o.detail) << '\t' << lines[i] << '\t' << verdicts[i] << '\n';
    if (o.ok) {
      ++categories[o.category];
      count_tags(o.tags, tags);
    } else if (++failed <= 20) {
      failures.push_back("line " + std::to_string(i + 1) + ": " + lines[i] + "\n    chessops: " + verdicts[i] + "\n    " +
                         o.detail);
    }
  }

  std::printf("differential test: %zu lines, %ld outside the allow-list\n", lines.size(), failed);
  print_table(categories);
  std::printf("allowed differences between the normalized FENs, where both give a position:\n");
  print_table(tags);
  for (const auto& f : failures) std::printf("MISMATCH %s\n", f.c_str());

  EXPECT_EQ(failed, 0) << "lines outside the allow-list of deliberate differences (first 20 printed above)";
  // The run must really exercise both sides: plenty of agreement, and every kind of repair the doc describes.
  EXPECT_GE(lines.size(), 300000u);
  EXPECT_GE(categories["both accept: identical FEN"], 100000);
  auto seen = [&](std::string_view prefix) {
    long total = 0;
    for (const auto& [name, count] : categories)
      if (name.starts_with(prefix)) total += count;
    return total;
  };
  for (std::string_view code : {"CASTLING_NO_ROOK", "CASTLING_NO_KING", "EP_WRONG_RANK", "EP_NO_PAWN", "EP_OCCUPIED",
                                "EP_CLOCK", "BAD_FULLMOVE"})
    EXPECT_GT(seen("chessops accepts, fenmill strict rejects " + std::string(code) + "; repair"), 0) << code;
  for (std::string_view code : {"MISSING_KING", "TOO_MANY_KINGS", "OPPOSITE_CHECK", "IMPOSSIBLE_CHECK", "PAWN_ON_BACK_RANK"})
    EXPECT_GT(seen("both reject: " + std::string(code)), 0) << code;
  EXPECT_GT(tags["chessops keeps an occupied ep square"], 0);
}

}  // namespace
}  // namespace fenmill
