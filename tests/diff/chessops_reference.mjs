// The reference side of the differential test: judges every input line with chessops (standard chess)
// and prints one verdict line per input line, in order:
//
//   VALID <fen>[ ;<note>[;<note>]]
//   INVALID <reason>[,<reason>...][ ;<note>[;<note>]]
//
// <fen> is makeFen(Chess.fromSetup(parseFen(line)).toSetup()): chessops drops impossible castling rights
// and ep squares silently, writes the ep square only when an ep capture is legal (toSetup() calls
// legalEpSquare), clamps the halfmove clock to 150 and turns fullmove 0 into 1.
// <reason> is a chessops error code: a parse error (ERR_BOARD, ERR_CASTLING, ...) alone, or every setup
// error that applies (ERR_EMPTY, ERR_KINGS, ERR_OPPOSITE_CHECK, ERR_PAWNS_ON_BACKRANK, and
// ERR_IMPOSSIBLE_CHECK from chessops's isImpossibleCheck, which this version exports but no longer calls
// from validate()). Notes: "nonstandard-material" is chessops's isStandardMaterial() == false, more
// promoted pieces than missing pawns allow (chessops reports it, it does not reject it); "ep-invalid"
// says chessops discarded the written ep square as impossible (wrong rank, no pawn that just moved two
// squares, or its origin square occupied), before asking whether a capture is legal.
//
// usage: node chessops_reference.mjs <input-file>   (verdicts on stdout)
import { readFileSync } from 'node:fs';
import { Chess, isImpossibleCheck, isStandardMaterial } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { SquareSet } from 'chessops/squareSet';

const opposite = color => (color === 'white' ? 'black' : 'white');

// Every setup error chessops knows for this position, in chessops's own order.
function setupErrors(pos) {
  const board = pos.board;
  const errors = [];
  if (board.occupied.isEmpty()) return ['ERR_EMPTY'];
  const ourKing = board.kingOf(pos.turn);
  const theirKing = board.kingOf(opposite(pos.turn));
  const kingsOk = board.king.size() === 2 && ourKing !== undefined && theirKing !== undefined;
  if (!kingsOk) errors.push('ERR_KINGS');
  if (kingsOk && pos.kingAttackers(theirKing, pos.turn, board.occupied).nonEmpty()) errors.push('ERR_OPPOSITE_CHECK');
  if (SquareSet.backranks().intersects(board.pawn)) errors.push('ERR_PAWNS_ON_BACKRANK');
  if (kingsOk && isImpossibleCheck(pos)) errors.push('ERR_IMPOSSIBLE_CHECK');
  return errors;
}

function judge(line) {
  const setup = parseFen(line);
  if (setup.isErr) return `INVALID ${setup.error.message}`;
  // An unchecked position, to ask chessops about every rule, not only the first that fails.
  const unchecked = Chess.default();
  unchecked.setupUnchecked(setup.value);
  const errors = setupErrors(unchecked);
  const notes = [];
  if (!isStandardMaterial(unchecked)) notes.push('nonstandard-material');
  if (setup.value.epSquare !== undefined && unchecked.epSquare === undefined) notes.push('ep-invalid');
  const suffix = notes.length ? ' ;' + notes.join(';') : '';

  const checked = Chess.fromSetup(setup.value);
  // Keep this script honest: chessops's own validate() must agree with the list above.
  const validateErrors = errors.filter(e => e !== 'ERR_IMPOSSIBLE_CHECK');
  if (checked.isErr !== validateErrors.length > 0 || (checked.isErr && checked.error.message !== validateErrors[0]))
    throw new Error(`reference out of step with chessops validate() on: ${line}`);

  if (errors.length) return `INVALID ${errors.join(',')}${suffix}`;
  return `VALID ${makeFen(checked.value.toSetup())}${suffix}`;
}

function main() {
  const input = process.argv[2];
  if (!input) {
    console.error('usage: node chessops_reference.mjs <input-file>');
    process.exit(2);
  }
  const lines = readFileSync(input, 'latin1').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const out = lines.map(judge);
  process.stdout.write(out.join('\n') + '\n');
}

main();
