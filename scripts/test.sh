#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test: the release build's GoogleTest suite (including the
# differential test against chessops), a short libFuzzer run, and the suite again under ASan+UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}

scripts/setup.sh
# chessops for the differential test (npm registry only; lock file pins the version)
if [ -f tests/diff/package-lock.json ]; then
  npm ci --prefix tests/diff --no-audit --no-fund --loglevel=error
fi

echo "== $(date -u +%T) release build + tests"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DFENMILL_TESTS=ON -DFENMILL_BENCH=ON >/dev/null
ninja -C build -j "$JOBS"
ctest --test-dir build --output-on-failure -j "$JOBS"

# FEN gets two thirds of FUZZ_SECONDS, the others a third each: about 2 x FUZZ_SECONDS in all.
echo "== $(date -u +%T) libFuzzer: FEN $((FUZZ_SECONDS * 2 / 3))s; PGN replay, CSV and JSON Lines scanners, binary input $((FUZZ_SECONDS / 3))s each"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFENMILL_FUZZ=ON \
  -DFENMILL_TESTS=OFF -DFENMILL_BENCH=OFF -DFENMILL_SANITIZE=ON >/dev/null
ninja -C build-fuzz -j "$JOBS" fen_fuzz pgn_fuzz csv_fuzz jsonl_fuzz binary_fuzz
for target in fen pgn csv jsonl binary; do
  seconds=$((FUZZ_SECONDS * 2 / 3))
  [ "$target" = fen ] || seconds=$((FUZZ_SECONDS / 3))
  mkdir -p "build-fuzz/corpus-$target"
  build-fuzz/${target}_fuzz -max_total_time="$seconds" -timeout=10 -max_len=512 -artifact_prefix=build-fuzz/ \
    "build-fuzz/corpus-$target" "tests/fuzz/corpus/$target"
done

echo "== $(date -u +%T) ASan + UBSan build + tests"
# -g1: line tables only, enough for ASan's and UBSan's file:line reports; full -g made this build ~25 % slower (10:48
# against 8:09 at -j2 on the 2-core CI machine), and the build is most of CI's time.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFENMILL_SANITIZE=ON -DFENMILL_BENCH=OFF \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" >/dev/null
ninja -C build-asan -j "$JOBS"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -j "$JOBS"
echo "== $(date -u +%T) all tests passed"
