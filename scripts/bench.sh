#!/usr/bin/env bash
# End-to-end benchmark, all in one run on one machine: `cat` of the corpus (the I/O floor), fenmill
# normalize and dedup at 1 and 2 threads, and a peer pipeline doing the same job (chessops on Node.js,
# on a 1 M-line slice, since it is far slower). Reports MB/s, positions/s, peak RSS, ratio to cat.
# The commands run interleaved, one of each per round, $RUNS rounds (default 5): the VMs this runs on
# drift by 20-30 % within minutes, so each ratio is taken within a round and the median of the rounds'
# ratios is reported. Needs ../shared/data for the corpus (scripts/make_bench_corpus.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
corpus=build/bench/corpus.fen
[ -f "$corpus" ] || scripts/make_bench_corpus.sh "$corpus"
[ -x build/fenmill ] || { cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && ninja -C build fenmill; }
[ -x build/fenmill_dedup_floor ] || ninja -C build fenmill_dedup_floor >/dev/null 2>&1 || true  # needs FENMILL_BENCH
bytes=$(stat -c %s "$corpus")
lines=$(wc -l < "$corpus")
slice=build/bench/slice-1m.fen
head -n 1000000 "$corpus" > "$slice"
slice_bytes=$(stat -c %s "$slice")

names=() nbytes=() nlines=() cmds=()
add() { names+=("$1"); nbytes+=("$2"); nlines+=("$3"); cmds+=("$4"); }
add "cat" "$bytes" "$lines" "cat $corpus"
add "fenmill normalize, 1 thread" "$bytes" "$lines" "build/fenmill normalize -q --threads 1 $corpus"
add "fenmill normalize, 2 threads" "$bytes" "$lines" "build/fenmill normalize -q --threads 2 $corpus"
add "fenmill dedup, 1 thread" "$bytes" "$lines" "build/fenmill dedup -q --threads 1 $corpus"
add "fenmill dedup, 2 threads" "$bytes" "$lines" "build/fenmill dedup -q --threads 2 $corpus"
rounds=$RUNS
peer_from=${#names[@]}
if [ -d tests/diff/node_modules/chessops ]; then
  export NODE_PATH=$PWD/tests/diff/node_modules
  ln -sfn "$PWD/tests/diff/node_modules" scripts/peers/node_modules
  add "peer: chessops normalize (1 M-line slice)" "$slice_bytes" 1000000 "node scripts/peers/chessops_pipeline.mjs normalize $slice"
  add "peer: chessops dedup (1 M-line slice)" "$slice_bytes" 1000000 "node scripts/peers/chessops_pipeline.mjs dedup $slice"
  add "fenmill normalize, 2 threads (1 M-line slice)" "$slice_bytes" 1000000 "build/fenmill normalize -q --threads 2 $slice"
fi

# times[i] = "t1 t2 ..." (wall seconds per round), cpus[i] the same in user + system seconds, rss[i] = max KB.
# The peers (slow) run in round 1 only.
declare -a times cpus rss
cat "$corpus" > /dev/null  # warm the page cache
for round in $(seq "$rounds"); do
  for i in "${!cmds[@]}"; do
    (( i >= peer_from && round > 1 )) && continue
    # shellcheck disable=SC2086  # the command is a word list on purpose
    /usr/bin/time -f "%e %M %U %S" -o build/bench/time.txt ${cmds[$i]} > /dev/null 2> build/bench/stderr.txt
    read -r t m u s < build/bench/time.txt
    times[$i]="${times[$i]:-} $t"
    cpus[$i]="${cpus[$i]:-} $(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')"
    (( m > ${rss[$i]:-0} )) && rss[$i]=$m
  done
  # Dedup's floor this round: the CPU time of the keys and of a fresh table's inserts alone (bench/dedup_floor.cpp).
  if [ -x build/fenmill_dedup_floor ]; then
    read -r _ _ _ key_s table_s _ < <(build/fenmill_dedup_floor "$corpus")
    floor_keys="${floor_keys:-} $key_s" floor_tables="${floor_tables:-} $table_s"
  fi
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Median over rounds of times[a] / times[b].
ratio() {
  paste <(echo "${times[$1]}" | tr ' ' '\n' | grep .) <(echo "${times[$2]}" | tr ' ' '\n' | grep .) |
    awk '{print ($2 > 0 ? $1 / $2 : 0)}' | median | awk '{printf "%.2f", $1}'
}

cat_secs=$(echo "${times[0]}" | median)
echo
echo "corpus: $corpus, $bytes bytes, $lines lines; $rounds interleaved rounds, medians; machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
printf '| %-46s | %8s | %9s | %12s | %9s | %10s |\n' "command" "seconds" "MB/s" "positions/s" "peak RSS" "cat ratio"
printf '|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..48})" "----------" "-----------" "--------------" "-----------" "------------"
for i in "${!cmds[@]}"; do
  secs=$(echo "${times[$i]}" | median)
  awk -v n="${names[$i]}" -v s="$secs" -v b="${nbytes[$i]}" -v l="${nlines[$i]}" -v m="${rss[$i]}" -v c="$cat_secs" -v cb="$bytes" 'BEGIN {
    if (s <= 0) s = 0.001
    printf "| %-46s | %8.2f | %9.0f | %12.0f | %6.0f MB | %9.2fx |\n", n, s, b / s / 1e6, l / s, m / 1024, (b / s) / (cb / c) }'
done
echo
echo "per-round ratios (median of $rounds): normalize 1->2 threads speed-up $(ratio 1 2)x;" \
  "dedup / normalize on 2 threads $(ratio 4 2)x, on 1 thread $(ratio 3 1)x"
if [ -n "${floor_tables:-}" ]; then
  # Normalize keeps both cores busy, so on 2 threads dedup can at best add its keys' and table's CPU time to
  # normalize's, spread over the two: (normalize CPU + key + table) / normalize CPU, per round.
  floor=$(paste <(echo "${cpus[2]}" | tr ' ' '\n' | grep .) <(echo "$floor_keys" | tr ' ' '\n' | grep .) \
    <(echo "$floor_tables" | tr ' ' '\n' | grep .) | awk '{print ($1 + $2 + $3) / $1}' | median | awk '{printf "%.2f", $1}')
  echo "dedup's floor on 2 threads: ${floor}x normalize (normalize's CPU time plus, in a fresh process," \
    "the keys' $(echo "$floor_keys" | median) s and a fresh table's inserts' $(echo "$floor_tables" | median) s" \
    "of CPU, medians; bench/dedup_floor.cpp)"
fi
echo "all rounds (seconds):"
for i in 1 2 3 4; do echo "  ${names[$i]}:${times[$i]} (CPU:${cpus[$i]})"; done
[ -z "${floor_tables:-}" ] || echo "  dedup floor, keys:$floor_keys; table:$floor_tables"
