// Peer pipeline for scripts/bench.sh: the same job as `fenmill normalize` / `fenmill dedup`, done with
// chessops (lichess's rules library): parse, validate, write normalized FEN (legal ep only), optionally
// keep first occurrences by the first four fields. Usage: node chessops_pipeline.mjs normalize|dedup FILE
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseFen, makeFen } from 'chessops/fen';
import { Chess } from 'chessops/chess';

const [mode, file] = process.argv.slice(2);
const seen = new Set();
let out = [];
let written = 0, invalid = 0;
const flush = () => { process.stdout.write(out.join('')); out = []; };
const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  const setup = parseFen(line.trim());
  if (setup.isErr) { invalid++; continue; }
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) { invalid++; continue; }
  const fen = makeFen(pos.value.toSetup());
  if (mode === 'dedup') {
    const key = fen.split(' ', 4).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
  }
  out.push(fen, '\n');
  written++;
  if (out.length > 8192) flush();
}
flush();
process.stderr.write(`chessops: ${written} written, ${invalid} invalid\n`);
