#!/usr/bin/env bash
# Installs PyTorch (Debian's python3-torch, with OpenBLAS) if missing, builds the core benchmark,
# and runs the side-by-side comparison. Not part of the test command.
#   bench/compare_pytorch.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
for p in python3-torch libopenblas0-pthread; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${missing[@]}"
fi
./setup.sh build
/usr/bin/python3 bench/compare_pytorch.py build/bench/bench_core "${1:-5}"
