#!/usr/bin/env bash
# End-to-end benchmark, all in one run on one machine: `cat` of the corpus (the I/O floor), fenmill
# normalize and dedup at 1 and 2 threads, and a peer pipeline doing the same job (chessops on Node.js,
# on a 1 M-line slice, since it is far slower). Reports MB/s, positions/s, peak RSS, ratio to cat.
# Medians of $RUNS runs (default 5). Needs ../shared/data for the corpus (scripts/make_bench_corpus.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
corpus=build/bench/corpus.fen
[ -f "$corpus" ] || scripts/make_bench_corpus.sh "$corpus"
[ -x build/fenmill ] || { cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && ninja -C build fenmill; }
bytes=$(stat -c %s "$corpus")
lines=$(wc -l < "$corpus")
slice=build/bench/slice-1m.fen
head -n 1000000 "$corpus" > "$slice"
slice_bytes=$(stat -c %s "$slice")

# run NAME BYTES LINES CMD...: median wall seconds and max RSS over $RUNS runs (output to /dev/null).
results=()
run() {
  local name=$1 nbytes=$2 nlines=$3; shift 3
  local times=() rss=0
  cat "$corpus" > /dev/null  # warm the page cache
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o build/bench/time.txt "$@" > /dev/null 2> build/bench/stderr.txt
    read -r t m < build/bench/time.txt
    times+=("$t"); (( m > rss )) && rss=$m
  done
  local med
  med=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  results+=("$name|$med|$nbytes|$nlines|$rss")
}

run "cat" "$bytes" "$lines" cat "$corpus"
run "fenmill normalize, 1 thread" "$bytes" "$lines" build/fenmill normalize -q --threads 1 "$corpus"
run "fenmill normalize, 2 threads" "$bytes" "$lines" build/fenmill normalize -q --threads 2 "$corpus"
run "fenmill dedup, 1 thread" "$bytes" "$lines" build/fenmill dedup -q --threads 1 "$corpus"
run "fenmill dedup, 2 threads" "$bytes" "$lines" build/fenmill dedup -q --threads 2 "$corpus"
if [ -d tests/diff/node_modules/chessops ]; then
  export NODE_PATH=$PWD/tests/diff/node_modules
  ln -sfn "$PWD/tests/diff/node_modules" scripts/peers/node_modules
  RUNS=1 run "peer: chessops normalize (1 M-line slice)" "$slice_bytes" 1000000 node scripts/peers/chessops_pipeline.mjs normalize "$slice"
  RUNS=1 run "peer: chessops dedup (1 M-line slice)" "$slice_bytes" 1000000 node scripts/peers/chessops_pipeline.mjs dedup "$slice"
  run "fenmill normalize, 2 threads (1 M-line slice)" "$slice_bytes" 1000000 build/fenmill normalize -q --threads 2 "$slice"
fi

cat_secs=$(echo "${results[0]}" | cut -d'|' -f2)
echo
echo "corpus: $corpus, $bytes bytes, $lines lines; $RUNS runs, medians; machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
printf '| %-46s | %8s | %9s | %12s | %9s | %10s |\n' "command" "seconds" "MB/s" "positions/s" "peak RSS" "cat ratio"
printf '|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..48})" "----------" "-----------" "--------------" "-----------" "------------"
for r in "${results[@]}"; do
  IFS='|' read -r name secs nb nl rss <<< "$r"
  awk -v n="$name" -v s="$secs" -v b="$nb" -v l="$nl" -v m="$rss" -v c="$cat_secs" -v cb="$bytes" 'BEGIN {
    if (s <= 0) s = 0.001
    printf "| %-46s | %8.2f | %9.0f | %12.0f | %6.0f MB | %9.2fx |\n", n, s, b / s / 1e6, l / s, m / 1024, (b / s) / (cb / c) }'
done
