// Writes positions reached by random LEGAL play (chessops makes the moves), from the standard start and from
// Chess960 starts, for tests/reachable_positions_test.cpp: fenmill's validator must be SOUND, so it has to
// accept every one of them. The play is biased toward what its rules reason about and rarely meets in real
// games: double and discovered checks, en-passant captures (and positions where one is legal), castling on
// both sides, promotions to every piece (with and without capture), and long endings with few pieces.
// Deterministic (seeded PRNG), so a failure is reproducible.
//
// usage: node random_playouts.mjs <positions> <standard-out> <chess960-out> [seed]
// Writes every position of every game (6-field FEN, chessops makeFen; Chess960 castling rights as X-FEN) to
// the two files, and beside each a <file>.how line per position: "<kinds> <uci> <fen before the move>" (castling
// in chessops's UCI: the king to its rook's square).
// Every game is legal chess, but fenmill is not told the moves: it judges each position alone.
// Prints the counts of each kind of move on stdout as "name=count" pairs.
import { writeFileSync } from 'node:fs';
import { Chess } from 'chessops/chess';
import { between, bishopAttacks, kingAttacks, rookAttacks } from 'chessops/attacks';
import { makeFen, parseFen } from 'chessops/fen';
import { SquareSet } from 'chessops/squareSet';
import { makeUci, rookCastlesTo, squareFile, squareRank } from 'chessops/util';
import { makeRandom } from './prng.mjs';

const kMaxPlies = 400;
const kChess960Share = 0.3;

const random = makeRandom(Number(process.argv[5] ?? 0x36c0ffee));
const randInt = n => Math.floor(random() * n);

// A Chess960 start: bishops on opposite colours, the king between the rooks, Black mirroring White.
function chess960Start() {
  const rank = new Array(8).fill('');
  const place = (piece, files) => { rank[files[randInt(files.length)]] = piece; };
  const free = () => rank.map((p, f) => (p ? -1 : f)).filter(f => f >= 0);
  place('B', [0, 2, 4, 6]);
  place('B', [1, 3, 5, 7]);
  place('Q', free());
  place('N', free());
  place('N', free());
  const [a, k, h] = free();
  rank[a] = 'R'; rank[k] = 'K'; rank[h] = 'R';
  const white = rank.join('');
  const fen = `${white.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${white} w KQkq - 0 1`;
  return Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
}

function legalMoves(pos) {
  const moves = [];
  for (const [from, dests] of pos.allDests())
    for (const to of dests) {
      const lastRank = squareRank(to) === 0 || squareRank(to) === 7;
      if (pos.board.pawn.has(from) && lastRank)
        for (const promotion of ['queen', 'rook', 'bishop', 'knight']) moves.push({ from, to, promotion });
      else moves.push({ from, to });
    }
  return moves;
}

// What a move is and what it does to the other king (`checks`: how many pieces give check after it).
function describe(pos, move) {
  const us = pos.turn;
  const pawn = pos.board.pawn.has(move.from);
  const castle = pos.board.king.has(move.from) && pos.board[us].has(move.to);
  const ep = pawn && move.to === pos.epSquare && squareFile(move.from) !== squareFile(move.to);
  const after = pos.clone();
  after.play(move);
  const king = after.board.kingOf(after.turn);
  const checkers = after.kingAttackers(king, us, after.board.occupied);
  // A check by another piece than the one that arrived (for castling: the rook) was uncovered by the move.
  const arrived = castle ? rookCastlesTo(us, move.to > move.from ? 'h' : 'a') : move.to;
  const forward = to => (us === 'white' ? squareRank(to) : 7 - squareRank(to));
  const advance = pawn ? forward(move.to) : 0;
  const doublePush = pawn && Math.abs(move.to - move.from) === 16;
  const theirPawns = pos.board.pawn.diff(pos.board[us]);
  return {
    after, castle, ep,
    capture: ep || (!castle && pos.board.occupied.has(move.to)),
    promotion: move.promotion,
    checks: checkers.size(),
    contact: checkers.intersects(kingAttacks(king)),  // a checker next to the king
    discovered: checkers.without(arrived).nonEmpty(),
    batteries: batteries(after, us),
    advance,
    // a double push next to an enemy pawn offers an en-passant capture; a pawn on its 5th rank waits for one
    offersEp: doublePush && [move.to - 1, move.to + 1].some(s => squareRank(s) === squareRank(move.to) && theirPawns.has(s)),
    waitsForEp: advance === 4 && !doublePush,
    // a king walking up the board meets pawn checks and double pushes that give check
    kingMarches: !castle && pos.board.king.has(move.from) && forward(move.to) > forward(move.from),
    // moving a minor piece or the queen off the back rank clears the way to castle
    develops: !castle && !pawn && !pos.board.king.has(move.from) && !pos.board.rook.has(move.from) &&
      squareRank(move.from) === (us === 'white' ? 0 : 7) && pos.castles.castlingRights.intersects(pos.board[us]),
  };
}

