#include "xiangqi/normalize.h"

#include "fen/epd_operations.h"
#include "fen/validate.h"

namespace fenmill::xiangqi {

NormalizeResult normalize_fen(std::string_view text, Position& pos, const NormalizeOptions& options) {
  NormalizeResult r;
  ParseOptions po;
  po.repair = options.repair;
  po.allow_operations = options.allow_operations;
  ParseResult pr = parse_fen(text, pos, po);
  r.fields = pr.fields;
  r.rest = pr.rest;
  r.letters_seen = pr.letters_seen;
  if (!pr.ok()) {
    r.code = pr.code;
    r.column = pr.column;
    return r;
  }
  bool clock_repaired = pr.clock_repaired;
  if (options.allow_operations && pr.rest < text.size()) {  // EPD, as in chess (fen/normalize.cpp)
    r.code = apply_epd_clocks(text, pr.rest, pos, options.repair, clock_repaired, r.column);
    if (!r.ok()) return r;
  }
  r.repairs = clock_repaired ? fenmill::kRepairClock : fenmill::kRepairNone;
  Verdict v = validate(pos);
  if (!v.ok()) {
    r.code = v.code;
    r.hints = v.hints;
    r.squares = v.squares;
  }
  return r;
}

}  // namespace fenmill::xiangqi
