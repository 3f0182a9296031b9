#!/usr/bin/env bash
# Installs dependencies, builds fenmill, and runs the main job on the sample shipped in the repo:
# normalize and dedup tests/data/demo.fen (5,008 lines: real lichess positions, duplicates, and the
# classic FEN mistakes), writing results to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# A fresh build directory is configured (Release, the binary alone); an existing one, e.g. scripts/test.sh's, is
# reused with its options, so the demo does not switch the test build off (a later `ninja -C build` would then
# leave a stale test binary). Remove build/ for a clean Release build.
[ -f build/CMakeCache.txt ] ||
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DFENMILL_TESTS=OFF -DFENMILL_BENCH=OFF >/dev/null
ninja -C build fenmill
mkdir -p out
set -x
build/fenmill normalize tests/data/demo.fen -o out/demo.normalized.fen --rejects out/demo.rejects.jsonl --force
build/fenmill dedup tests/data/demo.fen -o out/demo.dedup.fen --summary out/demo.summary.json --force
set +x
cat out/demo.summary.json
echo "first rejects:"; head -n 3 out/demo.rejects.jsonl
