#!/usr/bin/env bash
# PGN -> positions, side by side in one run: pgn-extract (Debian) writing one EPD line per position, and
# fenmill normalize at 1 and 2 threads writing one FEN per position, on the 46,177 real lichess games of
# ../shared/data/bench/lichess-46k.pgn.zst (130 MB of PGN). Medians of $RUNS runs; games/s, positions/s, MB/s.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
src=${SHARED_DATA:-../shared/data}/bench/lichess-46k.pgn.zst
pgn=build/bench/lichess-46k.pgn
mkdir -p build/bench
[ -f "$pgn" ] || zstd -dc "$src" > "$pgn"
[ -x build/fenmill ] || { cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && ninja -C build fenmill; }
command -v pgn-extract >/dev/null || PATH=$PATH:/usr/games
bytes=$(stat -c %s "$pgn")
games=$(grep -c '^\[Event ' "$pgn")
positions=$(build/fenmill normalize -q "$pgn" | wc -l)

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {
  local name=$1; shift
  local t=()
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e" -o build/bench/t.txt "$@" > /dev/null 2>&1
    t+=("$(cat build/bench/t.txt)")
  done
  local m; m=$(printf '%s\n' "${t[@]}" | median)
  awk -v n="$name" -v s="$m" -v b="$bytes" -v g="$games" -v p="$positions" 'BEGIN {
    printf "| %-34s | %7.2f | %9.0f | %12.0f | %7.1f |\n", n, s, g / s, p / s, b / s / 1e6 }'
}
echo "input: $pgn, $bytes bytes, $games games, $positions positions (start positions included); $RUNS runs, medians"
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
printf '| %-34s | %7s | %9s | %12s | %7s |\n' command seconds games/s positions/s MB/s
echo "|------------------------------------|---------|-----------|--------------|---------|"
measure "pgn-extract -Wepd (1 thread)" pgn-extract -s -Wepd "$pgn"
measure "fenmill normalize, 1 thread" build/fenmill normalize -q --threads 1 "$pgn"
measure "fenmill normalize, 2 threads" build/fenmill normalize -q --threads 2 "$pgn"
measure "fenmill dedup, 2 threads" build/fenmill dedup -q --threads 2 "$pgn"
