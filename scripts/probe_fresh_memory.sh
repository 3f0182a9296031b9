#!/usr/bin/env bash
# How dear the first touch of fresh memory is on this machine: the cost behind most of the gap between
# `fenmill dedup` and `normalize` on the VM of docs/PERFORMANCE.md ("Dedup", session 4). A tiny C program maps
# SIZE_MB of anonymous memory (huge pages advised, or 4 KiB pages), writes one byte per 4 KiB page, then unmaps
# and does it again ROUNDS times in the same process. The first round after a pause gets memory the host has to
# back anew; later rounds reuse what the process just freed. Usage: scripts/probe_fresh_memory.sh [SIZE_MB] [ROUNDS]
set -euo pipefail
size_mb=${1:-128}
rounds=${2:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/probe.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
int main(int argc, char** argv) {
  const size_t huge = (size_t)2 << 20, n = (size_t)atol(argv[1]) << 20;
  const int rounds = atoi(argv[2]), advise = atoi(argv[3]);
  for (int r = 1; r <= rounds; ++r) {
    char* raw = mmap(0, n + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return perror("mmap"), 1;
    char* p = (char*)(((size_t)raw + huge - 1) & ~(huge - 1));
    madvise(p, n, advise);
    double t0 = now();
    for (size_t i = 0; i < n; i += 4096) p[i] = 1;
    double t1 = now();
    printf("%s round %d: %zu MB first touch %.3f s (%.2f GB/s)\n", advise == MADV_HUGEPAGE ? "huge pages" : "4 KiB pages",
           r, n >> 20, t1 - t0, n / (t1 - t0) / 1e9);
    munmap(raw, n + huge);
  }
  return 0;
}
EOF
cc -O2 "$dir/probe.c" -o "$dir/probe"
"$dir/probe" "$size_mb" "$rounds" 14  # MADV_HUGEPAGE
"$dir/probe" "$size_mb" "$rounds" 15  # MADV_NOHUGEPAGE
