#!/usr/bin/env bash
# Makes a JSON Lines sample in the shape of the lichess evaluation dump from real positions (no public sample of
# that dump exists here): {"fen": <4 fields>, "evals": [{"pvs": [{"cp"|"mate": N, "line": "..."}], "knodes": N,
# "depth": N}]}. The positions are real (lichess, CC0); the evaluations are made-up placeholders (deterministic),
# since only the shape matters to fenmill. Usage: scripts/make_eval_jsonl.sh FEN_FILE N > out.jsonl
set -euo pipefail
awk -v n="${2:-1000}" 'NR > n { exit }
{
  fen = $1 " " $2 " " $3 " " $4
  cp = (NR * 37) % 400 - 200
  eval_ = (NR % 11 == 0) ? "\"mate\": " ((NR % 2) ? 3 : -4) : "\"cp\": " cp
  line = (NR % 3 == 0) ? "e2e4 e7e5" : "g1f3"
  extra = (NR % 5 == 0) ? ", {\"pvs\": [{\"cp\": " cp + 5 ", \"line\": \"d2d4\"}, {\"cp\": " cp - 9 ", \"line\": \"c2c4 e7e5\"}], \"knodes\": " NR * 13 ", \"depth\": 36}" : ""
  printf "{\"fen\": \"%s\", \"evals\": [{\"pvs\": [{%s, \"line\": \"%s\"}], \"knodes\": %d, \"depth\": %d}%s]}\n", fen, eval_, line, NR * 7, 20 + NR % 30, extra
}' "$1"
