// Writes the input of the differential test: real positions from ../shared/data plus deterministic
// mutations of them (seeded PRNG), one FEN per line. Knows nothing about chessops or fenmill's rules:
// it only edits text, so that both implementations judge the same lines independently.
//
// usage: node generate_inputs.mjs <shared-data-dir> <out-file> [extra-input-file ...]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRandom } from './prng.mjs';

const kSeed = 0x5eed2024;
const kNoobStride = 5;          // noob_3moves.epd has 150k openings; every 5th is plenty
const kLichessLines = 40000;    // from the head of bench/lichess-2m.fen.zst
const kMutations = 200000;

const random = makeRandom(kSeed);
const randInt = n => Math.floor(random() * n);
const pick = list => list[randInt(list.length)];

// ---- reading the real data ----

function splitLines(text) {
  return text.split('\n').map(l => l.replace(/[\r\0]+$/, '')).filter(l => l.trim() !== '' && !l.startsWith('#'));
}

// EPD: keep the four position fields, and the clocks when a 6-field FEN stands in front of the operations.
function epdToFen(line) {
  const f = line.replace(/\0/g, '').trim().split(/\s+/);
  if (f.length < 4) return null;
  const isNumber = s => /^\d+$/.test(s ?? '');
  f[3] = f[3].replace(/;+$/, '');  // fortresses.epd glues the first operation's ';' to the ep field
  return (isNumber(f[4]) && isNumber(f[5]) ? f.slice(0, 6) : f.slice(0, 4)).join(' ');
}

function readBase(dataDir) {
  const base = [];
  for (const l of splitLines(readFileSync(join(dataDir, 'fen/not_in_check.fen'), 'latin1'))) base.push(l.trim());
  const epdDir = join(dataDir, 'epd');
  for (const name of readdirSync(epdDir).filter(n => n.endsWith('.epd')).sort()) {
    const lines = splitLines(readFileSync(join(epdDir, name), 'latin1'));
    const stride = name === 'noob_3moves.epd' ? kNoobStride : 1;
    for (let i = 0; i < lines.length; i += stride) {
      const fen = epdToFen(lines[i]);
      if (fen) base.push(fen);
    }
  }
  const zst = join(dataDir, 'bench/lichess-2m.fen.zst');
  const text = execFileSync('sh', ['-c', `zstd -dc "$1" | head -n ${kLichessLines}`, 'sh', zst], {
    maxBuffer: 64 << 20,
    encoding: 'latin1',
  });
  const lichess = splitLines(text);
  if (lichess.length !== kLichessLines) throw new Error(`read ${lichess.length} lines from ${zst} (is zstd installed?)`);
  for (const l of lichess) base.push(l.trim());
  return base;
}

// ---- a FEN as editable fields ----

// board[rank * 8 + file] = piece letter or '' (a1 = 0).
function parse(fen) {
  const fields = fen.split(' ');
  const ranks = fields[0].split('/');
  if (ranks.length !== 8) return null;
  const board = new Array(64).fill('');
  for (let r = 0; r < 8; r++) {
    let file = 0;
    for (const ch of ranks[7 - r]) {
      if (ch >= '1' && ch <= '8') file += ch.charCodeAt(0) - 48;
      else if ('PNBRQKpnbrqk'.includes(ch) && file < 8) board[r * 8 + file++] = ch;
      else return null;
    }
    if (file !== 8) return null;
  }
  return {
    board,
    side: fields[1] ?? 'w',
    castling: fields[2] ?? '-',
    ep: fields[3] ?? '-',
    half: fields[4] ?? null,
    full: fields[5] ?? null,
    fieldCount: fields.length >= 6 ? 6 : 4,
  };
}

function placement(board) {
  const rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = board[r * 8 + f];
      if (!p) { empty++; continue; }
      if (empty) row += empty;
      row += p;
      empty = 0;
    }
    rows.push(empty ? row + empty : row);
  }
  return rows.join('/');
}

function serialize(s) {
  const fields = [placement(s.board), s.side, s.castling || '-', s.ep];
  if (s.fieldCount === 6) fields.push(s.half ?? '0', s.full ?? '1');
  return fields.slice(0, s.keepFields ?? fields.length).join(' ');
}

