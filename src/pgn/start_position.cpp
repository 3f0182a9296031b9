#include "pgn/start_position.h"

#include <initializer_list>

#include "fen/parse.h"
#include "fen/validate.h"

namespace fenmill {
namespace {

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x + 32);
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y + 32);
    if (x != y) return false;
  }
  return true;
}

Position make_standard_start() {
  Position pos;
  parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", pos);
  return pos;
}

// True when some castling right is not the standard e-file king with a corner rook.
bool needs_chess960(const Position& pos) {
  for (Color c : {kWhite, kBlack}) {
    int back = c == kWhite ? 0 : 7;
    bool any = false;
    for (CastlingSide side : {kKingSide, kQueenSide}) {
      Square rook = pos.castling_rook[c][side];
      if (rook == kNoSquare) continue;
      any = true;
      if (rook != make_square(side == kKingSide ? 7 : 0, back)) return true;
    }
    if (any && pos.king_square(c) != make_square(4, back)) return true;
  }
  return false;
}

}  // namespace

PgnVariant classify_variant(std::string_view value) {
  for (std::string_view s : {"", "standard", "chess", "normal", "classical", "from position"})
    if (equals_ignoring_case(value, s)) return PgnVariant::kStandard;
  for (std::string_view s : {"wild/0", "wild/1", "wild/2", "wild/3", "wild/4", "wild/5", "wild/6", "wild/7", "wild/8",
                             "wild/8a"})
    if (equals_ignoring_case(value, s)) return PgnVariant::kWild;
  for (std::string_view s : {"chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random", "frc", "960"})
    if (equals_ignoring_case(value, s)) return PgnVariant::kChess960;
  return PgnVariant::kUnsupported;
}

const Position& standard_start_position() {
  static const Position kStart = make_standard_start();
  return kStart;
}

StartSetup setup_start_position(std::string_view variant, std::string_view fen, Position& pos) {
  StartSetup setup;
  PgnVariant v = classify_variant(variant);
  if (v == PgnVariant::kUnsupported || (v == PgnVariant::kWild && fen.empty())) {
    setup.code = PgnError::kUnsupportedVariant;
    return setup;
  }
  setup.chess960 = v == PgnVariant::kChess960;
  if (fen.empty()) {
    pos = standard_start_position();
    return setup;
  }
  ParseOptions options;
  options.chess960 = setup.chess960;
  options.repair = true;  // only turns a fullmove number of 0 into 1, as problem collections write it
  ParseResult parsed = parse_fen(fen, pos, options);
  ErrorCode code = parsed.ok() ? validate(pos).code : parsed.code;
  if (code != ErrorCode::kOk) {
    setup.code = PgnError::kBadFen;
    setup.fen_code = code;
    return setup;
  }
  if (v == PgnVariant::kWild && needs_chess960(pos)) {
    // FICS castles a d-file king its own way (not Chess960's): a game that may castle so is not replayed.
    setup.code = PgnError::kUnsupportedVariant;
    return setup;
  }
  setup.chess960 = setup.chess960 || needs_chess960(pos);
  return setup;
}

}  // namespace fenmill