// How many of `us`'s own pieces stand alone between one of `us`'s sliders and the other king: each can
// uncover a check by moving, and a double check when it gives one itself.
function batteries(pos, us) {
  const king = pos.board.kingOf(us === 'white' ? 'black' : 'white');
  const ours = pos.board[us];
  const snipers = rookAttacks(king, SquareSet.empty()).intersect(pos.board.rooksAndQueens())
    .union(bishopAttacks(king, SquareSet.empty()).intersect(pos.board.bishopsAndQueens())).intersect(ours);
  let n = 0;
  for (const sniper of snipers) {
    const blockers = between(king, sniper).intersect(pos.board.occupied);
    if (blockers.size() === 1 && blockers.intersects(ours)) n++;
  }
  return n;
}

// A game's taste: how much it likes checks, captures, pawn pushes, loaded batteries and king walks. Every
// game likes the rare moves.
function makeStyle() {
  const endgame = random() < 0.35;  // trade everything off, then promote: queens against a lone king
  return {
    check: [5, 30, 150][randInt(3)],
    capture: endgame ? 300 : [0, 5, 20][randInt(3)],
    push: endgame ? 20 : 3,
    battery: [200, 1000, 5000][randInt(3)],
    king: [0, 0, 100][randInt(3)],
  };
}

function weight(d, style) {
  let w = 1 + style.push * d.advance;
  if (d.checks >= 2) w += 20000;
  else if (d.discovered) w += 300;
  else if (d.checks) w += style.check;
  if (d.ep) w += 5000;
  if (d.castle) w += 2000;
  if (d.promotion) w += d.capture ? 2000 : 1000;
  if (d.capture) w += style.capture;
  if (d.offersEp) w += d.checks ? 5000 : 500;
  if (d.waitsForEp) w += 30;
  if (d.develops) w += 20;
  w += style.battery * d.batteries;
  if (d.kingMarches) w += style.king;
  return w;
}

function pickWeighted(items, weights) {
  let r = random() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < items.length; i++) if ((r -= weights[i]) < 0) return items[i];
  return items[items.length - 1];
}

const counts = {
  games: 0, chess960_games: 0, positions: 0, checks: 0, contact_checks: 0, discovered_checks: 0, double_checks: 0,
  double_checks_by_ep: 0, double_checks_by_castling: 0, double_checks_by_promotion: 0,
  ep_captures: 0, ep_captures_with_check: 0, ep_squares_written: 0, ep_squares_with_check: 0,
  castlings: 0, castlings_a_side: 0, castlings_h_side: 0, castlings_with_check: 0,
  promotions_q: 0, promotions_r: 0, promotions_b: 0, promotions_n: 0, capture_promotions: 0, promotions_with_check: 0,
  few_pieces: 0, lone_king_vs_2_queens: 0,
};

