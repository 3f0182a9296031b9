#!/usr/bin/env bash
# The same 2 M real positions (../shared/data/bench/lichess-2m.fen.zst) in each text input format, side by side in
# one run: FEN lines; EPD lines (4 fields + `id "..."; c0 "...";`); CSV rows in the lichess puzzle dump's shape;
# JSON Lines in the lichess evaluation dump's shape (scripts/make_eval_jsonl.sh). For each: `cat` of the file, then
# `fenmill normalize` at 1 and 2 threads writing the same format back (--to epd/csv/jsonl; FEN for FEN). Then the
# binary format both ways: FEN -> bin and bin -> FEN. Medians of $RUNS runs; positions/s and MB/s of input. What it
# shows: the cost of each format's record scanning and writing around the same FEN work.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
src=${SHARED_DATA:-../shared/data}/bench/lichess-2m.fen.zst
dir=build/bench/formats
mkdir -p "$dir"
[ -x build/fenmill ] || { cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && ninja -C build fenmill; }
[ -f "$dir/positions.fen" ] || zstd -dc "$src" > "$dir/positions.fen"
[ -f "$dir/positions.epd" ] || awk '{ printf "%s %s %s %s id \"lichess.%d\"; c0 \"fullmove %s\";\n", $1, $2, $3, $4, NR, $6 }' \
  "$dir/positions.fen" > "$dir/positions.epd"
[ -f "$dir/positions.csv" ] || awk 'BEGIN { print "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags" }
  { printf "%05x,%s,e2e4 e7e5 g1f3,%d,75,%d,%d,crushing endgame long,https://lichess.org/abcdEFGH#%d,\n",
      NR, $0, 600 + NR % 2400, 80 + NR % 21, 10 + NR % 9990, NR % 80 }' "$dir/positions.fen" > "$dir/positions.csv"
[ -f "$dir/positions.jsonl" ] || scripts/make_eval_jsonl.sh "$dir/positions.fen" 100000000 > "$dir/positions.jsonl"
positions=$(wc -l < "$dir/positions.fen")

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {  # name bytes command...
  local name=$1 bytes=$2; shift 2
  local t=()
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e" -o "$dir/t.txt" "$@" > /dev/null 2>&1
    t+=("$(cat "$dir/t.txt")")
  done
  local m; m=$(printf '%s\n' "${t[@]}" | median)
  awk -v n="$name" -v s="$m" -v b="$bytes" -v p="$positions" 'BEGIN {
    printf "| %-34s | %7.1f | %7.2f | %12.0f | %7.0f |\n", n, b / 1e6, s, (s > 0 ? p / s : 0), (s > 0 ? b / s / 1e6 : 0) }'
}
echo "input: $positions positions from $src; $RUNS runs, medians"
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
printf '| %-34s | %7s | %7s | %12s | %7s |\n' command MB seconds positions/s MB/s
echo "|------------------------------------|---------|---------|--------------|---------|"
for format in fen epd csv jsonl; do
  file=$dir/positions.$format
  bytes=$(stat -c %s "$file")
  cat "$file" > /dev/null  # warm the page cache
  measure "cat $format" "$bytes" cat "$file"
  measure "normalize $format, 1 thread" "$bytes" build/fenmill normalize -q --threads 1 --to "$format" "$file"
  measure "normalize $format, 2 threads" "$bytes" build/fenmill normalize -q --threads 2 --to "$format" "$file"
done
[ -f "$dir/positions.bin" ] || build/fenmill convert -q "$dir/positions.fen" -o "$dir/positions.bin"
fen_bytes=$(stat -c %s "$dir/positions.fen")
bin_bytes=$(stat -c %s "$dir/positions.bin")
for threads in 1 2; do
  measure "convert fen -> bin, $threads thread(s)" "$fen_bytes" \
    build/fenmill convert -q --threads "$threads" --to bin "$dir/positions.fen"
  measure "convert bin -> fen, $threads thread(s)" "$bin_bytes" \
    build/fenmill convert -q --threads "$threads" --to fen "$dir/positions.bin"
done