const squareName = sq => 'abcdefgh'[sq & 7] + (1 + (sq >> 3));
const isWhite = p => p !== '' && p === p.toUpperCase();
const emptySquares = b => b.map((p, i) => (p ? -1 : i)).filter(i => i >= 0);
const occupiedSquares = b => b.map((p, i) => (p ? i : -1)).filter(i => i >= 0);
const swapCase = p => (isWhite(p) ? p.toLowerCase() : p.toUpperCase());
const setClocks = (s, half, full) => { s.fieldCount = 6; s.half = String(half); s.full = String(full); };

// ---- mutations: each edits one aspect, as a hand-written or recognised FEN might get it wrong ----

const mutations = {
  movePiece(s) {
    const from = pick(occupiedSquares(s.board));
    const to = randInt(64);
    if (from === undefined || from === to) return;
    s.board[to] = s.board[from];
    s.board[from] = '';
  },
  deleteKing(s) {
    const kings = occupiedSquares(s.board).filter(i => 'Kk'.includes(s.board[i]));
    if (kings.length) s.board[pick(kings)] = '';
  },
  addKing(s) {
    const e = emptySquares(s.board);
    if (e.length) s.board[pick(e)] = pick(['K', 'k']);
  },
  pawnOnBackRank(s) {
    s.board[pick([0, 56]) + randInt(8)] = pick(['P', 'p']);
  },
  addPiece(s) {  // extra material: the 9th pawn, a 17th piece, too many promoted pieces
    const e = emptySquares(s.board).filter(i => i >= 8 && i < 56);
    const count = 1 + randInt(3);
    for (let n = 0; n < count && e.length; n++) s.board[e.splice(randInt(e.length), 1)[0]] = pick('PPPNBRQpppnbrq'.split(''));
  },
  removePiece(s) {
    const pieces = occupiedSquares(s.board).filter(i => !'Kk'.includes(s.board[i]));
    if (pieces.length) s.board[pick(pieces)] = '';
  },
  flipSide(s) {
    s.side = s.side === 'w' ? 'b' : 'w';
  },
  castling(s) {
    const letters = [...(s.castling === '-' ? '' : s.castling)];
    switch (randInt(6)) {
      case 0: s.castling = pick(['KQkq', 'KQ', 'kq', 'Kq', 'Qk', 'K', 'q', '-']); break;
      case 1: letters.splice(randInt(letters.length + 1), 0, pick([...'KQkqABCDEFGHabcdefgh'])); s.castling = letters.join(''); break;
      case 2: if (letters.length) letters.splice(randInt(letters.length), 1); s.castling = letters.join('') || '-'; break;
      case 3: {  // Shredder letters for the rooks actually on the back ranks
        let out = '';
        for (let f = 7; f >= 0; f--) if (s.board[f] === 'R' && random() < 0.7) out += 'ABCDEFGH'[f];
        for (let f = 7; f >= 0; f--) if (s.board[56 + f] === 'r' && random() < 0.7) out += 'abcdefgh'[f];
        s.castling = out || '-';
        break;
      }
      case 4: s.castling = 'KQkq'; break;
      default: s.castling = [...'KQkq'].filter(() => random() < 0.5).join('') || '-';
    }
  },
  epAnywhere(s) {
    s.ep = squareName(randInt(64));
  },
  epBehindPawn(s) {  // legal-looking: behind a pawn of the side that just moved, on its 4th rank
    const white = s.side === 'b';  // the side not to move made the double push
    const rank = white ? 3 : 4;
    const pawn = white ? 'P' : 'p';
    const files = [0, 1, 2, 3, 4, 5, 6, 7].filter(f => s.board[rank * 8 + f] === pawn);
    const file = files.length ? pick(files) : randInt(8);
    s.ep = squareName((white ? 2 : 5) * 8 + file);
    if (random() < 0.7 && s.fieldCount === 6) s.half = '0';
  },
  epDoublePush(s) {  // stage a double push next to a pawn of the side to move, so a capture may be legal
    const white = s.side === 'b';
    const file = randInt(8);
    const to = (white ? 3 : 4) * 8 + file;
    s.board[to] = white ? 'P' : 'p';
    s.board[(white ? 2 : 5) * 8 + file] = '';
    s.board[(white ? 1 : 6) * 8 + file] = '';
    const side = pick([-1, 1]);
    if (file + side >= 0 && file + side < 8 && random() < 0.8) s.board[to + side] = white ? 'p' : 'P';
    s.ep = squareName((white ? 2 : 5) * 8 + file);
    if (s.fieldCount === 6) s.half = '0';
  },
  epRankPin(s) {  // the classic trap: capturing en passant takes two pawns off the king's rank
    mutations.epDoublePush(s);
    const rank = s.side === 'b' ? 3 : 4;
    const ourKing = s.side === 'w' ? 'K' : 'k';
    const files = [0, 1, 2, 3, 4, 5, 6, 7].filter(f => !s.board[rank * 8 + f]);
    if (files.length < 2) return;
    s.board = s.board.map(p => (p === ourKing ? '' : p));
    const kingFile = files.splice(randInt(files.length), 1)[0];
    s.board[rank * 8 + kingFile] = ourKing;
    const slider = pick(['R', 'Q']);
    s.board[rank * 8 + pick(files)] = s.side === 'w' ? slider.toLowerCase() : slider;
  },
  epCheck(s) {  // the pawn that just moved two squares gives check; capturing it en passant is an evasion
    mutations.epDoublePush(s);
    const white = s.side === 'b';
    const pawn = (white ? 3 : 4) * 8 + (s.ep.charCodeAt(0) - 97);
    const targets = [pawn + (white ? 7 : -9), pawn + (white ? 9 : -7)].filter(t => Math.abs((t & 7) - (pawn & 7)) === 1);
    const ourKing = s.side === 'w' ? 'K' : 'k';
    s.board = s.board.map(p => (p === ourKing ? '' : p));
    s.board[pick(targets)] = ourKing;
  },
  swapColours(s) {
    s.board = s.board.map(p => (p ? swapCase(p) : p));
  },
  flipBoard(s) {  // written from rank 1 up
    const b = new Array(64);
    for (let i = 0; i < 64; i++) b[i] = s.board[(7 - (i >> 3)) * 8 + (i & 7)];
    s.board = b;
  },
  clocks(s) {
    const half = pick([0, 0, randInt(100), 100 + randInt(51), 151 + randInt(850), 9999, 10000 + randInt(55536), 65536]);
    const full = pick([0, 1, 1 + randInt(300), 9999, 10000 + randInt(990000), 1000001, '00', '0007']);
    setClocks(s, half, full);
  },
  truncate(s) {  // 1 to 4 fields: the rest is completed with defaults
    s.keepFields = 1 + randInt(4);
  },
  splitDigits(s) {  // "44" instead of "8": not FEN, though some readers take it
    s.splitDigits = true;
  },
};
const mutationNames = Object.keys(mutations);

