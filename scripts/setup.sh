#!/usr/bin/env bash
# Installs fenmill's build and test dependencies from Debian's packages. Idempotent.
set -euo pipefail
packages=(build-essential cmake pkg-config ninja-build
  libsimdjson-dev libtbb-dev libxxhash-dev libzstd-dev zstd libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev
  librsvg2-bin chromium fonts-wqy-microhei
  pgn-extract fairy-stockfish)  # independent implementations for the differential tests
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
# node + npm only for the differential test against chessops; keep an existing node (it bundles npm).
if ! command -v npm >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm
fi
