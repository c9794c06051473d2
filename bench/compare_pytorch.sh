#!/usr/bin/env bash
# Installs PyTorch (Debian's python3-torch, with OpenBLAS) if missing, builds the core benchmark,
# and runs the side-by-side comparison. Not part of the test command.
#   bench/compare_pytorch.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install_packages.sh python3-torch libopenblas0-pthread
./setup.sh build
/usr/bin/python3 bench/compare_pytorch.py build/bench/bench_core "${1:-5}"