// Counts what the move `d` did and returns the line for the .how file.
function record(d, move, before, fen) {
  const kinds = [];
  const count = (name, kind) => { counts[name]++; if (kind) kinds.push(kind); };
  if (d.checks) count('checks', 'check');
  if (d.contact) count('contact_checks', 'contact');
  if (d.discovered) count('discovered_checks', 'discovered');
  if (d.checks >= 2) {
    count('double_checks', 'double');
    if (d.ep) count('double_checks_by_ep');
    if (d.castle) count('double_checks_by_castling');
    if (d.promotion) count('double_checks_by_promotion');
  }
  if (d.ep) count('ep_captures', 'ep');
  if (d.ep && d.checks) count('ep_captures_with_check');
  if (d.castle) {
    count('castlings', 'castle');
    count(move.to > move.from ? 'castlings_h_side' : 'castlings_a_side');
    if (d.checks) count('castlings_with_check');
  }
  if (d.promotion) {
    count('promotions_' + (d.promotion === 'knight' ? 'n' : d.promotion[0]), 'promotion');
    if (d.capture) count('capture_promotions');
    if (d.checks) count('promotions_with_check');
  }
  if (fen.split(' ')[3] !== '-') {
    count('ep_squares_written');
    if (d.checks) count('ep_squares_with_check');
  }
  const board = d.after.board;
  if (board.occupied.size() <= 5) count('few_pieces');
  if (['white', 'black'].some(c => board[c].size() === 1 && board.queen.diff(board[c]).size() >= 2))
    count('lone_king_vs_2_queens');
  count('positions');
  return `${kinds.join(',') || 'quiet'} ${makeUci(move)} ${before}`;
}

const isRare = d => d.checks >= 2 || d.ep || d.castle || d.offersEp || (d.promotion && (d.capture || d.checks));

// Plays one game to its end (mate, stalemate, insufficient material, 75-move rule) or kMaxPlies. Rare moves
// not played (double checks, en-passant captures, castlings, double pushes next to an enemy pawn, capturing
// or checking promotions) are written too, as one-move side lines ("side:" in the .how file): each is one
// more game that stopped there.
function playGame(pos, out) {
  const style = makeStyle();
  let fen = makeFen(pos.toSetup());
  out.fens.push(fen);
  out.hows.push('start - -');
  counts.positions++;
  for (let ply = 0; ply < kMaxPlies && !pos.isEnd() && pos.halfmoves < 150; ply++) {
    const moves = legalMoves(pos);
    const described = moves.map(m => describe(pos, m));
    const i = pickWeighted(moves.map((_, k) => k), described.map(d => weight(d, style)));
    const before = fen;
    described.forEach((d, k) => {
      if (k === i || !isRare(d)) return;
      const side = makeFen(d.after.toSetup());
      out.hows.push('side:' + record(d, moves[k], before, side));
      out.fens.push(side);
    });
    fen = makeFen(described[i].after.toSetup());
    out.hows.push(record(described[i], moves[i], before, fen));
    out.fens.push(fen);
    pos = described[i].after;
  }
}

function main() {
  const [n, standardOut, chess960Out] = process.argv.slice(2);
  if (!chess960Out || !(Number(n) > 0)) {
    console.error('usage: node random_playouts.mjs <positions> <standard-out> <chess960-out> [seed]');
    process.exit(2);
  }
  const out = { standard: { fens: [], hows: [] }, chess960: { fens: [], hows: [] } };
  while (counts.positions < Number(n)) {
    const chess960 = random() < kChess960Share;
    playGame(chess960 ? chess960Start() : Chess.default(), chess960 ? out.chess960 : out.standard);
    counts.games++;
    if (chess960) counts.chess960_games++;
  }
  for (const [file, o] of [[standardOut, out.standard], [chess960Out, out.chess960]]) {
    writeFileSync(file, o.fens.join('\n') + '\n');
    writeFileSync(file + '.how', o.hows.join('\n') + '\n');
  }
  console.log(Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(' '));
}

main();
