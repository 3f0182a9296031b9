#!/usr/bin/env bash
# Builds the end-to-end benchmark corpus from the real positions in ../shared/data/bench/lichess-2m.fen.zst
# (2 M lichess positions, CC0): four variants of every position, interleaved in blocks, ~450 MB:
#   1. the line as it is;
#   2. the same position with other clocks (a duplicate for the default dedup key, not for --key full);
#   3. the colour-mirrored position (ranks reversed, colours and side swapped): a new, valid position;
#   4. the side to move flipped: often invalid (the other side is in check) or a new position.
# Output: $1 (default build/bench/corpus.fen). Deterministic.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${SHARED_DATA:-../shared/data}/bench/lichess-2m.fen.zst
out=${1:-build/bench/corpus.fen}
mkdir -p "$(dirname "$out")"
[ -f "$src" ] || { echo "missing $src (the shared data set)"; exit 2; }
zstd -dc "$src" | awk '
function mirror(fen,    f, n, r, i, p, s, c, cs, ep) {
  n = split(fen, f, " ")
  split(f[1], r, "/")
  p = ""
  for (i = 8; i >= 1; i--) p = p (i < 8 ? "/" : "") swapcase(r[i])
  s = (f[2] == "w") ? "b" : "w"
  cs = f[3]; if (cs != "-") { c = swapcase(cs); cs = ""; if (c ~ /K/) cs = cs "K"; if (c ~ /Q/) cs = cs "Q"; if (c ~ /k/) cs = cs "k"; if (c ~ /q/) cs = cs "q" }
  ep = f[4]; if (ep != "-") ep = substr(ep, 1, 1) (substr(ep, 2, 1) == "6" ? "3" : "6")
  return p " " s " " cs " " ep " " f[5] " " f[6]
}
function swapcase(s,    i, ch, o) {
  o = ""
  for (i = 1; i <= length(s); i++) { ch = substr(s, i, 1); o = o (ch ~ /[a-z]/ ? toupper(ch) : tolower(ch)) }
  return o
}
{
  line[NR % 1000] = $0
  if (NR % 1000 == 0) emit()
}
function emit(   i, f) {
  for (i = 0; i < 1000; i++) if (i in line) print line[i]
  for (i = 0; i < 1000; i++) if (i in line) { split(line[i], f, " "); print f[1] " " f[2] " " f[3] " " f[4] " " (f[5] + 1) " " (f[6] + 7) }
  for (i = 0; i < 1000; i++) if (i in line) print mirror(line[i])
  for (i = 0; i < 1000; i++) if (i in line) { split(line[i], f, " "); print f[1] " " (f[2] == "w" ? "b" : "w") " " f[3] " - " f[5] " " f[6] }
  delete line
}
END { emit() }
' > "$out"
ls -l "$out"