function mutate(fen) {
  const s = parse(fen);
  if (!s) return null;
  const count = random() < 0.7 ? 1 : 2 + randInt(2);
  for (let n = 0; n < count; n++) mutations[pick(mutationNames)](s);
  let out = serialize(s);
  if (s.splitDigits) {
    const runs = [...out.split(' ')[0].matchAll(/[2-8]/g)];
    if (runs.length) {
      const m = pick(runs);
      const n = Number(m[0]);
      const left = 1 + randInt(n - 1);
      out = out.slice(0, m.index) + left + (n - left) + out.slice(m.index + 1);
    }
  }
  return out;
}

function main() {
  const [dataDir, outFile, ...extra] = process.argv.slice(2);
  if (!dataDir || !outFile) {
    console.error('usage: node generate_inputs.mjs <shared-data-dir> <out-file> [extra-input-file ...]');
    process.exit(2);
  }
  const base = readBase(dataDir);
  const lines = base.slice();
  for (let n = 0; n < kMutations; n++) {
    const m = mutate(base[randInt(base.length)]);
    if (m) lines.push(m);
  }
  for (const file of extra) lines.push(...splitLines(readFileSync(file, 'latin1')));
  writeFileSync(outFile, lines.join('\n') + '\n');
  console.error(`generate_inputs: ${base.length} real positions + ${lines.length - base.length} mutated/extra lines`);
}

main();
