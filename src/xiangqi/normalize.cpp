#include "xiangqi/normalize.h"

#include "fen/validate.h"

namespace fenmill::xiangqi {

NormalizeResult normalize_fen(std::string_view text, Position& pos, const NormalizeOptions& options) {
  NormalizeResult r;
  ParseOptions po;
  po.repair = options.repair;
  ParseResult pr = parse_fen(text, pos, po);
  r.fields = pr.fields;
  r.letters_seen = pr.letters_seen;
  if (!pr.ok()) {
    r.code = pr.code;
    r.column = pr.column;
    return r;
  }
  r.repairs = pr.clock_repaired ? fenmill::kRepairClock : fenmill::kRepairNone;
  Verdict v = validate(pos);
  if (!v.ok()) {
    r.code = v.code;
    r.hints = v.hints;
    r.squares = v.squares;
  }
  return r;
}

}  // namespace fenmill::xiangqi
