#!/usr/bin/env bash
# Instructions per record, counted by valgrind's callgrind: the same for the same binary and input whatever else the
# machine is doing, so a change's cost can be told on a noisy VM where wall times vary by a third run to run. One
# thread, output to /dev/null, on the first $LINES records of each input (built by scripts/make_bench_corpus.sh,
# scripts/bench_formats.sh and scripts/bench_pgn.sh; inputs not built yet are skipped); for PGN the games in the first
# 2 x $LINES lines, per position written. Needs valgrind (apt-get install valgrind).
# Usage: scripts/count_instructions.sh [FENMILL_BINARY]   (default build/fenmill)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/fenmill}
LINES=${LINES:-100000}
command -v valgrind > /dev/null || { echo "needs valgrind (apt-get install valgrind)"; exit 2; }
[ -x "$bin" ] || { echo "no $bin: build first"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

count() {  # name records command...
  local name=$1 records=$2; shift 2
  local status=0
  valgrind --tool=callgrind --callgrind-out-file="$work/out" "$@" > /dev/null 2> "$work/err" || status=$?
  # (validate exits 1 when it found invalid records, as the corpus has)
  [ "$status" -le 1 ] || { echo "$name: failed ($status)"; cat "$work/err"; return; }
  local total
  total=$(grep -o 'refs: *[0-9,]*' "$work/err" | tr -dc 0-9)
  printf '%-28s %8d records %14d instructions %6d per record\n' "$name" "$records" "$total" $((total / records))
}

slice() {  # source name: the first LINES lines (plus a CSV header) into $work/name
  local source=$1 name=$2
  if [[ $name == *.csv ]]; then head -n $((LINES + 1)) "$source"; else head -n "$LINES" "$source"; fi > "$work/$name"
}

echo "$bin, $LINES records each, 1 thread ($(date -u '+%Y-%m-%d %H:%M UTC'))"
if [ -f build/bench/corpus.fen ]; then
  slice build/bench/corpus.fen corpus.fen
  count "normalize corpus.fen" "$LINES" "$bin" normalize -q --threads 1 "$work/corpus.fen" -o /dev/null
  count "dedup corpus.fen" "$LINES" "$bin" dedup -q --threads 1 "$work/corpus.fen" -o /dev/null
  count "validate corpus.fen" "$LINES" "$bin" validate -q --threads 1 "$work/corpus.fen"
fi
formats=build/bench/formats
if [ -f "$formats/positions.fen" ]; then
  slice "$formats/positions.fen" positions.fen
  count "normalize positions.fen" "$LINES" "$bin" normalize -q --threads 1 "$work/positions.fen" -o /dev/null
  for ext in epd csv jsonl; do
    [ -f "$formats/positions.$ext" ] || continue
    slice "$formats/positions.$ext" "positions.$ext"
    count "normalize --to $ext" "$LINES" "$bin" normalize -q --threads 1 --to "$ext" "$work/positions.$ext" -o /dev/null
  done
  "$bin" convert -q --threads 1 "$work/positions.fen" -o "$work/positions.bin"
  count "convert fen -> bin" "$LINES" "$bin" convert -q --threads 1 "$work/positions.fen" --to bin -o /dev/null
  count "convert bin -> fen" "$LINES" "$bin" convert -q --threads 1 "$work/positions.bin" -o /dev/null
fi
if [ -f build/bench/lichess-46k.pgn ]; then
  head -n $((2 * LINES)) build/bench/lichess-46k.pgn > "$work/games.pgn"
  positions=$("$bin" normalize -q "$work/games.pgn" | wc -l)
  count "normalize games.pgn" "$positions" "$bin" normalize -q --threads 1 "$work/games.pgn" -o /dev/null
fi
